package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.PositionFit;
import dev.reed.probe.ProbeResult;
import dev.reed.proto.v1.CalibrationKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Algorithm 3 on the client, in two phases (beyond the paper; eval/README.md "Two-phase
 * calibration"): probe the first D+2 of the coordinator's spread set of landmark beacons (of any
 * calibration servers when it has fewer than D+1 beacons), position roughly, then probe the
 * calibration points nearest to that position (GetCalibrationServers with {@code near}) for the
 * rest of the calibration count: by default ({@link NearCalibration#BEACONS}) the beacons predicted
 * within {@link #NEAR_BEACON_MAX_MS}, topped up with the nearest calibration servers of any kind.
 * The beacon RTTs feed the probe order ({@link LandmarkOrder}); in a deployment with thousands of
 * well-fitted game servers a spread set of any kind would hardly ever contain a beacon. Near
 * calibration points fix the client relative to its neighbourhood, which is what ordering its
 * nearest servers needs; distant ones mostly re-measure the continent.
 *
 * <p>Near beacons rather than near servers of any kind, measured with {@code ./reed eval
 * --calibration-near} on planetlab490 (15 landmarks, 4-D, 10 seeds): 6 spread + 4 near beacons
 * within {@link #NEAR_BEACON_MAX_MS} order the first page with P@10 0.63, Intelligent N_close
 * stops after 51.5 probes and the true 10 nearest are seen after 45.0; 6 spread + 8 near of any
 * kind (the previous default, N_calib 14) give 0.37, 54.5 and 48.5, and 6 + 4 of any kind 0.46,
 * 52.8 and 47.3. A beacon is a landmark, and the landmark measured its RTT to every server, so the
 * client's RTT to a near one bounds each server's RTT tightly (triangle inequality); a near game
 * server is only a coordinate with a few ms of error.
 *
 * <p>The client is then positioned from every reply of both phases, locally with the same GNP host
 * positioning the coordinator uses for servers (Ng &amp; Zhang 2002), or, when that is not wanted
 * or fails, with the coordinator's Locate RPC.
 *
 * <p>D+2 rather than D+1 spread servers: the rough fit needs D+1 replies, and with one spare a
 * silent spread server costs the quorum's grace period instead of a whole probe timeout. When the
 * spread phase gets fewer than D+1 replies, or the count leaves nothing for a second phase, the
 * rest of the spread set is probed instead (the single-phase calibration).
 */
final class Calibration {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Calibration.class);
  /** GetCalibrationServers' largest count. */
  private static final int MAX_CALIBRATION = 64;
  /**
   * A beacon predicted farther than this from the rough position is not a near calibration point:
   * its RTT bounds no near server tightly, and the phase would wait for it. In EndToEndTest, where
   * every beacon is at least 130 ms from the client, waiting made a discovery 0.25 s slower; on
   * planetlab490 the cap cost 0.02 of P@10 and 0.4 probes of "all 10 nearest seen" (eval
   * --near-beacon-max).
   */
  static final double NEAR_BEACON_MAX_MS = 100;

  /**
   * The client's position and what it took.
   *
   * @param landmarks the client's RTTs to the landmark beacons it probed, for the probe order
   */
  record Result(ClientPosition position, int probesSent, int replies, int timeouts, Map<String, ProbeResult> measured,
      List<CoordinatorClient.Measurement> measurements, long doneNanos, LandmarkOrder landmarks) {}

  private Calibration() {}

  /**
   * Waits for every calibration reply, but not for stragglers: once max(D+1, 75 %) have
   * answered, the rest get at most max(100 ms, the slowest reply so far) longer. A calibration
   * server that is down would otherwise add a whole probe timeout to every discovery; positioning
   * needs only D+1 replies.
   */
  static final class Quorum implements StopCondition {
    static final long MIN_GRACE_NANOS = 100_000_000L;
    private final int quorum;
    private final Ticker ticker;
    private int replies;
    private long slowestNanos;
    private long stopAt = Long.MAX_VALUE;

    Quorum(int total, int minReplies, Ticker ticker) {
      this.quorum = Math.max(minReplies, (int) Math.ceil(total * 0.75));
      this.ticker = ticker;
    }

    @Override
    public boolean observe(Candidate c, ProbeResult r) {
      if (r.ok()) {
        replies++;
        slowestNanos = Math.max(slowestNanos, r.rttNanos());
      }
      if (replies >= quorum && stopAt == Long.MAX_VALUE) {
        stopAt = ticker.nanos() + Math.max(MIN_GRACE_NANOS, slowestNanos);
      }
      return false; // the loop ends when every probe is in, or at stopAtNanos
    }

    @Override
    public boolean inProbeOrder() {
      return false;
    }

    @Override
    public long stopAtNanos() {
      return stopAt;
    }
  }

  static Result run(CoordinatorClient coordinator, int count, NearCalibration nearKind, Positioning positioning,
      Supplier<ProbeLoop> loops, Ticker ticker) {
    // spread over the landmark beacons, so the client has landmark RTTs to compare; any kind when
    // the coordinator has too few beacons
    CoordinatorClient.CalibrationSet set = coordinator.beaconCalibrationServers(count);
    if (set.servers().size() < set.dimensions() + 1) set = coordinator.calibrationServers(count);
    int need = set.dimensions() + 1;
    int spread = Math.min(set.servers().size(), need + 1);
    List<CoordinatorClient.CalibrationTarget> probed = new ArrayList<>(set.servers().subList(0, spread));
    Map<String, ProbeResult> byKey = new HashMap<>();
    // one loop per phase: a phase waits only for its own probes
    ProbeLoop.Outcome last = probe(loops.get(), probed, need, ticker, byKey);
    int sent = last.sent();
    int timeouts = last.timeouts();
    List<CoordinatorClient.CalibrationTarget> rest = set.servers().subList(spread, set.servers().size());
    int nearCount = count - spread;
    if (nearCount > 0 && replies(probed, byKey) >= need) {
      List<CoordinatorClient.CalibrationTarget> near = nearest(coordinator, set, probed, byKey, positioning, nearCount, nearKind);
      if (near != null) rest = near;
    }
    if (!rest.isEmpty()) {
      last = probe(loops.get(), rest, Math.max(1, need - replies(probed, byKey)), ticker, byKey);
      sent += last.sent();
      timeouts += last.timeouts();
      probed.addAll(rest);
    }
    Anchors a = Anchors.of(probed, byKey);
    if (a.measurements().size() < need) {
      throw new ReedClientException(ReedClientException.Kind.CALIBRATION_FAILED,
          "only " + a.measurements().size() + " of " + probed.size() + " calibration servers answered within the probe timeout;"
              + " positioning in " + set.dimensions() + " dimensions needs " + need);
    }
    ClientPosition position = position(coordinator, set, positioning, a);
    return new Result(position, sent, a.measurements().size(), timeouts, byKey, a.measurements(), last.stopNanos(),
        LandmarkOrder.of(probed, byKey));
  }

  /** Calibration servers probed so far as positioning input: coordinates, RTTs (NaN = no reply), replies. */
  private record Anchors(List<Coordinate> coordinates, double[] rttMs, List<CoordinatorClient.Measurement> measurements) {
    static Anchors of(List<CoordinatorClient.CalibrationTarget> probed, Map<String, ProbeResult> byKey) {
      List<Coordinate> anchors = new ArrayList<>();
      double[] rtt = new double[probed.size()];
      List<CoordinatorClient.Measurement> measurements = new ArrayList<>();
      for (int i = 0; i < rtt.length; i++) {
        CoordinatorClient.CalibrationTarget t = probed.get(i);
        anchors.add(t.coordinate());
        ProbeResult r = byKey.get(t.candidate().key());
        rtt[i] = r == null ? Double.NaN : r.rttNanos() / 1e6;
        if (r != null) measurements.add(new CoordinatorClient.Measurement(t.candidate().address(), rtt[i]));
      }
      return new Anchors(anchors, rtt, measurements);
    }
  }

  /**
   * The second phase: the {@code nearCount} calibration servers nearest to the rough position
   * from the spread phase, not probed yet; null when the rough fit or the call fails (the caller
   * then probes the rest of the spread set).
   */
  private static List<CoordinatorClient.CalibrationTarget> nearest(CoordinatorClient coordinator,
      CoordinatorClient.CalibrationSet set, List<CoordinatorClient.CalibrationTarget> probed, Map<String, ProbeResult> byKey,
      Positioning positioning, int nearCount, NearCalibration nearKind) {
    try {
      Coordinate rough = position(coordinator, set, positioning, Anchors.of(probed, byKey)).coordinate();
      // ask for enough that the ones already probed can be skipped
      int ask = Math.min(MAX_CALIBRATION, nearCount + probed.size());
      java.util.Set<String> done = new java.util.HashSet<>();
      for (CoordinatorClient.CalibrationTarget t : probed) done.add(t.candidate().key());
      List<CoordinatorClient.CalibrationTarget> out = new ArrayList<>();
      // BEACONS: near beacons first, their RTTs also tighten the landmark comparison's bounds; game
      // servers for the slots no beacon within NEAR_BEACON_MAX_MS fills (class comment: the numbers)
      List<CalibrationKind> kinds = nearKind == NearCalibration.BEACONS
          ? List.of(CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON, CalibrationKind.CALIBRATION_KIND_UNSPECIFIED)
          : List.of(CalibrationKind.CALIBRATION_KIND_UNSPECIFIED);
      for (CalibrationKind kind : kinds) {
        if (out.size() >= nearCount) break;
        double maxMs = kind == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON ? NEAR_BEACON_MAX_MS : Double.POSITIVE_INFINITY;
        for (CoordinatorClient.CalibrationTarget t : coordinator.nearestCalibrationServers(ask, rough, kind).servers()) {
          if (out.size() < nearCount && rough.distanceTo(t.coordinate()) <= maxMs && done.add(t.candidate().key())) out.add(t);
        }
      }
      return out;
    } catch (ReedClientException e) {
      log.warn("second calibration phase skipped, probing the rest of the spread set: {}", e.getMessage());
      return null;
    }
  }

  /** Probes the targets concurrently until every reply is in or the quorum's grace has passed. */
  private static ProbeLoop.Outcome probe(ProbeLoop loop, List<CoordinatorClient.CalibrationTarget> targets, int minReplies, Ticker ticker,
      Map<String, ProbeResult> byKey) {
    List<Candidate> candidates = targets.stream().map(CoordinatorClient.CalibrationTarget::candidate).toList();
    ProbeLoop.Outcome out = loop.run(new ListFeed(candidates), new Quorum(candidates.size(), minReplies, ticker), byKey);
    if (out.reason() == DiscoveryResult.StopReason.INTERRUPTED) {
      throw new ReedClientException(ReedClientException.Kind.CALIBRATION_FAILED,
          "calibration did not finish (" + out.reason() + ") after " + out.sent() + " probes");
    }
    for (ProbeLoop.Recorded r : out.results()) if (r.result().ok()) byKey.put(r.candidate().key(), r.result());
    return out;
  }

  private static int replies(List<CoordinatorClient.CalibrationTarget> targets, Map<String, ProbeResult> byKey) {
    int n = 0;
    for (CoordinatorClient.CalibrationTarget t : targets) if (byKey.containsKey(t.candidate().key())) n++;
    return n;
  }

  private static ClientPosition position(CoordinatorClient coordinator, CoordinatorClient.CalibrationSet set,
      Positioning positioning, Anchors a) {
    if (positioning == Positioning.LOCATE_RPC) return coordinator.locate(a.measurements());
    try {
      PositionFit fit = new HostPositioner(new CoordinateConfig(set.dimensions(), set.heightModel()))
          .position(a.coordinates(), a.rttMs(), null);
      return new ClientPosition(fit.coordinate(), fit.relativeError(), fit.anchorsUsed(), ClientPosition.Source.LOCAL);
    } catch (IllegalArgumentException | ArithmeticException e) {
      // e.g. a deployment geometry the local solver does not support: let the coordinator solve it
      return coordinator.locate(a.measurements());
    }
  }
}
