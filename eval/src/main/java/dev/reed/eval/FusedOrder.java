package dev.reed.eval;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkComparison;
import dev.reed.coordinates.PositionFit;
import dev.reed.coordinates.discovery.Calibration;
import dev.reed.coordinates.discovery.CalibrationPoint;
import dev.reed.coordinates.geo.FusedEstimator;
import dev.reed.coordinates.geo.Place;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The fused estimator's static order for one client (issue 15, experimental): servers by the
 * fused prediction from where the client is believed to be and, in the calibrated variant, the
 * calibration REED's client made (its probes counted, a calibrated server handed out in its turn
 * as measured), its coordinate from that calibration (the distance bounded by the landmark
 * comparison when REED's model uses it) and its landmark RTTs for its excess and the
 * relay bound; the calibration may move the client from its prior to a located host that explains
 * its landmark RTTs better. The zero-probe variant has the location prior only.
 */
final class FusedOrder {
  private final FusedEstimator estimator;
  private final SeedRun.Output seed;
  private final Place[] believed;
  private final double lowerBoundBeyondMs;
  private final double nearDifferenceWeight;
  private final double locateMarginMs;
  private final HostPositioner positioner;
  private final Map<Integer, Integer> serverIndex = new HashMap<>();

  /**
   * @param estimator trained on this seed ({@link FusedTraining}); its servers are {@code seed.servers()}
   * @param believed where each client is believed to be, by node (null = unknown)
   * @param lowerBoundBeyondMs REED's landmark comparison bound, NaN = plain coordinate distance
   * @param nearDifferenceWeight the order adds this times the near-landmark difference to the
   *     prediction, as REED's ProbeOrder does (0 = order by the prediction)
   * @param locateMarginMs the estimator model's margin for moving a calibrated client ({@link FusedEstimator#locate})
   * @param positioner re-positions a client from part of its calibration
   */
  FusedOrder(FusedEstimator estimator, SeedRun.Output seed, Place[] believed, double lowerBoundBeyondMs,
      double nearDifferenceWeight, double locateMarginMs, HostPositioner positioner) {
    this.locateMarginMs = locateMarginMs;
    this.positioner = positioner;
    this.estimator = estimator;
    this.lowerBoundBeyondMs = lowerBoundBeyondMs;
    this.nearDifferenceWeight = nearDifferenceWeight;
    this.seed = seed;
    this.believed = believed;
    for (int j = 0; j < seed.servers().length; j++) {
      serverIndex.put(seed.servers()[j], j);
    }
  }

  /** With REED's calibration; null when the client has none (REED could not serve it either). */
  StaticOrder calibrated(ClientView c) {
    Calibration cal = seed.calibrations().get(c.client());
    return cal == null ? null : ordered(c, cal);
  }

  /**
   * With the first {@code probes} of REED's calibration only (the client re-positioned from
   * those; no coordinate when they are too few to fit one); null when the client has no calibration.
   */
  StaticOrder calibratedFirst(ClientView c, int probes) {
    Calibration cal = seed.calibrations().get(c.client());
    if (cal == null) {
      return null;
    }
    if (probes >= cal.probes()) {
      return ordered(c, cal);
    }
    List<CalibrationPoint> first = cal.probed().subList(0, probes);
    Map<String, Double> rtt = new HashMap<>();
    List<Coordinate> anchors = new ArrayList<>();
    List<Double> ms = new ArrayList<>();
    for (CalibrationPoint p : first) {
      Double r = cal.rttMs().get(p.key());
      if (r != null) {
        rtt.put(p.key(), r);
        anchors.add(p.coordinate());
        ms.add(r);
      }
    }
    Coordinate position;
    double fitError;
    try {
      PositionFit f = positioner.position(anchors, ms.stream().mapToDouble(Double::doubleValue).toArray(), null);
      position = f.coordinate();
      fitError = f.relativeError();
    } catch (IllegalArgumentException tooFew) {
      position = null;
      fitError = Double.NaN;
    }
    return ordered(c, new Calibration(first, rtt, position, fitError, anchors.size()));
  }

  private StaticOrder ordered(ClientView c, Calibration cal) {
    int[] lm = seed.landmarks();
    double[] toLandmark = new double[lm.length];
    for (int k = 0; k < lm.length; k++) {
      Double ms = cal.rttMs().get(Integer.toString(lm[k]));
      toLandmark[k] = lm[k] == c.client() ? 0 : ms == null ? Double.NaN : ms;
    }
    Place at = estimator.locate(believed[c.client()], toLandmark, locateMarginMs);
    int ns = c.servers().length;
    double[] pred = new double[ns];
    double[] key = new double[ns];
    boolean[] measured = new boolean[ns];
    for (int j = 0; j < ns; j++) {
      int v = c.servers()[j];
      Double ms = cal.rttMs().get(Integer.toString(v));
      if (ms != null) {
        measured[j] = true;
        pred[j] = ms;
        key[j] = ms;
        continue;
      }
      LandmarkComparison cmp = LandmarkComparison.between(toLandmark, seed.landmarkRtt()[v]);
      double coord = cal.position() == null ? Double.NaN : cal.position().distanceTo(seed.coords()[v]);
      if (Double.isFinite(coord) && !Double.isNaN(lowerBoundBeyondMs)) {
        coord = cmp.refine(coord, lowerBoundBeyondMs);
      }
      pred[j] = estimator.predictMs(at, toLandmark, serverIndex.get(v), coord);
      key[j] = pred[j] + nearDifferenceWeight * cmp.nearDifferenceMs();
    }
    return new StaticOrder(Orders.ascending(key), pred, cal.probes(), measured, true);
  }

  /** The location prior alone, no probe; null when the client's location is unknown. */
  StaticOrder zeroProbe(ClientView c) {
    Place at = believed[c.client()];
    if (at == null) {
      return null;
    }
    int ns = c.servers().length;
    double[] pred = new double[ns];
    for (int j = 0; j < ns; j++) {
      pred[j] = estimator.predictMs(at, null, serverIndex.get(c.servers()[j]), Double.NaN);
    }
    return StaticOrder.uncalibrated(Orders.ascending(pred), pred, true);
  }
}
