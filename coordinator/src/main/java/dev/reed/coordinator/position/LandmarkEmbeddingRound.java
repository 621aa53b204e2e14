package dev.reed.coordinator.position;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.LandmarkEmbedder;
import dev.reed.coordinates.LandmarkEmbedding;
import dev.reed.coordinates.Stats;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.FitQuality;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LandmarkCoordinate;
import com.google.protobuf.Timestamp;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The leader's landmark embedding (GNP, Ng &amp; Zhang 2002; REED section 5.1.1): the mesh
 * windows' minima are embedded, aligned to the previous embedding (Procrustes, so coordinates do
 * not jump between rounds) and published to {@code reed.landmark-coordinates} under a new epoch,
 * but only when the landmark set changed, or a landmark moved by more than {@code moveThresholdMs}
 * and the previous embedding fits the current mesh worse than the new one (some landmark's median
 * relative error more than {@link #FIT_TOLERANCE} higher): every epoch makes every replica re-fit
 * all its targets. The solver's random restarts are re-seeded every round, so an unchanged mesh
 * gives the same solution; without both guards a non-convex fit (4-D, heights, RTTs that are not
 * Euclidean) lands in another minimum of about the same cost each round. Landmarks with mesh RTTs
 * to fewer than D+1 peers, or that never announced themselves, are left out rather than guessed;
 * their old coordinates are deleted (tombstones).
 *
 * <p>The previous embedding is the serving state's, unless this leader published a newer epoch that
 * the state has not read back yet (rounds shorter than the feed's lag): then it is what this leader
 * published. Comparing against the older epoch would find the landmarks moved again and publish the
 * same solution under one more epoch, and every replica would re-fit every target once more.
 */
public final class LandmarkEmbeddingRound {
  /** What one embedding round did. */
  public record Result(int landmarks, int leftOut, boolean published, long epoch, double medianRelativeError,
      String skipReason) {}

  /**
   * How much worse (median relative error, per landmark) the previous embedding may fit the current
   * mesh than a fresh solution before a moved solution is published as a new epoch.
   */
  static final double FIT_TOLERANCE = 0.01;

  private final CoordinateConfig config;
  private final long seed;
  private final int minPeers;
  private final Producer<byte[], byte[]> producer;
  private final Clock clock;
  private final double moveThresholdMs;
  private long epoch;
  private Map<String, LandmarkCoordinate> lastPublished = Map.of();
  private Set<String> lastQuarantined = Set.of();
  /**
   * What the last round that kept the embedding solved from. The same landmarks and previous
   * coordinates with a mesh that moved by no more than the move threshold anywhere keep the
   * embedding again without solving: the same input gives the same solution (fixed seed), and a
   * mesh change below the threshold a landmark must move to start an epoch is jitter in the window
   * minima. Solving is the expensive part (8-30 s for 30 landmarks on the loaded 2-core VM, on the
   * leader's ingest thread, which starved its ingest at 50,000 x 30: docs/research/scale.md). Null
   * after any other outcome.
   */
  private Unchanged lastUnchanged;
  private volatile long solves;

  /** Embeddings solved so far (rounds that kept an unchanged input's embedding solve nothing). */
  public long solves() {
    return solves;
  }

  private record Unchanged(List<String> ids, double[][] d, List<Coordinate> previous, Set<String> known, double median) {
    boolean sameInput(List<String> ids, double[][] d, List<Coordinate> previous, Set<String> known, double toleranceMs) {
      if (!this.ids.equals(ids) || !this.known.equals(known)) return false;
      for (int i = 0; i < d.length; i++) {
        for (int j = 0; j < d.length; j++) {
          double a = this.d[i][j];
          double b = d[i][j];
          if (Double.isNaN(a) != Double.isNaN(b) || Math.abs(a - b) > toleranceMs) return false;
        }
      }
      for (int i = 0; i < previous.size(); i++) {
        Coordinate a = this.previous.get(i);
        Coordinate b = previous.get(i);
        if (a == null || b == null) {
          if (a != b) return false;
        } else if (!Arrays.equals(a.components(), b.components()) || a.height() != b.height()) {
          return false;
        }
      }
      return true;
    }
  }

  public LandmarkEmbeddingRound(CoordinateConfig config, int minMeshPeers, Producer<byte[], byte[]> producer, Clock clock,
      double moveThresholdMs, long seed) {
    this.config = config;
    this.seed = seed;
    this.minPeers = Math.max(minMeshPeers, config.dimensions() + 1);
    this.producer = producer;
    this.clock = clock;
    this.moveThresholdMs = moveThresholdMs;
  }

  /**
   * What a round reads of the serving state: its landmarks, not its servers. A round runs on the
   * embedding thread for up to tens of seconds while the feed builds new states; holding a whole
   * state there kept a superseded index (~80 MB at 250,000 servers) alive on the leader
   * (docs/research/scale.md).
   *
   * @param announcements latest announcement per landmark id
   * @param coordinates landmark coordinates of epoch {@code epoch}, by id
   * @param epoch the serving state's embedding epoch
   * @param quarantined landmarks of that epoch the leader quarantined, by id
   */
  public record KnownLandmarks(Map<String, Landmark> announcements, Map<String, LandmarkCoordinate> coordinates, long epoch,
      Map<String, LandmarkCoordinate> quarantined) {
    public static KnownLandmarks of(ServingState s) {
      return new KnownLandmarks(Map.copyOf(s.announcements()), Map.copyOf(s.landmarks()), s.landmarkEpoch(),
          Map.copyOf(s.quarantinedLandmarks()));
    }
  }

  public Result run(MeshWindows mesh, ServingState state) {
    return run(snapshot(mesh), KnownLandmarks.of(state), Map.of());
  }

  /** The mesh as this round embeds it; taken on the thread that owns the windows. */
  public MeshWindows.Mesh snapshot(MeshWindows mesh) {
    return mesh.matrix(minPeers);
  }

  /**
   * One round without the quarantined landmarks ({@link LandmarkIntegrityRound}): they are published
   * in the same epoch flagged {@code quarantined}, at their held position, so replicas leave them out
   * of positioning and serving; a change of the quarantined set starts a new epoch. Embeds a mesh
   * snapshot: may run on another thread than the windows' owner (the round loop solves on a
   * background thread so ingest goes on), one call at a time.
   */
  public Result run(MeshWindows.Mesh m, KnownLandmarks landmarks, Map<String, LandmarkIntegrityRound.Held> quarantined) {
    List<String> ids = new ArrayList<>();
    List<Integer> rows = new ArrayList<>();
    for (int i = 0; i < m.landmarkIds().size(); i++) {
      if (landmarks.announcements().containsKey(m.landmarkIds().get(i)) && !quarantined.containsKey(m.landmarkIds().get(i))) {
        ids.add(m.landmarkIds().get(i));
        rows.add(i);
      }
    }
    int leftOut = landmarks.announcements().size() - ids.size();
    long current = Math.max(epoch, landmarks.epoch());
    Map<String, LandmarkCoordinate> known = landmarks.epoch() >= epoch ? landmarks.coordinates() : lastPublished;
    Set<String> knownQuarantined = landmarks.epoch() >= epoch ? landmarks.quarantined().keySet() : lastQuarantined;
    Map<String, LandmarkIntegrityRound.Held> shown = new HashMap<>(quarantined);
    shown.values().removeIf(h -> h.position() == null); // nowhere to show it: it gets a tombstone like a landmark that left
    if (ids.size() < config.dimensions() + 2) {
      return new Result(ids.size(), leftOut, false, current, Double.NaN,
          "need " + (config.dimensions() + 2) + " landmarks with mesh RTTs to >= " + minPeers + " peers, have " + ids.size());
    }
    double[][] d = new double[ids.size()][ids.size()];
    for (int i = 0; i < ids.size(); i++) {
      for (int j = 0; j < ids.size(); j++) d[i][j] = m.rttMs()[rows.get(i)][rows.get(j)];
    }
    List<Coordinate> previous = new ArrayList<>();
    boolean any = false;
    for (String id : ids) {
      LandmarkCoordinate lc = known.get(id);
      Coordinate c = null;
      if (lc != null) {
        try {
          c = CoordinateCodec.fromProto(lc.getCoordinate(), config.dimensions(), "landmark " + id);
          any = true;
        } catch (IllegalArgumentException e) {
          c = null;
        }
      }
      previous.add(c);
    }
    if (lastUnchanged != null && shown.keySet().equals(knownQuarantined)
        && lastUnchanged.sameInput(ids, d, previous, known.keySet(), moveThresholdMs)) {
      return new Result(ids.size(), leftOut, false, current, lastUnchanged.median(), null);
    }
    lastUnchanged = null;
    LandmarkEmbedding e;
    try {
      // a fresh generator from the same seed every round: the same mesh gives the same solution (the random
      // restarts would otherwise land in other minima of about the same cost, a new epoch every round)
      solves++;
      e = new LandmarkEmbedder(config, new SplittableRandom(seed)).embed(d, any ? previous : null);
    } catch (IllegalArgumentException ex) {
      return new Result(ids.size(), leftOut, false, current, Double.NaN, ex.getMessage());
    }
    double median = e.medianRelativeError();
    boolean sameSet = new HashSet<>(ids).equals(known.keySet()) && shown.keySet().equals(knownQuarantined);
    boolean moved = false;
    for (int i = 0; i < ids.size() && !moved; i++) {
      Coordinate p = previous.get(i);
      Coordinate n = e.coordinates().get(i);
      moved = p == null || p.euclideanTo(n) > moveThresholdMs || Math.abs(p.height() - n.height()) > moveThresholdMs;
    }
    if (sameSet && !moved) {
      lastUnchanged = new Unchanged(List.copyOf(ids), d, previous, Set.copyOf(known.keySet()), median);
      return new Result(ids.size(), leftOut, false, current, median, null);
    }
    if (sameSet) {
      // the solver restarts from scratch and can land in another minimum of about the same cost that no
      // rigid motion maps onto the previous one: keep the previous embedding while it fits the mesh as well
      double[] kept = relativeErrors(previous, d);
      boolean fitsWorse = false;
      for (int i = 0; i < kept.length && !fitsWorse; i++) fitsWorse = kept[i] > e.relativeErrors()[i] + FIT_TOLERANCE;
      if (!fitsWorse) {
        lastUnchanged = new Unchanged(List.copyOf(ids), d, previous, Set.copyOf(known.keySet()), Stats.median(kept));
        return new Result(ids.size(), leftOut, false, current, Stats.median(kept), null);
      }
    }
    epoch = current + 1;
    Instant now = clock.instant();
    Timestamp ts = Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()).build();
    Map<String, LandmarkCoordinate> sent = new HashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      Landmark a = landmarks.announcements().get(ids.get(i));
      LandmarkCoordinate lc = LandmarkCoordinate.newBuilder()
          .setLandmarkId(ids.get(i))
          .setBeacon(a.getBeacon())
          .setRegion(a.getRegion())
          .setCoordinate(CoordinateCodec.toProto(e.coordinates().get(i)))
          .setFit(FitQuality.newBuilder().setRelativeError(e.relativeErrors()[i]).setLandmarksUsed(peers(d, i)))
          .setUpdateTime(ts)
          .setEpoch(epoch)
          .build();
      sent.put(ids.get(i), lc);
      producer.send(new ProducerRecord<>(Topic.LANDMARK_COORDINATES.name(), ids.get(i).getBytes(StandardCharsets.UTF_8),
          lc.toByteArray()));
    }
    shown.forEach((id, h) -> {
      Landmark a = landmarks.announcements().get(id);
      LandmarkCoordinate lc = LandmarkCoordinate.newBuilder()
          .setLandmarkId(id)
          .setBeacon(a == null ? dev.reed.proto.v1.Endpoint.getDefaultInstance() : a.getBeacon())
          .setRegion(a == null ? "" : a.getRegion())
          .setCoordinate(CoordinateCodec.toProto(h.position()))
          .setUpdateTime(ts)
          .setEpoch(epoch)
          .setQuarantined(true)
          .setQuarantineReason(h.reason())
          .build();
      producer.send(new ProducerRecord<>(Topic.LANDMARK_COORDINATES.name(), id.getBytes(StandardCharsets.UTF_8),
          lc.toByteArray()));
    });
    Set<String> stale = new HashSet<>(known.keySet());
    stale.addAll(knownQuarantined);
    ids.forEach(stale::remove);
    stale.removeAll(shown.keySet());
    for (String id : stale) {
      producer.send(new ProducerRecord<>(Topic.LANDMARK_COORDINATES.name(), id.getBytes(StandardCharsets.UTF_8), null));
    }
    producer.flush();
    lastPublished = Map.copyOf(sent);
    lastQuarantined = Set.copyOf(shown.keySet());
    // the next round sees this solution as the previous one: solving the same mesh again only confirms it (same
    // seed, aligned to itself), and that solve cost the leader ~10 s of a core in the middle of the scale harness's
    // first round (docs/research/scale.md)
    lastUnchanged = new Unchanged(List.copyOf(ids), d, List.copyOf(e.coordinates()), Set.copyOf(ids), median);
    return new Result(ids.size(), leftOut, true, epoch, median, null);
  }

  /** Per landmark, the median relative error of these coordinates over its measured peers (as the embedder's). */
  private double[] relativeErrors(List<Coordinate> coords, double[][] d) {
    int n = d.length;
    double[] errors = new double[n];
    double[] row = new double[n];
    for (int i = 0; i < n; i++) {
      int k = 0;
      for (int j = 0; j < n; j++) {
        if (j == i) continue;
        double a = d[i][j];
        double b = d[j][i];
        double v = Double.isNaN(a) ? b : Double.isNaN(b) ? a : 0.5 * (a + b);
        if (!Double.isNaN(v)) row[k++] = Math.abs(coords.get(i).distanceTo(coords.get(j)) - v) / Math.max(v, config.minRttMs());
      }
      errors[i] = Stats.median(row, k);
    }
    return errors;
  }

  private static int peers(double[][] d, int i) {
    int n = 0;
    for (int j = 0; j < d.length; j++) if (j != i && !Double.isNaN(d[i][j])) n++;
    return n;
  }
}
