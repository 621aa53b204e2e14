package dev.reed.agent.publish;

import dev.reed.agent.spool.Spool;
import dev.reed.agent.spool.SpooledRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Groups a round's records into batches of {@code batchSize} and appends each full batch to the
 * spool, from which the {@link Publisher} sends it. Records are timestamped here, once, so every
 * replay carries the same timestamp. Thread-safe: probe completions add records from the probe
 * engine's threads.
 */
public final class RecordBatcher {
  private static final Logger log = LoggerFactory.getLogger(RecordBatcher.class);

  private final Spool spool;
  private final int batchSize;
  private final Clock clock;
  private final List<SpooledRecord> pending = new ArrayList<>();
  private long writeErrors;
  private long lostRecords;

  public RecordBatcher(Spool spool, int batchSize, Clock clock) {
    this.spool = spool;
    this.batchSize = batchSize;
    this.clock = clock;
  }

  /** Adds a record; appends a batch to the spool when {@code batchSize} records are pending. */
  public synchronized void add(String topic, String key, String id, byte[] value) {
    pending.add(new SpooledRecord(topic, clock.millis(), id, key.getBytes(StandardCharsets.UTF_8), value));
    if (pending.size() >= batchSize) flush();
  }

  /** Appends the pending records, if any, as one batch. */
  public synchronized void flush() {
    if (pending.isEmpty()) return;
    List<SpooledRecord> batch = List.copyOf(pending);
    pending.clear();
    try {
      spool.append(batch);
    } catch (IOException | RuntimeException e) {
      writeErrors++;
      lostRecords += batch.size();
      log.error("cannot write a batch of {} records to the spool {} ({}); they are lost", batch.size(), spool.directory(),
          e.toString());
    }
  }

  /** Batches that could not be written to the spool (disk full, I/O error) since start. */
  public synchronized long writeErrors() {
    return writeErrors;
  }

  /** Records in those batches. */
  public synchronized long lostRecords() {
    return lostRecords;
  }
}
