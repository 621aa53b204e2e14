package dev.reed.agent.round;

import com.google.protobuf.Timestamp;
import dev.reed.agent.publish.RecordBatcher;
import dev.reed.agent.spool.Spool;
import dev.reed.agent.targets.LandmarkDirectory;
import dev.reed.agent.targets.RoundTargets;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.probe.Prober;
import dev.reed.proto.Endpoints;
import dev.reed.proto.RttBound;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.Target;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One measuring round of a landmark (REED, Armitage &amp; Heyde 2011, section 6.3; docs/design.md
 * section 4):
 *
 * <ol>
 *   <li>announce the landmark on {@code reed.landmarks};
 *   <li>probe every other landmark's beacon {@code meshProbes} times back to back and publish the
 *       minimum to {@code reed.mesh-samples} (paper section 5.1.1: the minimum is the sample
 *       least influenced by transient congestion);
 *   <li>probe every target once, in a shuffled order (so no server sees all landmarks at the same
 *       moment and no landmark always probes the same server first), paced by the probe engine's
 *       global rate, and publish one {@code RttSample} per target to {@code reed.samples}.
 * </ol>
 *
 * Politeness: one probe per target per round; a target that timed out is probed once more, no
 * sooner than {@code retrySpacing} (> 1 s) after the first probe, because ioquake3 answers one
 * request per second per source address after a burst (docs/protocols.md). A sample records the
 * final outcome.
 */
public final class RoundRunner {
  private static final Logger log = LoggerFactory.getLogger(RoundRunner.class);
  /**
   * Probes handed to the engine ahead of its pace: about two seconds of work (at least 16, at most
   * 4096), so memory stays bounded whatever the target count and a shutdown stops the round within
   * seconds instead of after the whole queue.
   */
  static int window(double rate) {
    return (int) Math.max(16, Math.min(4096, rate * 2));
  }

  /**
   * What the round needs to know about its landmark.
   *
   * @param location where the landmark is, as its operator says; null = not announced
   */
  /** @param wsBeaconUrl the announced WebSocket beacon URL; empty = none */
  public record Settings(String landmarkId, String region, GeoPoint location, String version, Duration interval,
      double rate, int meshProbes, Duration probeTimeout, Duration retrySpacing, Duration flushTimeout, String wsBeaconUrl,
      int challengeCheckEvery) {
    public Settings {
      if (challengeCheckEvery < 1) throw new IllegalArgumentException("challengeCheckEvery must be >= 1: " + challengeCheckEvery);
    }
  }

  private final Settings settings;
  private final Prober prober;
  private final RecordBatcher batcher;
  private final Spool spool;
  private final RoundTargets catalog;
  private final LandmarkDirectory directory;
  private final java.util.function.Supplier<InetSocketAddress> beacon;
  private final RoundCounter counter;
  private final Clock clock;
  private final RandomGenerator random;
  private final MeterRegistry registry;
  private final Timer targetRtt;
  private final Timer meshRtt;
  private final ScheduledExecutorService retryTimer;

  public RoundRunner(Settings settings, Prober prober, RecordBatcher batcher, Spool spool, RoundTargets catalog,
      LandmarkDirectory directory, java.util.function.Supplier<InetSocketAddress> beacon, java.nio.file.Path stateDir,
      Clock clock, RandomGenerator random, MeterRegistry registry, ScheduledExecutorService retryTimer) throws IOException {
    this.settings = settings;
    this.prober = prober;
    this.batcher = batcher;
    this.spool = spool;
    this.catalog = catalog;
    this.directory = directory;
    this.beacon = beacon;
    this.counter = new RoundCounter(stateDir);
    this.clock = clock;
    this.random = random;
    this.registry = registry;
    this.retryTimer = retryTimer;
    Duration[] buckets = Arrays.stream(new long[] {1, 2, 5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000})
        .mapToObj(Duration::ofMillis).toArray(Duration[]::new);
    this.targetRtt = Timer.builder("reed.agent.probe.rtt").tag("kind", "target")
        .description("round-trip times of answered probes (targets) and mesh minima (peer beacons)")
        .serviceLevelObjectives(buckets).register(registry);
    this.meshRtt = Timer.builder("reed.agent.probe.rtt").tag("kind", "mesh")
        .description("round-trip times of answered probes (targets) and mesh minima (peer beacons)")
        .serviceLevelObjectives(buckets).register(registry);
  }

  /** The last round number used (0 before the first round). */
  public long lastRound() {
    return counter.last();
  }

  /** Reads the catalog as a round's start does ({@link RoundTargets#current}); call it where rounds run, never beside one. */
  public int readTargets() {
    return catalog.current().targets().size();
  }

  /**
   * Runs one round.
   *
   * @param abandon polled between probes: true stops sending new probes (shutdown); outstanding
   *     probes still complete and everything measured is published
   */
  public RoundReport run(BooleanSupplier abandon) throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    Instant started = clock.instant();
    long spoolStart = spool.position();
    long droppedStart = spool.stats().droppedRecords();
    LandmarkDirectory.View view = directory.read();
    long round = counter.next(view.selfRound());

    announce(round, started);
    int[] mesh = mesh(round, view.peers(), abandon);
    RoundTargets.Snapshot snapshot = catalog.current();
    Tally tally = probeTargets(round, snapshot.targets(), abandon);

    batcher.flush();
    long spoolEnd = spool.position();
    Duration flush = settings.flushTimeout();
    if (abandon.getAsBoolean() && flush.compareTo(Duration.ofSeconds(5)) > 0) flush = Duration.ofSeconds(5);
    spool.awaitConsumed(spoolEnd, flush);
    long records = spoolEnd - spoolStart;
    long dropped = spool.stats().droppedRecords() - droppedStart;
    long published = Math.max(0, Math.min(records, spool.consumed() - spoolStart) - dropped);
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    boolean abandoned = tally.abandoned || abandon.getAsBoolean();
    RoundReport report = new RoundReport(round, started, snapshot.targets().size(), tally.ok, tally.timeouts,
        tally.errors, tally.retried, mesh[0], mesh[1], published, records - published, took, abandoned);
    Counter.builder("reed.agent.rounds").description("rounds completed").register(registry).increment();
    log.info("round {} done in {} s: {} targets ({} from {}, {} denied), {} replies, {} timeouts ({} retried, {} answered on retry), "
            + "{} errors, mesh {}/{} peers, median RTT {} ms, {} records published, {} spooled{}",
        round, String.format("%.1f", took.toMillis() / 1000.0), report.targets(), snapshot.fromTopic(),
        Topic.TARGETS.name(), snapshot.denied(), tally.ok, tally.timeouts, tally.retried, tally.retriedOk, tally.errors, mesh[0], mesh[1],
        tally.medianMs(), published, records - published, abandoned ? " (abandoned at shutdown)" : "");
    return report;
  }

  private void announce(long round, Instant now) {
    InetSocketAddress b = beacon.get();
    Landmark.Builder l = Landmark.newBuilder()
        .setLandmarkId(settings.landmarkId())
        .setRegion(settings.region())
        .setBeacon(Endpoints.of(b))
        .setVersion(settings.version())
        .setAnnounceTime(timestamp(now))
        .setRound(round)
        .setRoundIntervalMs(settings.interval().toMillis());
    if (settings.location() != null) l.setLocation(settings.location());
    if (settings.wsBeaconUrl() != null) l.setWsBeaconUrl(settings.wsBeaconUrl());
    batcher.add(Topic.LANDMARKS.name(), settings.landmarkId(), id(round, "landmark", settings.landmarkId()),
        l.build().toByteArray());
    batcher.flush();
  }

  /** @return {answered peers, probed peers} */
  private int[] mesh(long round, List<Landmark> peers, BooleanSupplier abandon) throws InterruptedException {
    List<CompletableFuture<Void>> done = new ArrayList<>();
    int[] answered = {0};
    for (Landmark peer : peers) {
      if (abandon.getAsBoolean()) break;
      InetSocketAddress addr = Endpoints.toSocketAddress(peer.getBeacon());
      done.add(prober.probeBurst(new ProbeTarget(addr, GameProtocol.GAME_PROTOCOL_QUAKE3), settings.meshProbes())
          .thenAccept(results -> {
            MeshSample m = meshSample(round, peer, results);
            if (m.getStatus() == ProbeStatus.PROBE_STATUS_OK) {
              synchronized (answered) {
                answered[0]++;
              }
              meshRtt.record(m.getRttUs(), TimeUnit.MICROSECONDS);
            }
            String key = settings.landmarkId() + ">" + peer.getLandmarkId();
            batcher.add(Topic.MESH_SAMPLES.name(), key, id(round, "mesh", peer.getLandmarkId()), m.toByteArray());
          })
          .exceptionally(e -> {
            log.warn("mesh probe of {} failed: {}", peer.getLandmarkId(), e.toString());
            return null;
          }));
    }
    long boundMs = settings.probeTimeout().toMillis() * (settings.meshProbes() + 2L) + 5_000;
    try {
      CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(boundMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      log.warn("mesh probes not all complete after {} ms: {}", boundMs, e.toString());
    }
    synchronized (answered) {
      return new int[] {answered[0], done.size()};
    }
  }

  MeshSample meshSample(long round, Landmark peer, List<ProbeResult> results) {
    long min = Long.MAX_VALUE;
    int ok = 0;
    Instant first = null;
    for (ProbeResult r : results) {
      if (r.sendTime() != null && (first == null || r.sendTime().isBefore(first))) first = r.sendTime();
      if (r.ok()) {
        ok++;
        min = Math.min(min, r.rttNanos());
      }
    }
    MeshSample.Builder m = MeshSample.newBuilder()
        .setLandmarkId(settings.landmarkId())
        .setPeerLandmarkId(peer.getLandmarkId())
        .setRound(round)
        .setProbesSent(results.size())
        .setProbesAnswered(ok)
        .setPeerBeacon(peer.getBeacon())
        .setSendTime(timestamp(first == null ? clock.instant() : first));
    long us = ok > 0 ? micros(min) : -1;
    if (us > 0 && us <= RttBound.MAX_US) m.setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs((int) us);
    else m.setStatus(ProbeStatus.PROBE_STATUS_TIMEOUT);
    return m.build();
  }

  private Tally probeTargets(long round, List<Target> targets, BooleanSupplier abandon) throws InterruptedException {
    List<Target> order = new ArrayList<>(targets);
    for (int i = order.size() - 1; i > 0; i--) { // Fisher-Yates with the injected generator
      int j = random.nextInt(i + 1);
      Target t = order.get(i);
      order.set(i, order.get(j));
      order.set(j, t);
    }
    Tally tally = new Tally();
    Semaphore inFlight = new Semaphore(window(settings.rate()));
    CountDownLatch finished = new CountDownLatch(order.size());
    int issued = 0;
    for (Target t : order) {
      if (abandon.getAsBoolean()) {
        tally.abandoned = true;
        break;
      }
      inFlight.acquire();
      issued++;
      ProbeTarget pt = new ProbeTarget(Endpoints.toSocketAddress(t.getEndpoint()), t.getProtocol());
      (checksChallenge(round, t) ? prober.probeForgingChallenge(pt) : prober.probe(pt))
          .thenCompose(first -> first.status() == ProbeStatus.PROBE_STATUS_TIMEOUT && !abandon.getAsBoolean()
              ? retry(pt, first, tally)
              : CompletableFuture.completedFuture(new Outcome(first, false)))
          .whenComplete((outcome, error) -> {
            try {
              ProbeResult r = error == null ? outcome.result()
                  : new ProbeResult(pt, ProbeStatus.PROBE_STATUS_ERROR, 0, 0, clock.instant(), null, error.toString());
              record(round, t, r, outcome != null && outcome.retried(), tally);
            } finally {
              inFlight.release();
              finished.countDown();
            }
          });
    }
    for (int i = issued; i < order.size(); i++) finished.countDown();
    long boundMs = (long) (order.size() * 1000 / settings.rate())
        + 2 * (settings.probeTimeout().toMillis() + settings.retrySpacing().toMillis()) + 30_000;
    if (!finished.await(boundMs, TimeUnit.MILLISECONDS)) {
      log.warn("round {}: {} probes still outstanding after {} ms; their samples follow when they complete", round,
          finished.getCount(), boundMs);
    }
    return tally;
  }

  private record Outcome(ProbeResult result, boolean retried) {}

  /**
   * Whether this round's probe of an A2S target forges a challenge: one round in
   * {@code challengeCheckEvery} per target, the phase spread by landmark and target so the
   * landmarks take turns and a round's checks are spread over its targets.
   */
  private boolean checksChallenge(long round, Target t) {
    if (t.getProtocol() != GameProtocol.GAME_PROTOCOL_A2S) return false;
    int phase = Endpoints.key(t.getEndpoint()).hashCode() * 31 + settings.landmarkId().hashCode();
    return Math.floorMod(round + phase, (long) settings.challengeCheckEvery()) == 0;
  }

  /** The one retry of a timed-out target, no sooner than retrySpacing after the first probe. */
  private CompletableFuture<Outcome> retry(ProbeTarget pt, ProbeResult first, Tally tally) {
    tally.retried();
    long sinceFirst = first.sendTime() == null ? 0 : Duration.between(first.sendTime(), clock.instant()).toMillis();
    long waitMs = Math.max(0, settings.retrySpacing().toMillis() - sinceFirst);
    CompletableFuture<ProbeResult> second = new CompletableFuture<>();
    // the agent's own timer: the common pool may be busy (or be the caller's round thread itself)
    retryTimer.schedule(() -> {
      prober.probe(pt).whenComplete((r, e) -> {
        if (e != null) second.completeExceptionally(e);
        else second.complete(r);
      });
    }, waitMs, TimeUnit.MILLISECONDS);
    return second.thenApply(r -> new Outcome(r, true));
  }

  private void record(long round, Target t, ProbeResult r, boolean retried, Tally tally) {
    RttSample.Builder s = RttSample.newBuilder()
        .setLandmarkId(settings.landmarkId())
        .setRound(round)
        .setTarget(t.getEndpoint())
        .setProtocol(t.getProtocol())
        .setSendTime(timestamp(r.sendTime() == null ? clock.instant() : r.sendTime()));
    ProbeStatus status = r.status();
    long us = micros(r.rttNanos());
    if (status == ProbeStatus.PROBE_STATUS_OK && us > RttBound.MAX_US) status = ProbeStatus.PROBE_STATUS_TIMEOUT;
    switch (status) {
      case PROBE_STATUS_OK -> {
        s.setStatus(status).setRttUs((int) Math.max(1, us));
        if (r.challengeRttNanos() > 0) s.setChallengeRttUs((int) Math.min(RttBound.MAX_US, Math.max(1, micros(r.challengeRttNanos()))));
        if (r.serverInfo() != null) s.setServerInfo(r.serverInfo());
        if (r.forensics().replyDigest() != 0) s.setReplyDigest(r.forensics().replyDigest());
        targetRtt.record(Math.max(1, us), TimeUnit.MICROSECONDS);
        tally.ok(us, retried);
      }
      case PROBE_STATUS_TIMEOUT -> {
        s.setStatus(status);
        tally.timeout();
      }
      default -> {
        s.setStatus(ProbeStatus.PROBE_STATUS_ERROR);
        if (r.errorDetail() != null) s.setErrorDetail(r.errorDetail());
        tally.error();
      }
    }
    if (r.forensics().staleChallenges() > 0) s.setStaleChallengeReplies(r.forensics().staleChallenges());
    s.setChallengeCheck(r.forensics().challengeCheck());
    if (r.forensics().tell()) {
      Counter.builder("reed.agent.reply.tells")
          .description("target samples whose replies a real server would not send (stale challenge, forged challenge accepted)")
          .register(registry).increment();
    }
    Counter.builder("reed.agent.samples").tag("status", s.getStatus().name().substring("PROBE_STATUS_".length()).toLowerCase())
        .description("target samples published, by final status").register(registry).increment();
    String key = Endpoints.key(t.getEndpoint());
    batcher.add(Topic.SAMPLES.name(), key, id(round, "sample", key), s.build().toByteArray());
  }

  private String id(long round, String kind, String key) {
    return settings.landmarkId() + "/" + round + "/" + kind + "/" + key;
  }

  private static long micros(long nanos) {
    return (nanos + 500) / 1_000;
  }

  private static Timestamp timestamp(Instant i) {
    return Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos(i.getNano()).build();
  }

  /** Per-round figures, updated from probe completions on the engine's threads. */
  private static final class Tally {
    int ok;
    int timeouts;
    int errors;
    int retried;
    int retriedOk;
    volatile boolean abandoned;
    private long[] rtts = new long[64];
    private int n;

    synchronized void ok(long us, boolean wasRetried) {
      ok++;
      if (wasRetried) retriedOk++;
      if (n == rtts.length) rtts = Arrays.copyOf(rtts, n * 2);
      rtts[n++] = us;
    }

    synchronized void timeout() {
      timeouts++;
    }

    synchronized void error() {
      errors++;
    }

    synchronized void retried() {
      retried++;
    }

    synchronized String medianMs() {
      if (n == 0) return "-";
      long[] sorted = Arrays.copyOf(rtts, n);
      Arrays.sort(sorted);
      return String.format("%.1f", sorted[n / 2] / 1000.0);
    }
  }
}
