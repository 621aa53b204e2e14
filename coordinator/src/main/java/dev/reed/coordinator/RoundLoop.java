package dev.reed.coordinator;

import com.google.protobuf.Timestamp;
import dev.reed.coordinator.catalog.TargetPublisher;
import dev.reed.coordinator.location.GeoTraining;
import dev.reed.coordinator.index.write.IndexFeed;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.coordinator.ingest.SampleIngest;
import dev.reed.coordinator.ingest.TargetWindows;
import dev.reed.coordinator.leader.LeaderElection;
import dev.reed.coordinator.position.LandmarkEmbeddingRound;
import dev.reed.coordinator.position.LandmarkIntegrityRound;
import dev.reed.coordinator.position.TargetPositioning;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.ServerCoordinate;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's one processing thread: it polls samples into the windows and, every
 * {@code roundInterval}, runs a round: the leader embeds the landmarks and runs the catalog,
 * every replica positions its targets. Keeping ingest and rounds on one thread means the windows
 * need no locks. A round blocks polling while it runs, and a rebalance waits for the next poll, so
 * a round positions for at most {@link TargetPositioning#DEFAULT_BUDGET} and leaves the rest of its
 * targets to the next, which follows once the samples that came meanwhile are read.
 */
final class RoundLoop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RoundLoop.class);

  private final CoordinatorConfig config;
  private final SampleIngest ingest;
  private final TargetWindows windows;
  private final MeshWindows mesh;
  private final IndexFeed feed;
  private final LeaderElection leader;
  private final LandmarkEmbeddingRound embedding;
  private final LandmarkIntegrityRound integrity;
  private final TargetPositioning positioning;
  private final TargetPublisher catalog;
  private final Producer<byte[], byte[]> producer;
  private final GeoTraining geo;
  private final Clock clock;
  private final Thread thread;
  private final AtomicLong rounds = new AtomicLong();
  private final AtomicLong positioned = new AtomicLong();
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong roundNanos = new AtomicLong();
  private volatile boolean closed;
  private volatile boolean alive = true;
  private volatile TargetPositioning.Result lastPositioning;
  private volatile Runnable afterRound = () -> { };
  /**
   * One embedding at a time, off the ingest thread. Started at normal priority and lowered once an
   * embedding exists ({@link #embed}): without CAP_SYS_NICE a thread may lower its priority but not
   * raise it again.
   */
  private final java.util.concurrent.ExecutorService embedder = java.util.concurrent.Executors.newSingleThreadExecutor(
      r -> Thread.ofPlatform().name("landmark-embedding").daemon().unstarted(r));
  private java.util.concurrent.CompletableFuture<LandmarkEmbeddingRound.Result> embedJob;

  RoundLoop(CoordinatorConfig config, SampleIngest ingest, TargetWindows windows, MeshWindows mesh, IndexFeed feed,
      LeaderElection leader, LandmarkIntegrityRound integrity, LandmarkEmbeddingRound embedding,
      TargetPositioning positioning, TargetPublisher catalog, Producer<byte[], byte[]> producer, GeoTraining geo) {
    this.config = config;
    this.ingest = ingest;
    this.windows = windows;
    this.mesh = mesh;
    this.feed = feed;
    this.leader = leader;
    this.integrity = integrity;
    this.embedding = embedding;
    this.positioning = positioning;
    this.catalog = catalog;
    this.producer = producer;
    this.geo = geo;
    this.clock = config.clock();
    this.thread = Thread.ofPlatform().name("round-loop").priority(Thread.MIN_PRIORITY).daemon().unstarted(this::run);
  }

  /** Called on the round thread after every round (per-landmark metrics). */
  void afterRound(Runnable r) {
    this.afterRound = r;
  }

  void start() {
    thread.start();
  }

  long rounds() {
    return rounds.get();
  }

  long positioned() {
    return positioned.get();
  }

  /** Landmark rounds the lying-landmark check has judged (while leading). */
  long landmarkChecks() {
    return integrity.checks();
  }

  java.util.Set<String> quarantineDecided() {
    return integrity.decided();
  }

  long published() {
    return published.get();
  }

  long lastRoundNanos() {
    return roundNanos.get();
  }

  boolean alive() {
    return alive;
  }

  private void run() {
    try {
      ingest.start();
      long nextRound = clock.millis() + config.rounds().interval().toMillis();
      long roundEnded = 0;
      while (!closed) {
        int polled = ingest.poll(Duration.ofMillis(100));
        long now = clock.millis();
        // the targets a round left when its positioning budget ran out go on once the samples that came
        // meanwhile are read (a poll short of a full one) or a second has passed: ingest keeps up, and
        // a rebalance gets its poll
        boolean carryOn = positioning.carrying() && (polled < SampleIngest.MAX_POLL_RECORDS || now - roundEnded >= 1000);
        // targets just taken over (seeded) are positioned now, not up to a round later: a fail-over's clock runs
        if (now >= nextRound || ingest.takeSeeded() || carryOn) {
          round();
          nextRound = now + config.rounds().interval().toMillis();
          roundEnded = clock.millis();
        }
      }
    } catch (WakeupException e) {
      if (!closed) log.error("round loop woken unexpectedly", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.error("round loop stopped: {}", e.toString(), e);
    } finally {
      alive = false;
      ingest.close();
    }
  }

  private void round() throws InterruptedException {
    long t0 = System.nanoTime();
    ServingState state = feed.current();
    boolean leading = leader.isLeader();
    String embed = "-";
    String cat = "-";
    int swept = 0;
    catalog.refreshDenyList();
    String quarantine = "-";
    if (leading) {
      LandmarkIntegrityRound.Result q = integrity.run(mesh, windows, state);
      quarantine = q.quarantined().isEmpty() ? "none" : String.join(",", q.quarantined().keySet());
      if (!q.outliers().isEmpty()) quarantine += " outliers=" + String.join(",", q.outliers().keySet());
      embed = embed(state, q.quarantined());
      TargetPublisher.Result c = catalog.run(() -> feed.current().targets());
      cat = "published=" + c.published() + " deleted=" + c.deleted() + " crawled=" + c.crawled();
      // the sweep reads every server's update time: not every round (at 250,000 servers a second of CPU)
      long now = clock.millis();
      if (now - lastSweep >= config.rounds().expireAfter().toMillis() / 4) {
        swept = sweep(state);
        lastSweep = now;
      }
    } else {
      integrity.standBy();
    }
    TargetPositioning.Result p = positioning.run(windows, state, config.rounds().expireAfter(), mesh.matrix(1));
    lastPositioning = p;
    producer.flush();
    positioned.addAndGet(p.fitted());
    published.addAndGet(p.published());
    if (geo != null) {
      geo.submit(mesh.matrix(1), feed.current()); // trains in the background on what this round served from
    }
    afterRound.run();
    long n = rounds.incrementAndGet();
    roundNanos.set(System.nanoTime() - t0);
    SampleIngest.Counters ic = ingest.counters();
    log.info("round {}: leader={} quarantined: {} embedding: {} | targets={} fitted={} unmoved={} published={} carried={} tooFewLandmarks={} failed={} "
            + "tombstoned={} medErr={} flagged={} | catalog: {} swept={} | samples={} mesh={} deadLetters={} partitions={} | {} ms",
        n, leading, quarantine, embed, windows.size(), p.fitted(), p.unmoved(), p.published(), p.carried(), p.tooFewLandmarks(), p.failed(), p.tombstoned(),
        Double.isNaN(p.medianRelativeError()) ? "-" : String.format("%.3f", p.medianRelativeError()), p.flagged(), cat, swept,
        ic.samples(), ic.meshSamples(), ic.deadLettered(), ingest.ownedPartitions().size(),
        (System.nanoTime() - t0) / 1_000_000);
  }

  /**
   * Starts this round's landmark embedding on the embedding thread unless the last one still runs,
   * and describes the last finished one. Solving takes seconds for 30 landmarks (8-50 s on a loaded
   * 2-core VM) and used to block this thread, so the leader stopped ingesting its partitions
   * (docs/research/scale.md); the mesh snapshot is taken here, where the windows are owned.
   */
  private String embed(ServingState state, Map<String, LandmarkIntegrityRound.Held> quarantined) {
    String last = "-";
    if (embedJob != null) {
      if (!embedJob.isDone()) return "running";
      try {
        LandmarkEmbeddingRound.Result e = embedJob.join();
        last = e.skipReason() != null ? "skipped (" + e.skipReason() + ")"
            : (e.published() ? "epoch " + e.epoch() : "unchanged epoch " + e.epoch()) + " landmarks=" + e.landmarks()
                + " leftOut=" + e.leftOut() + String.format(" medErr=%.3f", e.medianRelativeError());
      } catch (RuntimeException ex) {
        last = "failed (" + ex + ")";
        log.error("landmark embedding failed: {}", ex.toString(), ex);
      }
    }
    MeshWindows.Mesh m = embedding.snapshot(mesh);
    LandmarkEmbeddingRound.KnownLandmarks known = LandmarkEmbeddingRound.KnownLandmarks.of(state);
    // until the first embedding lands no replica can position a target, so it is solved at normal priority; at nice 10
    // beside ingest and queries it took 39 s of the scale harness's first round (docs/research/scale.md)
    int priority = known.epoch() == 0 ? Thread.NORM_PRIORITY : Thread.MIN_PRIORITY;
    embedJob = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      Thread.currentThread().setPriority(priority);
      return embedding.run(m, known, quarantined);
    }, embedder);
    return last;
  }

  /**
   * The leader deletes coordinates nobody has refreshed for twice the expiry: their owner's windows
   * lost them (e.g. a replica restarted after the replay horizon), so no replica would ever
   * tombstone them.
   */
  private long lastSweep = Long.MIN_VALUE / 2;

  private int sweep(ServingState state) {
    long horizon = clock.millis() - 2 * config.rounds().expireAfter().toMillis();
    int n = 0;
    for (Map.Entry<String, ServerCoordinate> e : state.coordinatesOnly().entrySet()) {
      Timestamp t = e.getValue().getUpdateTime();
      if (t.getSeconds() * 1000 + t.getNanos() / 1_000_000 < horizon) {
        producer.send(new ProducerRecord<>(Topic.COORDINATES.name(), e.getKey().getBytes(StandardCharsets.UTF_8), null));
        n++;
      }
    }
    return n;
  }

  @Override
  public void close() {
    closed = true;
    ingest.wakeup();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    embedder.shutdownNow();
  }
}
