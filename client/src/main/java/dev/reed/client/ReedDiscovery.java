package dev.reed.client;

import dev.reed.proto.RttBound;
import dev.reed.probe.NanoTicker;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.discovery.PageRequest;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.coordinates.discovery.DiscoveryPolicy;
import dev.reed.coordinates.discovery.ProbeOrder;
import dev.reed.probe.Prober;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

/**
 * REED discovery and the traditional baseline, on one coordinator connection and one prober: the
 * discovery policy ({@link DiscoveryPolicy}: calibration, positioning, the probe order that learns
 * from every reply) driven over gRPC and UDP, stopped by the request's rule (section 4.3).
 * Stateless between calls but for the last calibration ({@code positionMaxAge}).
 */
final class ReedDiscovery {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ReedDiscovery.class);
  private static final int MAX_LIST = 1_000_000;

  private final CoordinatorClient coordinator;
  private final Supplier<Prober> prober;
  private final double rate;
  private final DiscoveryModel model;
  private final Positioning positioning;
  private final ServerListSource traditionalList;
  private final Duration listDeadline;
  private final long listSeed;
  private final NanoTicker ticker;
  private final Duration positionMaxAge;
  private final ClusterDiscovery clustering; // null: no databases, the fallback is traditional
  private final ReportSender reports; // null: the client does not report
  private CalibrationRun.Result lastCalibration; // for positionMaxAge
  private long lastCalibrationNanos;

  ReedDiscovery(CoordinatorClient coordinator, Supplier<Prober> prober, double rate, DiscoveryModel model,
      Positioning positioning, ServerListSource traditionalList, Duration listDeadline, long listSeed, NanoTicker ticker,
      Duration positionMaxAge, ClusterDiscovery clustering, ReportSender reports) {
    this.clustering = clustering;
    this.reports = reports;
    this.coordinator = coordinator;
    this.prober = prober;
    this.rate = rate;
    this.model = model;
    this.positioning = positioning;
    this.traditionalList = traditionalList;
    this.listDeadline = listDeadline;
    this.listSeed = listSeed;
    this.ticker = ticker;
    this.positionMaxAge = positionMaxAge;
  }

  /** Calibrates and positions the client only. */
  ClientPosition locate(Duration maxDuration) {
    return calibrate(ticker.read(), maxDuration).position();
  }

  /**
   * Algorithm 3, or the last calibration if it is younger than positionMaxAge (its position and
   * beacon RTTs only: its RTTs are not reused as list measurements, they are old).
   */
  private CalibrationRun.Result calibrate(long start, Duration maxDuration) {
    if (lastCalibration != null && start - lastCalibrationNanos < positionMaxAge.toNanos()) {
      CalibrationRun.Result c = lastCalibration;
      return new CalibrationRun.Result(c.position(), 0, 0, 0, Map.of(), c.measurements(), start, c.policy(), c.geometry(), List.of());
    }
    CalibrationRun.Result cal = CalibrationRun.run(coordinator, model, positioning,
        () -> new ProbeLoop(prober.get(), rate, ticker, new EventSink(DiscoveryListener.NONE), start, maxDuration, 0,
            ReplyFilter.NONE), ticker);
    lastCalibration = cal;
    lastCalibrationNanos = start;
    return cal;
  }

  DiscoveryResult reed(DiscoveryRequest request, DiscoveryListener listener) {
    long start = ticker.read();
    java.time.Instant startedAt = java.time.Instant.now();
    EventSink events = new EventSink(listener);
    CalibrationRun.Result cal = calibrate(start, request.maxDuration());
    events.emit(new DiscoveryEvent.Positioned(cal.position(), cal.replies(), false,
        Duration.ofNanos(ticker.read() - start)));

    Filter filter = request.filter();
    if (request.stop() instanceof StopRule.RttLimit l) {
      double limit = Math.min(RttBound.MAX_MS, l.limitMs() + l.deltaMs());
      if (filter.rttLimitMs() == 0 || filter.rttLimitMs() > limit) filter = filter.withRttLimitMs(limit);
    }
    ProbeLoop loop = new ProbeLoop(prober.get(), rate, ticker, events, start, request.maxDuration(), cal.probesSent(),
        new ReplyFilter(request.filter()));
    DiscoveryModel m = request.reposition() ? model : model.withLearning(false);
    ProbeOrder order = new DiscoveryPolicy(m, cal.geometry())
        .order(cal.policy(), cal.position().coordinate(), request.pageSize());
    if (cal.policy().location() != null) {
      var fix = cal.policy().location();
      log.info("location: {} at {},{}; calibration scatters {} ms around its predictions: {}",
          fix.moved() ? "moved by the coordinator" : "kept", String.format(java.util.Locale.ROOT, "%.2f", fix.place().lat()),
          String.format(java.util.Locale.ROOT, "%.2f", fix.place().lon()),
          String.format(java.util.Locale.ROOT, "%.1f", order.locationMisfitMs()),
          order.usesLocation() ? "fused with the coordinates" : "distrusted, ordering by coordinates alone");
    }
    OrderedFeed feed = new OrderedFeed(coordinator, order, filter, request.pageSize(), loop::post, events, ticker, start);
    ProbeLoop.Outcome out = loop.run(feed, StopConditions.of(request.stop()), cal.measured());
    int probes = cal.probesSent() + out.sent();
    Duration elapsed = Duration.ofNanos(out.stopNanos() - start);
    events.emit(new DiscoveryEvent.Stopped(out.reason(), probes, elapsed));
    DiscoveryResult result = new DiscoveryResult(DiscoveryResult.Method.REED, probes, cal.probesSent() + out.needed(),
        cal.probesSent(), cal.timeouts() + out.timeouts(),
        elapsed, out.found(), out.reason(), feed.position(cal.position()),
        out.failure() == null ? null : out.failure().getMessage());
    if (reports != null) {
      report(cal, out, cal.position(), startedAt);
    }
    return result;
  }

  /**
   * Hands what this discovery measured to the sender, which sends it in the background.
   * The position reported is the calibration's: the one the coordinator's predictions for the first
   * page were made from, so the ratio of each measured RTT to the prediction carries over to another
   * client near it (the re-fitted position has absorbed part of the very errors the report is about);
   * eval's {@code --reports} reports the same.
   */
  private void report(CalibrationRun.Result cal, ProbeLoop.Outcome out, ClientPosition position, java.time.Instant startedAt) {
    MeasurementReport r;
    try {
      r = MeasurementReport.of(cal, out, position.coordinate(), startedAt);
    } catch (RuntimeException e) { // never let a report break the discovery it describes
      log.warn("measurement report not built: {}", e.toString());
      return;
    }
    reports.send(r);
  }

  /**
   * Traditional discovery: the whole list, probed in list order until it is exhausted; the
   * request's filter is applied to the replies (a master list is not filtered).
   *
   * @param coordinatorFailure non-null when this runs because REED discovery failed
   */
  DiscoveryResult traditional(DiscoveryRequest request, DiscoveryListener listener, String coordinatorFailure) {
    long start = ticker.read();
    EventSink events = new EventSink(listener);
    List<ListedServer> list = traditionalList != null ? traditionalList.fetch(listDeadline) : coordinatorList(request.filter());
    events.emit(new DiscoveryEvent.Listed(list.size(), list.size()));
    return traditional(list, request, events, start, coordinatorFailure);
  }

  /**
   * Discovery from the own master list when the coordinator failed: Armitage's clustering when
   * the client has databases that label the list, else traditional discovery.
   */
  DiscoveryResult fallback(DiscoveryRequest request, DiscoveryListener listener, String coordinatorFailure) {
    long start = ticker.read();
    EventSink events = new EventSink(listener);
    Map<String, ListedServer> unique = new java.util.LinkedHashMap<>();
    for (ListedServer s : traditionalList.fetch(listDeadline)) unique.putIfAbsent(s.key(), s);
    List<ListedServer> list = List.copyOf(unique.values());
    events.emit(new DiscoveryEvent.Listed(list.size(), list.size()));
    ClusterDiscovery.Labels labels = clustering == null ? null : clustering.label(list);
    return labels == null ? traditional(list, request, events, start, coordinatorFailure)
        : clustering.run(list, labels, request, events, start, coordinatorFailure);
  }

  private DiscoveryResult traditional(List<ListedServer> list, DiscoveryRequest request, EventSink events, long start,
      String coordinatorFailure) {
    ProbeLoop loop = new ProbeLoop(prober.get(), rate, ticker, events, start, request.maxDuration(), 0,
        new ReplyFilter(request.filter()));
    ProbeLoop.Outcome out = loop.run(new ListFeed(list.stream().map(Candidate::of).toList()), StopCondition.NEVER, Map.of());
    Duration elapsed = Duration.ofNanos(out.stopNanos() - start);
    events.emit(new DiscoveryEvent.Stopped(out.reason(), out.sent(), elapsed));
    return new DiscoveryResult(coordinatorFailure == null ? DiscoveryResult.Method.TRADITIONAL : DiscoveryResult.Method.TRADITIONAL_FALLBACK,
        out.sent(), out.needed(), 0, out.timeouts(), elapsed, out.found(), out.reason(), null, coordinatorFailure);
  }

  boolean hasOwnTraditionalList() {
    return traditionalList != null;
  }

  /**
   * The coordinator's whole filtered list, in no useful order (seeded shuffle), as a master
   * server would give it: pages from the origin, then shuffled so the baseline does not profit
   * from any ordering.
   */
  private List<ListedServer> coordinatorList(Filter filter) {
    Coordinate origin = Coordinate.origin(coordinator.dimensions());
    Set<String> seen = new LinkedHashSet<>();
    List<ListedServer> all = new ArrayList<>();
    String token = "";
    do {
      CoordinatorClient.Page page = coordinator.orderedPage(new PageRequest(origin, token, 0, null, true), filter.withRttLimitMs(0), 5000);
      int added = 0;
      for (Candidate c : page.servers()) {
        if (seen.add(c.key())) {
          all.add(new ListedServer(c.address(), c.protocol()));
          added++;
        }
      }
      token = page.nextToken();
      if (added == 0) break; // a cursor that goes nowhere: stop rather than loop forever
    } while (!token.isEmpty() && all.size() < MAX_LIST);
    Collections.shuffle(all, new Random(listSeed));
    return List.copyOf(all);
  }
}
