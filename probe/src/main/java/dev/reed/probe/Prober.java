package dev.reed.probe;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Probes game servers over UDP and measures their round-trip time. */
public interface Prober extends AutoCloseable {
  /**
   * Probes once, paced by the global rate and the per-target spacing. Blocks the caller while the
   * maximum of outstanding probes is reached. The future completes normally with OK, TIMEOUT or
   * ERROR, never exceptionally for network outcomes.
   */
  CompletableFuture<ProbeResult> probe(ProbeTarget target);

  /**
   * {@code count} probes back to back to one target (the next is sent when the previous one is
   * answered or timed out), not paced by the global rate nor the per-target spacing: the landmark
   * mesh probes each peer beacon 4 times per round and keeps the minimum (paper section 5.1.1).
   */
  CompletableFuture<List<ProbeResult>> probeBurst(ProbeTarget target, int count);

  ProbeCounters counters();

  @Override
  void close();
}
