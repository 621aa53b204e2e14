package dev.reed.client;

import dev.reed.probe.ProbeCounters;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.probe.Prober;
import dev.reed.proto.v1.ProbeStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Answers probes from a {@link FakeWorld} (pure-logic tests only; the real probe engine is used
 * in the integration tests). With {@code realMicrosPerMs > 0} replies arrive after the world's
 * RTT scaled to real time, so replies overtake each other as on a network.
 */
final class FakeProber implements Prober {
  private final FakeWorld world;
  private final long realMicrosPerMs;
  private final boolean silentNeverTimeOut;
  private final ScheduledExecutorService timer;
  /** Probes of silent servers held open by {@code silentNeverTimeOut}, timed out on {@link #close}. */
  private final List<Runnable> held = Collections.synchronizedList(new ArrayList<>());
  final List<ProbeTarget> sent = Collections.synchronizedList(new ArrayList<>());
  /** What a server answers now, when it differs from what the coordinator lists (key -> info). */
  final java.util.Map<String, dev.reed.proto.v1.ServerInfo> replyOverride = new java.util.concurrent.ConcurrentHashMap<>();

  FakeProber(FakeWorld world, long realMicrosPerMs) {
    this(world, realMicrosPerMs, false);
  }

  /**
   * @param silentNeverTimeOut a silent server's probe never completes (until {@link #close}): a
   *     discovery that waited for its timeout would never end, whatever the machine's speed
   */
  FakeProber(FakeWorld world, long realMicrosPerMs, boolean silentNeverTimeOut) {
    this.world = world;
    this.realMicrosPerMs = realMicrosPerMs;
    this.silentNeverTimeOut = silentNeverTimeOut;
    this.timer = realMicrosPerMs > 0 ? Executors.newSingleThreadScheduledExecutor() : null;
  }

  @Override
  public CompletableFuture<ProbeResult> probe(ProbeTarget target) {
    sent.add(target);
    FakeWorld.Server s = world.find(target.address());
    double rtt = s == null || !s.answers() ? 1000 : world.rttMs(s);
    ProbeResult r = s == null || !s.answers()
        ? new ProbeResult(target, ProbeStatus.PROBE_STATUS_TIMEOUT, 0, 0, Instant.EPOCH, null, null)
        : new ProbeResult(target, ProbeStatus.PROBE_STATUS_OK, (long) (rtt * 1e6), 0, Instant.EPOCH,
            replyOverride.getOrDefault(s.key(), s.info()), null);
    if (silentNeverTimeOut && (s == null || !s.answers())) {
      CompletableFuture<ProbeResult> f = new CompletableFuture<>();
      held.add(() -> f.complete(r));
      return f;
    }
    if (timer == null) return CompletableFuture.completedFuture(r);
    CompletableFuture<ProbeResult> f = new CompletableFuture<>();
    timer.schedule(() -> f.complete(r), (long) (rtt * realMicrosPerMs), TimeUnit.MICROSECONDS);
    return f;
  }

  @Override
  public CompletableFuture<List<ProbeResult>> probeBurst(ProbeTarget target, int count) {
    throw new UnsupportedOperationException("the client never bursts");
  }

  @Override
  public ProbeCounters counters() {
    return new ProbeCounters(sent.size(), 0, 0, 0, 0, 0, 0);
  }

  int sentTo(String key) {
    synchronized (sent) {
      return (int) sent.stream().filter(t -> dev.reed.proto.Endpoints.key(t.address()).equals(key)).count();
    }
  }

  @Override
  public void close() {
    synchronized (held) {
      held.forEach(Runnable::run);
    }
    if (timer != null) timer.shutdownNow();
  }
}
