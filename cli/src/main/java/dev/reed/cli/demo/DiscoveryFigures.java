package dev.reed.cli.demo;

import dev.reed.client.DiscoveredServer;
import dev.reed.client.DiscoveryEvent;
import dev.reed.client.DiscoveryResult;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.Stats;
import dev.reed.coordinates.autostop.AutoStopPolicy;
import dev.reed.proto.Endpoints;
import dev.reed.testbed.emulated.EmulatedServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns what a demo client measured into a table row ({@link MethodFigures}), scored against the
 * world: the optimum, the true nearest found, and the time at the paper's 140 probes/s.
 */
final class DiscoveryFigures {
  private final DemoEnvironment env;
  private final int nClose;

  DiscoveryFigures(DemoEnvironment env, int nClose) {
    this.env = env;
    this.nClose = nClose;
  }

  int nClose() {
    return nClose;
  }

  /** The world's optimum from {@code client}: its N_close nearest servers. */
  ClientOptimum optimum(DemoWorld.Site client) {
    DemoWorld world = env.world();
    double[] optimal = world.optimal(client, nClose);
    List<EmulatedServer> all = new ArrayList<>(env.servers());
    all.removeIf(s -> Double.isNaN(world.world().rttMs(client.host(), s.host())));
    all.sort(Comparator.comparingDouble(s -> world.world().rttMs(client.host(), s.host())));
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < Math.min(nClose, all.size()); i++) keys.add(Endpoints.key(all.get(i).address()));
    return new ClientOptimum(optimal[0], optimal[1], keys);
  }

  /** (probe index, measured RTT, predicted RTT, the world's true RTT) of a reply into {@code points}. */
  void collect(DemoWorld.Site client, DiscoveryEvent e, List<double[]> points) {
    if (e instanceof DiscoveryEvent.ServerFound f) {
      Integer host = env.host(f.server().key());
      double truth = host == null ? Double.NaN : env.world().world().rttMs(client.host(), host);
      points.add(new double[] {f.server().probeIndex(), f.server().rttMs(), f.server().predictedMs(), truth});
    }
  }

  /** The row of a discovery the SDK ran. */
  MethodFigures of(DemoWorld.Site client, String method, DiscoveryResult r, double rate, ClientOptimum optimum,
      List<double[]> points) {
    List<DiscoveredServer> closest = r.closest(nClose);
    double[] rtt = closest.stream().mapToDouble(DiscoveredServer::rttMs).toArray();
    double mean = Arrays.stream(rtt).average().orElse(Double.NaN);
    double median = Stats.median(rtt);
    int nearestFound = (int) r.servers().stream().filter(s -> optimum.nearest().contains(s.key())).count();
    double wall = r.seconds();
    double positionError = Double.NaN;
    double[] position = null;
    if (r.position() != null) {
      positionError = r.position().relativeError();
      Coordinate c = r.position().coordinate();
      position = Arrays.copyOf(c.components(), c.dimensions() + 1);
      position[c.dimensions()] = c.height();
    }
    return row(client, method, r.probes(), r.calibrationProbes(), r.timeouts(), r.servers().size(), wall, rate, mean, median,
        optimum, nearestFound, positionError, position, r.stopReason().name().toLowerCase(Locale.ROOT), points);
  }

  /**
   * The row of a stop rule replayed on replies to a list probed in its order, as the SDK applies
   * them ({@link GeoDistanceOrder#replay}): probes in flight when the rule stops are counted.
   */
  MethodFigures replayed(DemoWorld.Site client, String method, AutoStopPolicy policy, List<EmulatedServer> list,
      double[] predicted, List<GeoDistanceOrder.Outcome> arrivals, double rate, ClientOptimum optimum) {
    GeoDistanceOrder.Stop stop = GeoDistanceOrder.replay(List.copyOf(arrivals), list.size(), policy);
    double[] rtt = stop.found().stream().mapToDouble(GeoDistanceOrder.Outcome::rttMs).sorted().toArray();
    int k = Math.min(nClose, rtt.length);
    double mean = k == 0 ? Double.NaN : Arrays.stream(rtt, 0, k).average().orElse(Double.NaN);
    double median = k == 0 ? Double.NaN : Stats.median(rtt, k);
    int nearestFound = 0;
    List<double[]> points = new ArrayList<>();
    for (GeoDistanceOrder.Outcome o : stop.found()) {
      EmulatedServer s = list.get(o.index());
      if (optimum.nearest().contains(Endpoints.key(s.address()))) nearestFound++;
      points.add(new double[] {o.index(), o.rttMs(), predicted[o.index()], env.world().world().rttMs(client.host(), s.host())});
    }
    return row(client, method, stop.probes(), 0, stop.timeouts(), stop.found().size(), stop.seconds(), rate, mean, median,
        optimum, nearestFound, Double.NaN, null, stop.reason(), points);
  }

  private MethodFigures row(DemoWorld.Site client, String method, int probes, int calibration, int timeouts, int found,
      double wall, double rate, double mean, double median, ClientOptimum optimum, int nearestFound, double positionError,
      double[] position, String stopReason, List<double[]> points) {
    boolean rescaled = rate != DemoOptions.PAPER_RATE;
    // sending at 140/s takes probes/140 s; the wait for the last replies after the last send is as measured
    double at140 = rescaled ? probes / DemoOptions.PAPER_RATE + Math.max(0, wall - probes / rate) : wall;
    return new MethodFigures(client, env.world().address(client).getHostAddress(), method, probes, calibration, timeouts, found,
        at140, rescaled, wall, rate, mean, median, optimum.meanMs(), optimum.medianMs(), nearestFound, positionError, position,
        stopReason, List.copyOf(points));
  }
}
