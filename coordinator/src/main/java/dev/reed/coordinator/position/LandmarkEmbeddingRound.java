package dev.reed.coordinator.position;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.LandmarkEmbedder;
import dev.reed.coordinates.LandmarkEmbedding;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.ServingState;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The leader's landmark embedding (GNP, Ng &amp; Zhang 2002; REED section 5.1.1): the mesh
 * windows' minima are embedded, aligned to the previous embedding (Procrustes, so coordinates do
 * not jump between rounds) and published to {@code reed.landmark-coordinates} under a new epoch,
 * but only when the landmark set changed or a landmark moved by more than {@code moveThresholdMs}:
 * every epoch makes every replica re-fit all its targets. Landmarks with mesh RTTs to fewer than
 * D+1 peers, or that never announced themselves, are left out rather than guessed; their old
 * coordinates are deleted (tombstones).
 */
public final class LandmarkEmbeddingRound {
  /** What one embedding round did. */
  public record Result(int landmarks, int leftOut, boolean published, long epoch, double medianRelativeError,
      String skipReason) {}

  private final CoordinateConfig config;
  private final LandmarkEmbedder embedder;
  private final int minPeers;
  private final Producer<byte[], byte[]> producer;
  private final Clock clock;
  private final double moveThresholdMs;
  private long epoch;

  public LandmarkEmbeddingRound(CoordinateConfig config, int minMeshPeers, Producer<byte[], byte[]> producer, Clock clock,
      double moveThresholdMs, long seed) {
    this.config = config;
    this.embedder = new LandmarkEmbedder(config, new SplittableRandom(seed));
    this.minPeers = Math.max(minMeshPeers, config.dimensions() + 1);
    this.producer = producer;
    this.clock = clock;
    this.moveThresholdMs = moveThresholdMs;
  }

  public Result run(MeshWindows mesh, ServingState state) {
    MeshWindows.Mesh m = mesh.matrix(minPeers);
    List<String> ids = new ArrayList<>();
    List<Integer> rows = new ArrayList<>();
    for (int i = 0; i < m.landmarkIds().size(); i++) {
      if (state.announcements().containsKey(m.landmarkIds().get(i))) {
        ids.add(m.landmarkIds().get(i));
        rows.add(i);
      }
    }
    int leftOut = state.announcements().size() - ids.size();
    long current = Math.max(epoch, state.landmarkEpoch());
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
      LandmarkCoordinate lc = state.landmarks().get(id);
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
    LandmarkEmbedding e;
    try {
      e = embedder.embed(d, any ? previous : null);
    } catch (IllegalArgumentException ex) {
      return new Result(ids.size(), leftOut, false, current, Double.NaN, ex.getMessage());
    }
    double median = e.medianRelativeError();
    boolean sameSet = new HashSet<>(ids).equals(state.landmarks().keySet());
    boolean moved = false;
    for (int i = 0; i < ids.size() && !moved; i++) {
      Coordinate p = previous.get(i);
      Coordinate n = e.coordinates().get(i);
      moved = p == null || p.euclideanTo(n) > moveThresholdMs || Math.abs(p.height() - n.height()) > moveThresholdMs;
    }
    if (sameSet && !moved) return new Result(ids.size(), leftOut, false, current, median, null);
    epoch = current + 1;
    Instant now = clock.instant();
    Timestamp ts = Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()).build();
    for (int i = 0; i < ids.size(); i++) {
      Landmark a = state.announcements().get(ids.get(i));
      LandmarkCoordinate lc = LandmarkCoordinate.newBuilder()
          .setLandmarkId(ids.get(i))
          .setBeacon(a.getBeacon())
          .setRegion(a.getRegion())
          .setCoordinate(CoordinateCodec.toProto(e.coordinates().get(i)))
          .setFit(FitQuality.newBuilder().setRelativeError(e.relativeErrors()[i]).setLandmarksUsed(peers(d, i)))
          .setUpdateTime(ts)
          .setEpoch(epoch)
          .build();
      producer.send(new ProducerRecord<>(Topic.LANDMARK_COORDINATES.name(), ids.get(i).getBytes(StandardCharsets.UTF_8),
          lc.toByteArray()));
    }
    Set<String> stale = new HashSet<>(state.landmarks().keySet());
    ids.forEach(stale::remove);
    for (String id : stale) {
      producer.send(new ProducerRecord<>(Topic.LANDMARK_COORDINATES.name(), id.getBytes(StandardCharsets.UTF_8), null));
    }
    producer.flush();
    return new Result(ids.size(), leftOut, true, epoch, median, null);
  }

  private static int peers(double[][] d, int i) {
    int n = 0;
    for (int j = 0; j < d.length; j++) if (j != i && !Double.isNaN(d[i][j])) n++;
    return n;
  }
}
