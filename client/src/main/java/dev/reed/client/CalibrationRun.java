package dev.reed.client;

import dev.reed.probe.NanoTicker;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.discovery.Calibration;
import dev.reed.coordinates.discovery.CalibrationPoint;
import dev.reed.coordinates.discovery.CalibrationSource;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.coordinates.discovery.DiscoveryPolicy;
import dev.reed.coordinates.discovery.InsufficientCalibrationException;
import dev.reed.coordinates.discovery.LocationFix;
import dev.reed.probe.ProbeResult;
import dev.reed.proto.v1.CalibrationKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the discovery policy's calibration ({@link DiscoveryPolicy#calibrate}: Algorithm 3 in two
 * phases) over the coordinator and real probes: GetCalibrationServers answers the policy's
 * requests for points, each batch is probed concurrently by a {@link ProbeLoop} that waits for
 * every reply but not for stragglers ({@link Quorum}). The client is positioned locally by the
 * policy, or by the coordinator's Locate RPC when asked to or when the local fit fails. When the
 * coordinator placed the client (a location database), Locate also corrects that place from the
 * calibration RTTs ({@link CoordinatorClient#locationFix}); the evaluator's simulated coordinator
 * answers the policy's {@code CalibrationSource#locate} the same way.
 */
final class CalibrationRun {
  private static final Logger log = LoggerFactory.getLogger(CalibrationRun.class);

  /**
   * The client's position and what it took.
   *
   * @param measured the replies by endpoint key, reused when the probe order reaches a calibration server
   * @param policy the policy's calibration, which the probe order starts from
   * @param geometry the deployment's coordinate model
   * @param serverTimeouts calibration game servers (not beacons) whose probe timed out, for a report
   */
  record Result(ClientPosition position, int probesSent, int replies, int timeouts, Map<String, ProbeResult> measured,
      List<CoordinatorClient.Measurement> measurements, long doneNanos, Calibration policy,
      CoordinateConfig geometry, List<java.net.InetSocketAddress> serverTimeouts) {}

  private CalibrationRun() {}

  /**
   * Waits for every calibration reply, but not for stragglers: once max(D+1, 75 %) have
   * answered, the rest get at most max(100 ms, the slowest reply so far) longer. A calibration
   * server that is down would otherwise add a whole probe timeout to every discovery; positioning
   * needs only D+1 replies.
   */
  static final class Quorum implements StopCondition {
    static final long MIN_GRACE_NANOS = 100_000_000L;
    private final int quorum;
    private final NanoTicker ticker;
    private int replies;
    private long slowestNanos;
    private long stopAt = Long.MAX_VALUE;

    Quorum(int total, int minReplies, NanoTicker ticker) {
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
        stopAt = ticker.read() + Math.max(MIN_GRACE_NANOS, slowestNanos);
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

  static Result run(CoordinatorClient coordinator, DiscoveryModel model, Positioning positioning,
      Supplier<ProbeLoop> loops, NanoTicker ticker) {
    // the spread set of beacons comes first anyway and tells the deployment's geometry
    CoordinatorClient.CalibrationSet beacons = coordinator.beaconCalibrationServers(model.calibrationProbes());
    Points points = new Points(coordinator, beacons);
    Probes probes = new Probes(points, loops, ticker);
    CoordinateConfig geometry = new CoordinateConfig(beacons.dimensions(), beacons.heightModel());
    Calibration cal;
    try {
      cal = new DiscoveryPolicy(model, geometry).calibrate(points, probes);
    } catch (InsufficientCalibrationException e) {
      throw new ReedClientException(ReedClientException.Kind.CALIBRATION_FAILED, e.getMessage() + " (within the probe timeout)");
    }
    List<CoordinatorClient.Measurement> measurements = points.measurements(cal.probed(), cal.rttMs(), null);
    ClientPosition position = positioning == Positioning.LOCATE_RPC || cal.position() == null
        ? coordinator.locate(measurements) // thin client, or a geometry the local solver cannot place
        : new ClientPosition(cal.position(), cal.fitError(), cal.anchorsUsed(), ClientPosition.Source.LOCAL);
    return new Result(position, probes.sent, measurements.size(), probes.timeouts, probes.byKey, measurements,
        probes.doneNanos, cal, geometry, List.copyOf(probes.serverTimeouts));
  }

  /** GetCalibrationServers as the policy's source of calibration points. */
  private static final class Points implements CalibrationSource {
    private final CoordinatorClient coordinator;
    private final Map<String, CoordinatorClient.CalibrationTarget> byKey = new HashMap<>();
    private CoordinatorClient.CalibrationSet firstBeacons;

    /** @param firstBeacons the answer to the spread call for beacons the policy makes first */
    Points(CoordinatorClient coordinator, CoordinatorClient.CalibrationSet firstBeacons) {
      this.coordinator = coordinator;
      this.firstBeacons = firstBeacons;
    }

    CoordinatorClient.CalibrationTarget target(String key) {
      return byKey.get(key);
    }

    /** The replies as Locate takes them, in probe order; each one's key is added to {@code keys} when not null. */
    List<CoordinatorClient.Measurement> measurements(List<CalibrationPoint> probed, Map<String, Double> rttMs, List<String> keys) {
      List<CoordinatorClient.Measurement> out = new ArrayList<>();
      for (CalibrationPoint p : probed) {
        Double ms = rttMs.get(p.key());
        if (ms != null) {
          out.add(new CoordinatorClient.Measurement(target(p.key()).candidate().address(), ms));
          if (keys != null) {
            keys.add(p.key());
          }
        }
      }
      return out;
    }

    @Override
    public LocationFix locate(List<CalibrationPoint> probed, Map<String, Double> rttMs) {
      List<String> keys = new ArrayList<>();
      return coordinator.locationFix(measurements(probed, rttMs, keys), keys);
    }

    @Override
    public List<CalibrationPoint> local(int count) {
      List<CoordinatorClient.CalibrationTarget> servers = coordinator.localCalibrationServers(count);
      if (servers.isEmpty()) {
        return null;
      }
      List<CalibrationPoint> out = new ArrayList<>(servers.size());
      for (CoordinatorClient.CalibrationTarget t : servers) {
        byKey.putIfAbsent(t.candidate().key(), t);
        out.add(t.point());
      }
      return out;
    }

    @Override
    public List<CalibrationPoint> spread(int count, Kind kind) {
      // the beacons first, so the client has landmark RTTs to compare; any kind when the coordinator
      // has too few (calibrationServers then explains what is missing)
      CoordinatorClient.CalibrationSet set;
      if (kind == Kind.BEACON && firstBeacons != null && firstBeacons.servers().size() <= count) {
        set = firstBeacons;
        firstBeacons = null;
      } else {
        set = kind == Kind.BEACON ? coordinator.beaconCalibrationServers(count) : coordinator.calibrationServers(count);
      }
      return points(set);
    }

    @Override
    public List<CalibrationPoint> nearest(dev.reed.coordinates.Coordinate around, int count, Kind kind) {
      try {
        return points(coordinator.nearestCalibrationServers(count, around,
            kind == Kind.BEACON ? CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON : CalibrationKind.CALIBRATION_KIND_UNSPECIFIED));
      } catch (ReedClientException e) {
        log.warn("second calibration phase skipped, probing the rest of the spread set: {}", e.getMessage());
        return null;
      }
    }

    private List<CalibrationPoint> points(CoordinatorClient.CalibrationSet set) {
      List<CalibrationPoint> out = new ArrayList<>(set.servers().size());
      for (CoordinatorClient.CalibrationTarget t : set.servers()) {
        byKey.putIfAbsent(t.candidate().key(), t);
        out.add(t.point());
      }
      return out;
    }
  }

  /** One {@link ProbeLoop} per batch: a phase waits only for its own probes. */
  private static final class Probes implements dev.reed.coordinates.discovery.CalibrationProber {
    private final Points points;
    private final Supplier<ProbeLoop> loops;
    private final NanoTicker ticker;
    final Map<String, ProbeResult> byKey = new HashMap<>();
    final List<java.net.InetSocketAddress> serverTimeouts = new ArrayList<>();
    int sent;
    int timeouts;
    long doneNanos;

    Probes(Points points, Supplier<ProbeLoop> loops, NanoTicker ticker) {
      this.points = points;
      this.loops = loops;
      this.ticker = ticker;
    }

    @Override
    public Map<String, Double> probe(List<CalibrationPoint> batch, int minReplies) {
      List<Candidate> candidates = batch.stream().map(p -> points.target(p.key()).candidate()).toList();
      ProbeLoop.Outcome out = loops.get().run(new ListFeed(candidates), new Quorum(candidates.size(), minReplies, ticker), Map.of());
      if (out.reason() == DiscoveryResult.StopReason.INTERRUPTED) {
        throw new ReedClientException(ReedClientException.Kind.CALIBRATION_FAILED,
            "calibration did not finish (" + out.reason() + ") after " + out.sent() + " probes");
      }
      sent += out.sent();
      timeouts += out.timeouts();
      doneNanos = out.stopNanos();
      Map<String, Double> rtt = new HashMap<>();
      for (ProbeLoop.Recorded r : out.results()) {
        if (r.result().ok()) {
          byKey.put(r.candidate().key(), r.result());
          rtt.put(r.candidate().key(), r.result().rttNanos() / 1e6);
        } else if (r.result().status() == dev.reed.proto.v1.ProbeStatus.PROBE_STATUS_TIMEOUT
            && points.target(r.candidate().key()).landmarkId().isEmpty()) {
          serverTimeouts.add(r.candidate().address());
        }
      }
      return rtt;
    }
  }
}
