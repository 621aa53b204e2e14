package dev.reed.cli.demo;

import dev.reed.client.DiscoveryEvent;
import dev.reed.client.DiscoveryRequest;
import dev.reed.client.Filter;
import dev.reed.client.ListedServer;
import dev.reed.client.PredictedServer;
import dev.reed.client.ReedClient;
import dev.reed.client.ReedClientException;
import dev.reed.client.ServerListSource;
import dev.reed.client.StopRule;
import dev.reed.coordinates.autostop.AutoStopPolicy;
import dev.reed.coordinates.geo.Place;
import dev.reed.proto.Endpoints;
import dev.reed.testbed.emulated.EmulatedServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A server list in a given order, no calibration: the start of it probed for real through the
 * SDK's list discovery from the client's address at the REED rows' rate; First and Intelligent
 * N_close are then replayed on the replies in probe order, as the SDK applies them. The orders:
 * {@link #geoDistance} (great-circle distance from the client's location) and {@link #zeroProbe}
 * (the coordinator's ranking from the client's stated location).
 */
final class OrderedListMethod implements DiscoveryMethod {
  /**
   * The nearest 10 x N_close of the order are probed: enough for either stop rule to decide in
   * the synthetic world, 3 s at 140 probes/s instead of the whole list.
   */
  static final int LIST_PER_N_CLOSE = 10;

  /**
   * The rules decide after 100-140 probes of those 400 in the synthetic world: a first pass probes
   * the first {@value #FIRST_PASS_PER_N_CLOSE} x N_close, and the whole list is probed (again, from
   * its start) only when a rule had not decided with probes of the pass still to send. A decision
   * replayed on the pass is the one the whole list gives: up to it, the same probes went out.
   */
  static final int FIRST_PASS_PER_N_CLOSE = 5;

  /** Where an order comes from: the servers in order with their predicted RTT (NaN: none), or null and a reason. */
  interface Order {
    Ordered order(DemoWorld.Site client);
  }

  /** An order's list, or why there is none. */
  record Ordered(List<EmulatedServer> servers, double[] predictedMs, String unavailable) {
    static Ordered none(String why) {
      return new Ordered(List.of(), new double[0], why);
    }
  }

  private final DemoEnvironment env;
  private final DiscoveryFigures figures;
  private final Progress progress;
  private final double rate;
  private final String name;
  private final String prefix;
  private final Order order;

  private OrderedListMethod(DemoEnvironment env, DiscoveryFigures figures, Progress progress, double rate, String name, String prefix,
      Order order) {
    this.env = env;
    this.figures = figures;
    this.progress = progress;
    this.rate = rate;
    this.name = name;
    this.prefix = prefix;
    this.order = order;
  }

  /** The "geo distance" rows: the servers nearest the client's location by great-circle distance, in that order. */
  static OrderedListMethod geoDistance(DemoEnvironment env, DiscoveryFigures figures, Progress progress, double rate) {
    int size = LIST_PER_N_CLOSE * figures.nClose();
    return new OrderedListMethod(env, figures, progress, rate, "geo distance, no calibration", "geo", client -> {
      DemoWorld world = env.world();
      Place from = world.location(client.host());
      List<EmulatedServer> ordered = GeoDistanceOrder.byDistance(from, env.servers(), s -> world.location(s.host()));
      List<EmulatedServer> list = List.copyOf(ordered.subList(0, Math.min(ordered.size(), size)));
      double[] predicted = new double[list.size()];
      Arrays.fill(predicted, Double.NaN);
      return new Ordered(list, predicted, null);
    });
  }

  /**
   * The "reed 0-probe" rows: the coordinator's ranking from the client's stated location alone
   * ({@code ReedClient.rankByLocation}, one call).
   */
  static OrderedListMethod zeroProbe(DemoEnvironment env, DiscoveryFigures figures, Progress progress, double rate) {
    int size = Math.min(5000, LIST_PER_N_CLOSE * figures.nClose());
    return new OrderedListMethod(env, figures, progress, rate, "zero-probe ranking (the coordinator's, from the stated location)",
        "zero", client -> {
          Map<String, EmulatedServer> byKey = new HashMap<>();
          for (EmulatedServer s : env.servers()) byKey.put(Endpoints.key(s.address()), s);
          List<PredictedServer> ranked;
          try (ReedClient c = env.client(client, rate).build()) {
            ranked = c.rankByLocation(Filter.none(), size);
          } catch (ReedClientException e) {
            return Ordered.none(e.getMessage());
          }
          List<EmulatedServer> list = new ArrayList<>();
          List<Double> predicted = new ArrayList<>();
          for (PredictedServer p : ranked) {
            EmulatedServer s = byKey.get(Endpoints.key(p.address()));
            if (s == null) continue;   // a landmark's beacon or a server the demo does not know: not a game server here
            list.add(s);
            predicted.add(p.predictedMs());
          }
          return new Ordered(list, predicted.stream().mapToDouble(Double::doubleValue).toArray(), null);
        });
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<MethodFigures> discover(DemoWorld.Site client, ClientOptimum optimum) {
    Ordered o = order.order(client);
    if (o.unavailable() != null) {
      progress.line("  %s %s unavailable: %s", client.id(), name, o.unavailable());
      return List.of();
    }
    int n = figures.nClose();
    StopRule.IntelligentClose rule = StopRule.intelligent(n, env.model());
    List<Supplier<AutoStopPolicy>> rules = List.of(() -> AutoStopPolicy.firstNClose(n),
        () -> AutoStopPolicy.intelligentNClose(rule.nClose(), rule.window(), rule.marginMs()));
    int pass = Math.min(o.servers().size(), FIRST_PASS_PER_N_CLOSE * n);
    List<EmulatedServer> list = o.servers().subList(0, pass);
    List<GeoDistanceOrder.Outcome> firstPass = probe(client, list);
    List<GeoDistanceOrder.Outcome> arrivals = firstPass;
    if (pass < o.servers().size() && !rules.stream().allMatch(r -> decidedWithin(firstPass, pass, r.get()))) {
      list = o.servers();
      arrivals = probe(client, list);
    }
    double[] predicted = Arrays.copyOf(o.predictedMs(), list.size());
    return List.of(
        figures.replayed(client, prefix + "-first", rules.get(0).get(), list, predicted, arrivals, rate, optimum),
        figures.replayed(client, prefix + "-intelligent", rules.get(1).get(), list, predicted, arrivals, rate, optimum));
  }

  /** True when {@code policy} stops on the replies to a list of {@code size} before all of it was sent. */
  private static boolean decidedWithin(List<GeoDistanceOrder.Outcome> arrivals, int size, AutoStopPolicy policy) {
    GeoDistanceOrder.Stop stop = GeoDistanceOrder.replay(arrivals, size, policy);
    return stop.reason().equals("stop_rule") && stop.probes() < size;
  }

  /** Probes {@code list} in its order through the SDK's list discovery; every probe's outcome, in arrival order. */
  private List<GeoDistanceOrder.Outcome> probe(DemoWorld.Site client, List<EmulatedServer> list) {
    Map<String, Integer> indexByKey = new HashMap<>();
    List<ListedServer> listed = new ArrayList<>();
    for (EmulatedServer s : list) {
      indexByKey.put(Endpoints.key(s.address()), listed.size());
      listed.add(new ListedServer(s.address(), s.protocol()));
    }
    List<GeoDistanceOrder.Outcome> arrivals = Collections.synchronizedList(new ArrayList<>());
    Set<Integer> seen = Collections.synchronizedSet(new HashSet<>());
    long t0 = System.nanoTime();
    try (ReedClient c = env.client(client, rate).traditionalList(ServerListSource.of(listed)).build()) {
      c.discoverTraditional(DiscoveryRequest.defaults().withMaxDuration(Duration.ofMinutes(2)), e -> {
        Integer index = null;
        double rtt = Double.NaN;
        int sent = 0;
        if (e instanceof DiscoveryEvent.ServerFound f) {
          index = indexByKey.get(f.server().key());
          rtt = f.server().rttMs();
          sent = f.probesSent();
        } else if (e instanceof DiscoveryEvent.NoReply n) {
          index = indexByKey.get(Endpoints.key(n.address()));
          sent = n.probesSent();
        }
        if (index != null && seen.add(index)) {
          arrivals.add(new GeoDistanceOrder.Outcome(index, rtt, sent, (System.nanoTime() - t0) / 1e9));
        }
      });
    }
    return List.copyOf(arrivals);
  }
}
