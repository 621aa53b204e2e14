package dev.reed.coordinator.position;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.integrity.LandmarkEvidence;
import dev.reed.coordinates.integrity.LandmarkQuarantine;
import dev.reed.coordinates.integrity.LandmarkResiduals;
import dev.reed.coordinates.integrity.QuarantineBaselines;
import dev.reed.coordinates.integrity.QuarantineConfig;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.coordinator.ingest.TargetWindows;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's lying-landmark check, run before each embedding: every announced landmark
 * in the mesh is measured against the current epoch's trusted landmarks ({@link LandmarkResiduals},
 * on a deterministic sample of this replica's targets) and {@link LandmarkQuarantine} decides who is
 * quarantined. The embedding leaves the quarantined ones out and publishes them flagged, so every
 * replica positions without them and no client calibrates against them; only the leader decides,
 * and a new leader continues from the published set, so replicas never disagree.
 *
 * <p>Rounds are counted in landmark rounds, not coordinator rounds: the check updates its counts only
 * when the sampled targets' newest landmark round advanced (a coordinator round is 30 s, an agent
 * round 5 min: counting coordinator rounds would judge one agent round ten times). Logs one INFO line
 * per quarantine and per readmission, with the evidence.
 */
public final class LandmarkIntegrityRound {
  private static final Logger log = LoggerFactory.getLogger(LandmarkIntegrityRound.class);

  /** A quarantined landmark: where its mesh RTTs place it (null = unknown) and why. */
  public record Held(Coordinate position, String reason) {}

  /** One round: the quarantine set after it, what changed, and this round's outliers. */
  public record Result(Map<String, Held> quarantined, List<LandmarkQuarantine.Change> changes,
      Map<String, String> outliers) {}

  private final CoordinateConfig math;
  private final QuarantineConfig config;
  private final LandmarkResiduals residuals;
  private final int minMeshPeers;
  private final Map<String, String> reasons = new HashMap<>();
  private LandmarkQuarantine quarantine;
  private QuarantineBaselines baselines = new QuarantineBaselines();
  private Result last = new Result(Map.of(), List.of(), Map.of());
  private long lastDataRound = Long.MIN_VALUE;
  private final java.util.concurrent.atomic.AtomicLong checks = new java.util.concurrent.atomic.AtomicLong();

  public LandmarkIntegrityRound(CoordinateConfig math, QuarantineConfig config, int minMeshPeers) {
    this.math = math;
    this.config = config;
    this.residuals = new LandmarkResiduals(new HostPositioner(math), config);
    this.minMeshPeers = Math.max(minMeshPeers, math.dimensions() + 1);
  }

  /** This replica is not (or no longer) the leader: the next leadership starts from the published set. */
  public void standBy() {
    quarantine = null;
    baselines = new QuarantineBaselines();
    reasons.clear();
    lastDataRound = Long.MIN_VALUE;
  }

  /** The leader's current decision (what the next embedding leaves out). */
  public java.util.Set<String> decided() {
    return last.quarantined().keySet();
  }

  /** Landmark rounds checked so far (each new landmark round once). */
  public long checks() {
    return checks.get();
  }

  public Result run(MeshWindows mesh, TargetWindows windows, ServingState state) {
    if (!config.enabled()) return last; // switched off: nobody quarantined, published ones readmitted by the embedding
    if (quarantine == null) {
      quarantine = new LandmarkQuarantine(config, state.quarantinedLandmarks().keySet());
      state.quarantinedLandmarks().forEach((id, c) -> reasons.put(id, c.getQuarantineReason()));
      last = new Result(held(quarantine.quarantined(), Map.of(), state), List.of(), Map.of());
    }
    MeshWindows.Mesh m = mesh.matrix(minMeshPeers);
    List<String> ids = new ArrayList<>();
    List<Integer> rows = new ArrayList<>();
    for (int i = 0; i < m.landmarkIds().size(); i++) {
      if (state.announcements().containsKey(m.landmarkIds().get(i))) {
        ids.add(m.landmarkIds().get(i));
        rows.add(i);
      }
    }
    double[][] d = new double[ids.size()][ids.size()];
    for (int i = 0; i < ids.size(); i++) for (int j = 0; j < ids.size(); j++) d[i][j] = m.rttMs()[rows.get(i)][rows.get(j)];
    Map<String, Coordinate> trusted = new HashMap<>();
    for (ServingState.Anchor a : state.landmarkAnchors()) trusted.put(a.landmarkId(), a.coordinate());
    // the same targets every round (by a hash of the key), so a landmark's figures move only when its RTTs do
    List<TargetWindows.Target> sample = sample(windows.all(), config.maxServers());
    long dataRound = sample.stream().mapToLong(TargetWindows.Target::newestRound).max().orElse(Long.MIN_VALUE);
    if (dataRound == lastDataRound) return last;
    lastDataRound = dataRound;
    checks.incrementAndGet();
    double[][] minima = new double[sample.size()][];
    double[][] spreads = new double[sample.size()][];
    double[][] newest = new double[sample.size()][];
    for (int s = 0; s < sample.size(); s++) {
      minima[s] = windows.minimaMs(sample.get(s), ids);
      spreads[s] = windows.spreadsMs(sample.get(s), ids);
      newest[s] = windows.newestMs(sample.get(s), ids);
    }
    List<String> keys = sample.stream().map(TargetWindows.Target::key).toList();
    Map<String, LandmarkEvidence> evidence = residuals.measure(ids, d, trusted, baselines.minima(ids, keys, minima), spreads,
        newest);
    LandmarkQuarantine.Decision decision = quarantine.update(evidence, math.dimensions() + 2);
    baselines.update(ids, keys, minima, decision);
    for (LandmarkQuarantine.Change c : decision.changes()) {
      if (c.quarantined()) {
        reasons.put(c.landmarkId(), c.reason());
        log.info("landmark {} quarantined: {}; {}; left out of the embedding, positioning and calibration until consistent "
            + "for {} rounds", c.landmarkId(), c.reason(), c.evidence(), config.readmitAfter());
      } else {
        reasons.remove(c.landmarkId());
        log.info("landmark {} readmitted: {}; {}", c.landmarkId(), c.reason(), c.evidence());
      }
    }
    last = new Result(held(decision.quarantined(), evidence, state), decision.changes(), decision.outliers());
    return last;
  }

  private Map<String, Held> held(java.util.Set<String> ids, Map<String, LandmarkEvidence> evidence, ServingState state) {
    Map<String, Held> held = new TreeMap<>();
    for (String id : ids) {
      LandmarkEvidence e = evidence.get(id);
      Coordinate position = e == null ? null : e.position();
      if (position == null && state.quarantinedLandmarks().containsKey(id)) {
        position = CoordinateCodec.fromProto(state.quarantinedLandmarks().get(id).getCoordinate(), math.dimensions(),
            "landmark " + id);
      }
      held.put(id, new Held(position, reasons.getOrDefault(id, "")));
    }
    return Map.copyOf(held);
  }

  /**
   * The {@code limit} targets with the smallest CRC-32 of their key, ties by key: the same ones every
   * round, whatever the windows' order. Each key is hashed once and sorted as a primitive (CRC in the
   * high bits, position in the low 31): the round runs every few seconds over every owned target, and
   * a comparator that hashed both keys at each comparison made 9 % of a replica's allocation at
   * 250,000 x 30 (JFR allocation samples; docs/research/scale.md).
   */
  static List<TargetWindows.Target> sample(List<TargetWindows.Target> all, int limit) {
    long[] order = new long[all.size()];
    CRC32 crc = new CRC32();
    for (int i = 0; i < order.length; i++) {
      crc.reset();
      crc.update(all.get(i).key().getBytes(StandardCharsets.UTF_8));
      order[i] = crc.getValue() << 31 | i;
    }
    Arrays.sort(order);
    List<TargetWindows.Target> out = new ArrayList<>(Math.min(limit, order.length));
    for (int i = 0; i < order.length && out.size() < limit; ) {
      int j = i + 1;
      while (j < order.length && order[j] >>> 31 == order[i] >>> 31) j++;
      List<TargetWindows.Target> tied = new ArrayList<>(j - i);
      for (int k = i; k < j; k++) tied.add(all.get((int) (order[k] & Integer.MAX_VALUE)));
      tied.sort(Comparator.comparing(TargetWindows.Target::key));
      for (int k = 0; k < tied.size() && out.size() < limit; k++) out.add(tied.get(k));
      i = j;
    }
    return out;
  }
}
