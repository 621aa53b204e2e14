package dev.reed.probe;

/**
 * Cumulative counts since the prober started.
 *
 * @param sent probes whose first request went out
 * @param replies probes answered (status OK)
 * @param timeouts probes without a valid reply within the timeout
 * @param errors probes that failed: send error, unsupported reply (bzip2 split), only malformed
 *     replies from the target, engine closed
 * @param unexpected datagrams ignored because no probe to their source address was outstanding
 *     or their challenge did not match (spoofed, duplicate or late replies)
 * @param malformed datagrams from a probed address that could not be decoded (ignored; the probe
 *     keeps waiting for a valid reply)
 * @param outstanding probes accepted and not yet completed (queued or in flight)
 */
public record ProbeCounters(long sent, long replies, long timeouts, long errors, long unexpected, long malformed,
    long outstanding) {}
