package dev.reed.agent.spool;

import java.util.List;

/**
 * One batch in the spool, as returned by {@link Spool#peek()}; hand it back to
 * {@link Spool#acknowledge(SpoolEntry)} once the broker acknowledged every record in it.
 *
 * @param segment segment file number
 * @param offset byte offset of the entry in its segment
 * @param records the batch, in the order it was appended
 */
public record SpoolEntry(long segment, long offset, List<SpooledRecord> records) {
  public SpoolEntry {
    records = List.copyOf(records);
  }
}
