package dev.reed.agent.spool;

/**
 * A snapshot of the spool's figures (exported as metrics).
 *
 * @param bytes bytes of the batches not yet acknowledged (what counts against the bound)
 * @param batches batches not yet acknowledged
 * @param records records not yet acknowledged
 * @param droppedBatches batches dropped since start because the spool was full (oldest first)
 * @param droppedRecords records in those batches
 * @param corruptEntries entries found damaged on disk at start (CRC mismatch, torn write) and skipped
 */
public record SpoolStats(long bytes, long batches, long records, long droppedBatches, long droppedRecords,
    long corruptEntries) {}
