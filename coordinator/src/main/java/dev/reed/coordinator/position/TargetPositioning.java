package dev.reed.coordinator.position;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.PositionFit;
import dev.reed.coordinates.Stats;
import dev.reed.coordinator.index.store.ChunkUsage;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.TargetWindows;
import dev.reed.proto.Topic;
import dev.reed.coordinates.integrity.MeshBounds;
import dev.reed.coordinates.integrity.ReplyEvidence;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.proto.v1.FitQuality;
import dev.reed.proto.v1.IntegrityKind;
import dev.reed.proto.v1.ServerIntegrity;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.Stability;
import com.google.protobuf.Timestamp;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Positions the targets this replica owns (GNP host positioning, Ng &amp; Zhang 2002, as in REED
 * section 5.1.1): for each target whose windows changed, the window minima towards the current
 * landmark embedding are re-fitted, warm-started from the previous position (so a small change in
 * the minima moves the coordinate a little), and
 * the result is published to the compacted {@code reed.coordinates} topic when it changed or
 * is due for a refresh, with the window minima it was fitted from ({@code landmark_rtts}: clients
 * compare them with their own landmark RTTs, see {@code dev.reed.coordinates.LandmarkComparison}).
 * A new landmark epoch re-fits every target. Targets unheard for
 * {@code expireAfter} get a tombstone.
 */
public final class TargetPositioning {
  /** What one positioning round did. */
  public record Result(int candidates, int fitted, int published, int tooFewLandmarks, int failed, int tombstoned,
      double medianRelativeError, long landmarkEpoch, int flagged, int unmoved, int carried) {}

  /**
   * A round's time for positioning, after which the rest of its targets are left for the next round
   * (the first of them first). The round loop polls Kafka between rounds, and a rebalance waits for
   * that poll: a new landmark epoch re-fits every target, 15 s for 125,000 on the loaded two cores
   * at 250,000 x 30, and a fail-over that came then waited for it (21.2 s instead of 11.7-13.0 s,
   * docs/research/scale.md).
   */
  public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(2);

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(TargetPositioning.class);

  /** Fewer fits than this a thread are done on the calling thread alone: a thread's start is not worth it. */
  private static final int MIN_JOBS_PER_THREAD = 500;
  /** Targets fitted together; their jobs hold a parsed coordinate each only until the batch is done. */
  private static final int FIT_BATCH = 4_096;
  private final HostPositioner positioner;
  private final int minAnchors;
  private final Producer<byte[], byte[]> producer;
  private final Clock clock;
  private final Duration refreshEvery;
  private final double moveThresholdMs;
  private final PublishedCoordinates published = new PublishedCoordinates();
  /** The published coordinates' chunks after the last round: the round thread writes them, a scrape reads this. */
  private volatile ChunkUsage publishedChunks = ChunkUsage.NONE;
  private final HostIntegrity integrity;
  private final Duration budget;
  /** Targets the last round left when its budget ran out, in order, and whether each owes a new epoch's re-fit. */
  private final Map<String, Boolean> carried = new java.util.LinkedHashMap<>();
  /** The last round could fit nothing (too few anchors): its leftovers wait for the next regular round. */
  private boolean stalled;
  private long epochSeen = -1;

  /**
   * @param refreshEvery republish an unchanged coordinate this often (keeps its age honest and
   *     stops the leader's sweep from treating it as gone)
   * @param moveThresholdMs a coordinate that moved less than this is not republished
   * @param integrity the host integrity check run on every fitted target
   */
  public TargetPositioning(CoordinateConfig config, Producer<byte[], byte[]> producer, Clock clock,
      Duration refreshEvery, double moveThresholdMs, HostIntegrity integrity) {
    this(config, producer, clock, refreshEvery, moveThresholdMs, integrity, DEFAULT_BUDGET);
  }

  /** @param budget a round's time for positioning ({@link #DEFAULT_BUDGET}); at least one batch is fitted a round */
  public TargetPositioning(CoordinateConfig config, Producer<byte[], byte[]> producer, Clock clock,
      Duration refreshEvery, double moveThresholdMs, HostIntegrity integrity, Duration budget) {
    this.budget = budget;
    this.integrity = integrity;
    this.positioner = new HostPositioner(config);
    this.minAnchors = config.minAnchors();
    this.producer = producer;
    this.clock = clock;
    this.refreshEvery = refreshEvery;
    this.moveThresholdMs = moveThresholdMs;
  }

  private boolean outOfTime(long startedNanos) {
    return System.nanoTime() - startedNanos > budget.toNanos();
  }

  /** Whether the last round left targets for the next (its budget ran out): the next should come soon. */
  public boolean carrying() {
    return !stalled && !carried.isEmpty();
  }

  /** A round without a landmark mesh: no integrity verdicts. */
  public Result run(TargetWindows windows, ServingState state, Duration expireAfter) {
    return run(windows, state, expireAfter, null);
  }

  /**
   * One positioning round.
   *
   * @param mesh this replica's landmark mesh (window minima), for the integrity check; null = none
   */
  public Result run(TargetWindows windows, ServingState state, Duration expireAfter, MeshWindows.Mesh mesh) {
    try {
      return round(windows, state, expireAfter, mesh);
    } finally {
      publishedChunks = published.chunks();
    }
  }

  /** The bytes the chunks of what this replica published held and had live after the last round. */
  public ChunkUsage publishedChunks() {
    return publishedChunks;
  }

  private Result round(TargetWindows windows, ServingState state, Duration expireAfter, MeshWindows.Mesh mesh) {
    long started = System.nanoTime();
    List<String> gone = windows.expire(expireAfter.toMillis());
    for (String key : gone) {
      producer.send(new ProducerRecord<>(Topic.COORDINATES.name(), key.getBytes(StandardCharsets.UTF_8), null));
      published.remove(key);
    }
    // targets of revoked partitions are the new owner's to publish now
    published.removeIf(k -> windows.get(k) == null);
    List<ServingState.Anchor> anchors = state.landmarkAnchors();
    stalled = anchors.size() < minAnchors;
    if (stalled) {
      return new Result(0, 0, 0, windows.size(), 0, gone.size(), Double.NaN, state.landmarkEpoch(), 0, 0, carried.size());
    }
    boolean newEpoch = state.landmarkEpoch() != epochSeen;
    long epochStart = state.landmarks().values().stream().filter(LandmarkCoordinate::hasUpdateTime)
        .mapToLong(c -> millis(c.getUpdateTime())).min().orElse(Long.MAX_VALUE);
    // per candidate, whether it owes a new epoch's re-fit though its minima have not moved; the
    // last round's leftovers first (still owned ones)
    Map<TargetWindows.Target, Boolean> pending = new java.util.LinkedHashMap<>();
    carried.forEach((key, refit) -> {
      TargetWindows.Target t = windows.get(key);
      if (t != null) pending.put(t, refit);
    });
    carried.clear();
    for (TargetWindows.Target t : windows.drainDirty()) pending.putIfAbsent(t, false);
    long now = clock.millis();
    for (TargetWindows.Target t : windows.all()) {
      int p = published.slot(t.key());
      if (newEpoch || p < 0 || now - published.at(p) >= refreshEvery.toMillis()) pending.putIfAbsent(t, false);
    }
    List<String> ids = anchors.stream().map(ServingState.Anchor::landmarkId).toList();
    List<Coordinate> anchorCoords = anchors.stream().map(ServingState.Anchor::coordinate).toList();
    int fitted = 0;
    int sent = 0;
    int tooFew = 0;
    int failed = 0;
    int flagged = 0;
    int unmoved = 0;
    MeshBounds bounds = integrity.bounds(ids, mesh, state.announcements());
    double[] errors = new double[pending.size()];
    Instant instant = clock.instant();
    Timestamp ts = Timestamp.newBuilder().setSeconds(instant.getEpochSecond()).setNanos(instant.getNano()).build();
    // in batches: a batch's fits run on several threads while the next batch waits, and what a job holds
    // (a parsed coordinate, the minima) lives only as long as its batch
    java.util.Iterator<Map.Entry<TargetWindows.Target, Boolean>> candidates = pending.entrySet().iterator();
    int examined = 0;
    for (int batch = 0; candidates.hasNext(); batch++) {
      if (batch > 0 && outOfTime(started)) {
        candidates.forEachRemaining(c -> carried.put(c.getKey().key(), newEpoch || c.getValue()));
        break;
      }
      List<FitJob> jobs = new ArrayList<>();
      while (candidates.hasNext() && jobs.size() < FIT_BATCH) {
        // a batch can pass over tens of thousands of unmoved targets (each read back and compared):
        // 5-9 s at round 1's end at 250,000 x 30 before the budget counted them
        if ((++examined & 1023) == 0 && outOfTime(started)) break;
        Map.Entry<TargetWindows.Target, Boolean> candidate = candidates.next();
        TargetWindows.Target t = candidate.getKey();
        boolean refit = newEpoch || candidate.getValue();
        double[] rtt = windows.minimaMs(t, ids);
        int usable = 0;
        for (double r : rtt) if (!Double.isNaN(r)) usable++;
        if (usable < minAnchors) {
          tooFew++;
          continue;
        }
        int p = published.slot(t.key());
        ServerCoordinate last = p < 0 ? null : published.coordinate(p);
        Long at = p < 0 ? null : published.at(p);
        List<LandmarkRtt> minima = landmarkRtts(ids, rtt);
        boolean adopted = false;
        if (last == null && !refit) {
          // taken over from another replica (fail-over, rebalance) and seeded with its published minima:
          // its fit is this epoch's if it is newer than the epoch
          ServerCoordinate known = state.servers().get(t.key());
          if (known != null && known.hasUpdateTime() && millis(known.getUpdateTime()) >= epochStart) {
            last = known;
            at = millis(known.getUpdateTime());
            adopted = true;
          }
        }
        if (!refit && last != null && at != null && now - at < refreshEvery.toMillis()
            && !landmarkRttsMoved(last.getLandmarkRttsList(), minima) && !t.takeReplyNews()) {
          // the minima it was fitted from have not moved: warm-started there, a fit would land where it
          // is. Every new sample changes a window, not always its minimum (in the 250,000 x 30 runs, two
          // rounds, windows not yet full: 18 % of candidates; more once windows hold W rounds)
          unmoved++;
          if (dev.reed.coordinator.index.read.RankedTemplate.suspect(last)) flagged++;
          // an adopted target's windows hold one seeded round: its stability is the previous owner's until they refill
          Stability stability = adopted ? last.getStability() : windows.stability(t);
          ServerCoordinate next = last.toBuilder().setServerInfo(info(t)).setStability(stability).build();
          if (!last.getServerInfo().equals(next.getServerInfo()) || stabilityMoved(last.getStability(), stability)) {
            publish(t.key(), next.toBuilder().setUpdateTime(ts).setRound(t.newestRound()).build(), ids, now);
            sent++;
          } else if (adopted) {
            published.put(t.key(), last, ids, at);
          }
          continue;
        }
        ServerCoordinate prior = last;
        if (prior == null) prior = state.coordinatesOnly().get(t.key());
        Coordinate warm = null;
        if (prior != null) {
          try {
            warm = CoordinateCodec.fromProto(prior.getCoordinate(), anchorCoords.getFirst().dimensions(), "warm start");
          } catch (IllegalArgumentException e) {
            warm = null;
          }
        }
        jobs.add(new FitJob(t, rtt, last, at, prior, warm));
      }
      PositionFit[] fits = fitAll(jobs, anchorCoords);
      for (int j = 0; j < fits.length; j++) {
        FitJob job = jobs.get(j);
        PositionFit fit = fits[j];
        if (fit == null) {
          failed++;
          continue;
        }
        TargetWindows.Target t = job.target();
        ServerCoordinate last = job.last();
        Long at = job.at();
        errors[fitted++] = fit.relativeError();
        Stability stability = windows.stability(t);
        ServerCoordinate.Builder nb = ServerCoordinate.newBuilder().addAllLandmarkRtts(landmarkRtts(ids, job.rtt()));
        ServerIntegrity verdict = integrity.verdict(bounds, job.rtt(),
            new ReplyEvidence(windows.replyTells(t), windows.replyDigests(t, ids)));
        if (verdict != null) {
          nb.setIntegrity(verdict);
          if (verdict.getKind() != IntegrityKind.INTEGRITY_KIND_OK) flagged++;
          // digests are compared only between landmarks the RTT check finds near a flagged server:
          // kept from its first flag on, they name it from the next fit
          windows.watchReplies(t, verdict.getViolatingPairs() > 0 && verdict.getKind() != IntegrityKind.INTEGRITY_KIND_OK
              && verdict.getKind() != IntegrityKind.INTEGRITY_KIND_INCONSISTENT);
        }
        ServerCoordinate next = nb
            .setEndpoint(t.endpoint())
            .setProtocol(t.protocol())
            .setCoordinate(CoordinateCodec.toProto(fit.coordinate()))
            .setFit(FitQuality.newBuilder().setRelativeError(fit.relativeError()).setLandmarksUsed(fit.anchorsUsed()))
            .setUpdateTime(ts)
            .setRound(t.newestRound())
            .setServerInfo(info(t))
            .setStability(stability)
            .build();
        boolean due = last == null || at == null || now - at >= refreshEvery.toMillis() || changed(last, next, job.warm(), fit);
        if (!due) continue;
        ServerCoordinate before = last != null ? last : job.prior();
        IntegrityKind was = before == null ? IntegrityKind.INTEGRITY_KIND_UNSPECIFIED : before.getIntegrity().getKind();
        if (was != next.getIntegrity().getKind() && (was != IntegrityKind.INTEGRITY_KIND_UNSPECIFIED
            || next.getIntegrity().getKind() != IntegrityKind.INTEGRITY_KIND_OK)) {
          log.info("server {}: integrity {} -> {}{}", t.key(), name(was), name(next.getIntegrity().getKind()),
              next.getIntegrity().getEvidence().isEmpty() ? "" : ": " + next.getIntegrity().getEvidence());
        }
        publish(t.key(), next, ids, now);
        sent++;
      }
    }
    epochSeen = state.landmarkEpoch();
    double median = Stats.median(errors, fitted);
    return new Result(pending.size(), fitted, sent, tooFew, failed, gone.size(), median, state.landmarkEpoch(), flagged,
        unmoved, carried.size());
  }

  /** A target to fit: its window minima (ms, in the anchors' order), what it last published, and where to start. */
  private record FitJob(TargetWindows.Target target, double[] rtt, ServerCoordinate last, Long at, ServerCoordinate prior,
      Coordinate warm) {}

  /**
   * Fits every job: on the calling thread and, with more than one core, a helper thread per further
   * core at the caller's priority (fits are independent and the positioner keeps no state; a new
   * landmark epoch re-fits every target, 60-105 us each at 16 landmarks: docs/operations.md). A failed fit is null.
   */
  private PositionFit[] fitAll(List<FitJob> jobs, List<Coordinate> anchors) {
    PositionFit[] out = new PositionFit[jobs.size()];
    AtomicInteger next = new AtomicInteger();
    Runnable work = () -> {
      for (int i = next.getAndIncrement(); i < out.length; i = next.getAndIncrement()) {
        FitJob job = jobs.get(i);
        try {
          out[i] = positioner.position(anchors, job.rtt(), job.warm());
        } catch (IllegalArgumentException | ArithmeticException e) {
          out[i] = null;
        }
      }
    };
    int helpers = out.length < MIN_JOBS_PER_THREAD ? 0
        : Math.min(Runtime.getRuntime().availableProcessors() - 1, out.length / MIN_JOBS_PER_THREAD);
    List<Thread> threads = new ArrayList<>();
    for (int h = 0; h < helpers; h++) {
      threads.add(Thread.ofPlatform().name("positioning-" + h).priority(Thread.currentThread().getPriority()).daemon()
          .start(work));
    }
    work.run();
    boolean interrupted = false;
    for (Thread th : threads) {
      while (true) {
        try {
          th.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // the helpers finish their few remaining fits; the round's results need them
        }
      }
    }
    if (interrupted) Thread.currentThread().interrupt();
    return out;
  }

  private static long millis(Timestamp t) {
    return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
  }

  private void publish(String key, ServerCoordinate next, List<String> ids, long now) {
    byte[] encoded = next.toByteArray();
    producer.send(new ProducerRecord<>(Topic.COORDINATES.name(), key.getBytes(StandardCharsets.UTF_8), encoded));
    published.put(key, next, ids, now);
  }

  private static dev.reed.proto.v1.ServerInfo info(TargetWindows.Target t) {
    dev.reed.proto.v1.ServerInfo i = t.info();
    return i == null ? dev.reed.proto.v1.ServerInfo.getDefaultInstance() : i;
  }

  /** The window minima as published: the landmarks with a minimum, in the anchors' order. */
  private static List<LandmarkRtt> landmarkRtts(List<String> ids, double[] rtt) {
    List<LandmarkRtt> out = new java.util.ArrayList<>(rtt.length);
    for (int l = 0; l < rtt.length; l++) {
      if (!Double.isNaN(rtt[l])) {
        out.add(LandmarkRtt.newBuilder().setLandmarkId(ids.get(l)).setRttUs((int) Math.round(rtt[l] * 1000)).build());
      }
    }
    return out;
  }

  /**
   * Whether the served stability moved enough to republish: its median by more than the move
   * threshold, its jitter by more than that and 20 %, its loss by more than 0.05, or its round
   * count. Exact equality republished nearly every target every round, since each sample nudges
   * the jitter.
   */
  private boolean stabilityMoved(Stability last, Stability next) {
    double thresholdUs = moveThresholdMs * 1000;
    return last.getRounds() != next.getRounds()
        || Math.abs(last.getMedianRttUs() - next.getMedianRttUs()) > thresholdUs
        || Math.abs(last.getJitterUs() - next.getJitterUs()) > Math.max(thresholdUs, 0.2 * last.getJitterUs())
        || Math.abs(last.getLossFraction() - next.getLossFraction()) > 0.05;
  }

  private static String name(IntegrityKind k) {
    return k == IntegrityKind.INTEGRITY_KIND_UNSPECIFIED ? "unchecked"
        : k.name().substring("INTEGRITY_KIND_".length()).toLowerCase(java.util.Locale.ROOT);
  }

  /** Another set of landmarks, or a landmark's RTT that moved by more than the move threshold. */
  private boolean landmarkRttsMoved(List<LandmarkRtt> last, List<LandmarkRtt> next) {
    if (last.size() != next.size()) return true;
    double thresholdUs = moveThresholdMs * 1000;
    for (int i = 0; i < next.size(); i++) {
      LandmarkRtt a = last.get(i);
      LandmarkRtt b = next.get(i);
      if (!a.getLandmarkId().equals(b.getLandmarkId()) || Math.abs(a.getRttUs() - b.getRttUs()) > thresholdUs) return true;
    }
    return false;
  }

  private boolean changed(ServerCoordinate last, ServerCoordinate next, Coordinate warm, PositionFit fit) {
    if (!last.getServerInfo().equals(next.getServerInfo())) return true;
    if (stabilityMoved(last.getStability(), next.getStability())) return true;
    if (last.getIntegrity().getKind() != next.getIntegrity().getKind()) return true;
    if (last.getFit().getLandmarksUsed() != next.getFit().getLandmarksUsed()) return true;
    if (landmarkRttsMoved(last.getLandmarkRttsList(), next.getLandmarkRttsList())) return true;
    if (Math.abs(last.getFit().getRelativeError() - next.getFit().getRelativeError()) > 0.01) return true;
    Coordinate prev;
    try {
      prev = CoordinateCodec.fromProto(last.getCoordinate(), fit.coordinate().dimensions(), "last");
    } catch (IllegalArgumentException e) {
      return true;
    }
    return prev.distanceTo(fit.coordinate()) - prev.height() - fit.coordinate().height() > moveThresholdMs
        || Math.abs(prev.height() - fit.coordinate().height()) > moveThresholdMs;
  }
}
