package dev.reed.client;

import dev.reed.coordinates.LandmarkComparison;
import dev.reed.coordinates.ranking.AdaptiveOrder;
import dev.reed.probe.ProbeResult;
import dev.reed.proto.v1.LandmarkRtt;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What this client's RTTs to the landmark beacons say about each listed server, beside the
 * coordinator's prediction (beyond the REED paper; eval/README.md "Landmark comparison"). The
 * client measured its RTT to every beacon it calibrated against; the coordinator serves each
 * server's RTTs from the same landmarks ({@code RankedServer.landmark_rtts}). Per server, the
 * coordinates module's {@link LandmarkComparison} keeps the prediction within the
 * triangle-inequality bounds ({@link LandmarkComparison#refine}) and the probe order adds the
 * near-landmark difference: the score is {@code refined + 0.5 x near difference}, exactly as
 * {@link AdaptiveOrder} ranks (its default settings give the 50 ms lower-bound radius and the
 * 0.5 weight). On planetlab490 this cut 2-5 probes from "all 10 nearest seen".
 *
 * <p>A server without landmark RTTs, or a client without beacon RTTs, keeps the coordinator's
 * prediction as its score, so the order is the coordinator's order.
 */
final class LandmarkOrder {
  /** No beacon RTTs: every score is the coordinator's prediction. */
  static final LandmarkOrder NONE = new LandmarkOrder(Map.of());

  private static final AdaptiveOrder.Settings SETTINGS = AdaptiveOrder.Settings.defaults();
  private static final double MAX_RTT_US = 998_999;

  private final String[] ids;
  private final double[] clientMs;
  private final Map<String, Integer> index = new HashMap<>();

  /** A candidate with its refined prediction and the score the probe order sorts by. */
  record Scored(Candidate candidate, double score) {}

  /**
   * @param clientLandmarkMs this client's measured RTT (ms) to each landmark's beacon, by landmark id
   */
  LandmarkOrder(Map<String, Double> clientLandmarkMs) {
    Map<String, Double> sorted = new TreeMap<>();
    clientLandmarkMs.forEach((id, ms) -> {
      if (id != null && !id.isEmpty() && ms != null && ms >= 0 && Double.isFinite(ms)) sorted.put(id, ms);
    });
    ids = sorted.keySet().toArray(new String[0]);
    clientMs = new double[ids.length];
    for (int l = 0; l < ids.length; l++) {
      clientMs[l] = sorted.get(ids[l]);
      index.put(ids[l], l);
    }
  }

  /** The beacon RTTs of a calibration, by landmark id (the lowest RTT when a beacon was measured twice). */
  static LandmarkOrder of(Iterable<CoordinatorClient.CalibrationTarget> calibration, Map<String, ProbeResult> measured) {
    Map<String, Double> ms = new HashMap<>();
    for (CoordinatorClient.CalibrationTarget t : calibration) {
      ProbeResult r = measured.get(t.candidate().key());
      if (t.landmarkId().isEmpty() || r == null || !r.ok()) continue;
      ms.merge(t.landmarkId(), r.rttNanos() / 1e6, Math::min);
    }
    return new LandmarkOrder(ms);
  }

  /** Landmarks this client has an RTT to. */
  int landmarks() {
    return ids.length;
  }

  /** The client's RTT to each landmark it measured, by id. */
  Map<String, Double> clientLandmarkMs() {
    Map<String, Double> out = new TreeMap<>();
    for (int l = 0; l < ids.length; l++) out.put(ids[l], clientMs[l]);
    return out;
  }

  /** The server's comparison with this client, {@link LandmarkComparison#NONE} when nothing is shared. */
  LandmarkComparison compare(Candidate c) {
    if (ids.length == 0 || c.landmarkRtts().isEmpty()) return LandmarkComparison.NONE;
    double[] serverMs = new double[ids.length];
    Arrays.fill(serverMs, Double.NaN);
    for (LandmarkRtt r : c.landmarkRtts()) {
      Integer l = index.get(r.getLandmarkId());
      long us = Integer.toUnsignedLong(r.getRttUs());
      if (l != null && us >= 1 && us <= MAX_RTT_US && !(serverMs[l] <= us / 1000.0)) serverMs[l] = us / 1000.0; // lowest if repeated
    }
    return LandmarkComparison.between(clientMs, serverMs);
  }

  /** The candidate with its prediction kept within the landmark bounds, and its place in the probe order. */
  Scored score(Candidate c) {
    LandmarkComparison cmp = compare(c);
    if (cmp == LandmarkComparison.NONE || Double.isNaN(c.predictedMs())) return new Scored(c, c.predictedMs());
    double refined = cmp.refine(c.predictedMs(), SETTINGS.lowerBoundBeyondMs());
    return new Scored(c.withPredictedMs(refined), refined + SETTINGS.nearDifferenceWeight() * cmp.nearDifferenceMs());
  }
}
