package dev.reed.coordinates.discovery;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.PositionFit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client's REED discovery policy, free of I/O: which calibration points to probe, where that
 * puts the client, and in which order to probe servers while learning from every reply. The
 * client SDK drives it over sockets and gRPC; {@code ./reed eval} drives the same code over a
 * measured matrix, so what the evaluator measures is what the SDK does (Caffeine's simulator runs
 * its production policies the same way).
 *
 * <p>Calibration is REED's Algorithm 3 in two phases (beyond the paper): probe the first
 * {@link DiscoveryModel#spreadProbes(int)} of the coordinator's spread set of landmark beacons (of
 * any calibration points when it has fewer than D+1 beacons), fit a rough position, then probe the
 * calibration points nearest to it for the rest of {@link DiscoveryModel#calibrationProbes()}: by
 * default the beacons within {@link DiscoveryModel#nearBeaconMaxMs()}, topped up with the nearest
 * of any kind. Near points fix the client relative to its neighbourhood, which is what ordering its
 * nearest servers needs; a near beacon is also a landmark that measured every server, so the
 * client's RTT to it bounds each server's RTT tightly (triangle inequality). When the spread phase
 * gets fewer than D+1 replies, or the rough fit fails, the rest of the spread set is probed
 * instead. The position is the GNP host fit (Ng &amp; Zhang 2002) over every reply.
 *
 * <p>Ordering is Algorithm 4 with learning: {@link ProbeOrder}.
 */
public final class DiscoveryPolicy {
  private final DiscoveryModel model;
  private final CoordinateConfig geometry;
  private final HostPositioner positioner;

  /**
   * @param geometry the deployment's coordinate model (dimensions, height), and the solver settings
   *     the client fits itself with
   */
  public DiscoveryPolicy(DiscoveryModel model, CoordinateConfig geometry) {
    if (model == null || geometry == null) {
      throw new IllegalArgumentException("model and geometry are required");
    }
    this.model = model;
    this.geometry = geometry;
    this.positioner = new HostPositioner(geometry);
  }

  public DiscoveryModel model() {
    return model;
  }

  /**
   * Calibrates: asks the source for points, probes them in two phases and fits the client.
   *
   * @throws InsufficientCalibrationException fewer than D+1 calibration points answered (or were offered)
   */
  public Calibration calibrate(CalibrationSource source, CalibrationProber prober) {
    int need = geometry.minAnchors();
    List<CalibrationPoint> local = model.localProbes() > 0 ? source.local(model.localProbes()) : null;
    List<CalibrationPoint> probed = new ArrayList<>();
    Map<String, Double> rtt = new HashMap<>();
    if (local != null && !local.isEmpty()) {
      probed.addAll(local);
      rtt.putAll(prober.probe(List.copyOf(local), 1));
    }
    // local servers that stayed silent are made up for by beacons, as far as positioning needs
    int count = Math.max(model.calibrationProbes() - probed.size(), need - replies(probed, rtt));
    List<CalibrationPoint> set = new ArrayList<>();
    for (CalibrationSource.Kind kind : List.of(CalibrationSource.Kind.BEACON, CalibrationSource.Kind.ANY)) {
      set = unprobed(source.spread(count + probed.size(), kind), probed);
      if (set.size() + replies(probed, rtt) >= need) {
        break;
      }
    }
    if (set.size() + replies(probed, rtt) < need) {
      throw new InsufficientCalibrationException("the coordinator offers " + (set.size() + probed.size())
          + " calibration points; positioning in " + geometry.dimensions() + " dimensions needs " + need);
    }
    int spread = Math.min(Math.min(set.size(), count), Math.max(0, model.spreadProbes(geometry.dimensions()) - replies(probed, rtt)));
    List<CalibrationPoint> first = List.copyOf(set.subList(0, spread));
    if (!first.isEmpty()) {
      rtt.putAll(prober.probe(first, Math.max(1, need - replies(probed, rtt))));
      probed.addAll(first);
    }
    List<CalibrationPoint> rest = set.subList(spread, Math.min(set.size(), count));
    int nearCount = count - spread;
    if (nearCount > 0 && replies(probed, rtt) >= need) {
      List<CalibrationPoint> near = near(source, probed, rtt, nearCount);
      if (near != null) {
        rest = near;
      }
    }
    if (!rest.isEmpty()) {
      rest = List.copyOf(rest);
      rtt.putAll(prober.probe(rest, Math.max(1, need - replies(probed, rtt))));
      probed.addAll(rest);
    }
    int replies = replies(probed, rtt);
    if (replies < need) {
      throw new InsufficientCalibrationException("only " + replies + " of " + probed.size()
          + " calibration servers answered; positioning in " + geometry.dimensions() + " dimensions needs " + need);
    }
    PositionFit fit = fit(probed, rtt);
    Calibration out = fit == null ? new Calibration(probed, rtt, null, Double.NaN, replies)
        : new Calibration(probed, rtt, fit.coordinate(), fit.relativeError(), fit.anchorsUsed());
    return model.geo() ? out.withLocation(source.locate(List.copyOf(probed), Map.copyOf(rtt))) : out;
  }

  /**
   * The probe order after a calibration.
   *
   * @param start the client's position: the calibration's, or one the coordinator solved
   * @param pageSize servers per page the driver asks for (the order asks for the next page when a
   *     quarter of one is left)
   */
  public ProbeOrder order(Calibration calibration, Coordinate start, int pageSize) {
    return new ProbeOrder(model, geometry, calibration, start, pageSize);
  }

  /** The second phase's points, or null when it cannot run (the caller probes the rest of the spread set). */
  private List<CalibrationPoint> near(CalibrationSource source, List<CalibrationPoint> probed, Map<String, Double> rtt,
      int nearCount) {
    PositionFit rough = fit(probed, rtt);
    if (rough == null) {
      return null;
    }
    Set<String> done = new HashSet<>();
    probed.forEach(p -> done.add(p.key()));
    // ask for enough that the ones already probed can be skipped
    int ask = Math.min(64, nearCount + probed.size());
    List<CalibrationPoint> out = new ArrayList<>();
    List<CalibrationSource.Kind> kinds = model.near() == DiscoveryModel.NearCalibration.BEACONS
        ? List.of(CalibrationSource.Kind.BEACON, CalibrationSource.Kind.ANY) : List.of(CalibrationSource.Kind.ANY);
    for (CalibrationSource.Kind kind : kinds) {
      if (out.size() >= nearCount) {
        break;
      }
      double maxMs = kind == CalibrationSource.Kind.BEACON ? model.nearBeaconMaxMs() : Double.POSITIVE_INFINITY;
      List<CalibrationPoint> offered = source.nearest(rough.coordinate(), ask, kind);
      if (offered == null) {
        return out.isEmpty() ? null : out;
      }
      for (CalibrationPoint p : offered) {
        if (out.size() < nearCount && rough.coordinate().distanceTo(p.coordinate()) <= maxMs && done.add(p.key())) {
          out.add(p);
        }
      }
    }
    return out;
  }

  /** The GNP host fit over every reply so far, or null when the solver cannot place the client. */
  private PositionFit fit(List<CalibrationPoint> probed, Map<String, Double> rtt) {
    List<Coordinate> anchors = new ArrayList<>(probed.size());
    double[] ms = new double[probed.size()];
    for (int i = 0; i < ms.length; i++) {
      anchors.add(probed.get(i).coordinate());
      ms[i] = rtt.getOrDefault(probed.get(i).key(), Double.NaN);
    }
    try {
      return positioner.position(anchors, ms, null);
    } catch (IllegalArgumentException | ArithmeticException e) {
      return null;
    }
  }

  /** The points not probed yet, in order. */
  private static List<CalibrationPoint> unprobed(List<CalibrationPoint> offered, List<CalibrationPoint> probed) {
    Set<String> done = new HashSet<>();
    probed.forEach(p -> done.add(p.key()));
    List<CalibrationPoint> out = new ArrayList<>(offered.size());
    for (CalibrationPoint p : offered) {
      if (done.add(p.key())) {
        out.add(p);
      }
    }
    return out;
  }

  private static int replies(List<CalibrationPoint> probed, Map<String, Double> rtt) {
    int n = 0;
    for (CalibrationPoint p : probed) {
      if (rtt.containsKey(p.key())) {
        n++;
      }
    }
    return n;
  }
}
