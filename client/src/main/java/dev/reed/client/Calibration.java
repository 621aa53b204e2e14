package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.PositionFit;
import dev.reed.probe.ProbeResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Algorithm 3 on the client: probe the coordinator's calibration servers concurrently (paced at
 * the client's rate), then solve the client's position locally with the same GNP host
 * positioning the coordinator uses for servers (Ng &amp; Zhang 2002), or, when that is not wanted
 * or fails, with the coordinator's Locate RPC.
 */
final class Calibration {

  /** The client's position and what it took. */
  record Result(ClientPosition position, int probesSent, int replies, int timeouts, Map<String, ProbeResult> measured,
      List<CoordinatorClient.Measurement> measurements, long doneNanos) {}

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

  static Result run(CoordinatorClient coordinator, int count, Positioning positioning, ProbeLoop loop, Ticker ticker) {
    CoordinatorClient.CalibrationSet set = coordinator.calibrationServers(count);
    List<Candidate> candidates = set.servers().stream().map(CoordinatorClient.CalibrationTarget::candidate).toList();
    ProbeLoop.Outcome out = loop.run(new ListFeed(candidates), new Quorum(candidates.size(), set.dimensions() + 1, ticker),
        Map.of());
    if (out.reason() == DiscoveryResult.StopReason.INTERRUPTED) {
      throw new ReedClientException(ReedClientException.Kind.CALIBRATION_FAILED,
          "calibration did not finish (" + out.reason() + ") after " + out.sent() + " probes");
    }
    Map<String, ProbeResult> byKey = new HashMap<>();
    for (ProbeLoop.Recorded r : out.results()) if (r.result().ok()) byKey.put(r.candidate().key(), r.result());
    List<Coordinate> anchors = new ArrayList<>();
    double[] rtt = new double[set.servers().size()];
    List<CoordinatorClient.Measurement> measurements = new ArrayList<>();
    for (int i = 0; i < rtt.length; i++) {
      CoordinatorClient.CalibrationTarget t = set.servers().get(i);
      anchors.add(t.coordinate());
      ProbeResult r = byKey.get(t.candidate().key());
      rtt[i] = r == null ? Double.NaN : r.rttNanos() / 1e6;
      if (r != null) measurements.add(new CoordinatorClient.Measurement(t.candidate().address(), rtt[i]));
    }
    int need = set.dimensions() + 1;
    if (measurements.size() < need) {
      throw new ReedClientException(ReedClientException.Kind.CALIBRATION_FAILED,
          "only " + measurements.size() + " of " + rtt.length + " calibration servers answered within the probe timeout;"
              + " positioning in " + set.dimensions() + " dimensions needs " + need);
    }
    ClientPosition position;
    if (positioning == Positioning.LOCATE_RPC) {
      position = coordinator.locate(measurements);
    } else {
      try {
        PositionFit fit = new HostPositioner(new CoordinateConfig(set.dimensions(), set.heightModel()))
            .position(anchors, rtt, null);
        position = new ClientPosition(fit.coordinate(), fit.relativeError(), fit.anchorsUsed(), ClientPosition.Source.LOCAL);
      } catch (IllegalArgumentException | ArithmeticException e) {
        // e.g. a deployment geometry the local solver does not support: let the coordinator solve it
        position = coordinator.locate(measurements);
      }
    }
    return new Result(position, out.sent(), measurements.size(), out.timeouts(), byKey, measurements, out.stopNanos());
  }
}
