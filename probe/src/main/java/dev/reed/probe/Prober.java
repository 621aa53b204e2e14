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
   * One probe as {@link #probe}, which for an A2S target opens with a challenge the server never
   * issued ({@link ReplyForensics#challengeCheck()}): a real server refuses it with a fresh
   * challenge, the one it sends a plain request anyway, so for it the check costs 4 bytes; a
   * server that never challenges costs one more exchange. The RTT is the final exchange's, as
   * always. Quake3 targets are probed as usual (every Quake3 probe checks its echoed challenge).
   * Probers that cannot check probe as {@link #probe}.
   */
  default CompletableFuture<ProbeResult> probeForgingChallenge(ProbeTarget target) {
    return probe(target);
  }

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
