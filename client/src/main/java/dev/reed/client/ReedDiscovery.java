package dev.reed.client;

import dev.reed.coordinates.Coordinate;
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
 * REED discovery (Algorithms 3 and 4 with auto-stop) and the traditional baseline, on one
 * coordinator connection and one prober. Stateless between calls.
 */
final class ReedDiscovery {
  private static final int MAX_LIST = 1_000_000;

  private final CoordinatorClient coordinator;
  private final Supplier<Prober> prober;
  private final double rate;
  private final int calibrationCount;
  private final NearCalibration nearCalibration;
  private final Positioning positioning;
  private final ServerListSource traditionalList;
  private final Duration listDeadline;
  private final long listSeed;
  private final Ticker ticker;
  private final Duration positionMaxAge;
  private Calibration.Result lastCalibration; // for positionMaxAge
  private long lastCalibrationNanos;

  ReedDiscovery(CoordinatorClient coordinator, Supplier<Prober> prober, double rate, int calibrationCount,
      NearCalibration nearCalibration, Positioning positioning, ServerListSource traditionalList, Duration listDeadline,
      long listSeed, Ticker ticker, Duration positionMaxAge) {
    this.coordinator = coordinator;
    this.prober = prober;
    this.rate = rate;
    this.calibrationCount = calibrationCount;
    this.nearCalibration = nearCalibration;
    this.positioning = positioning;
    this.traditionalList = traditionalList;
    this.listDeadline = listDeadline;
    this.listSeed = listSeed;
    this.ticker = ticker;
    this.positionMaxAge = positionMaxAge;
  }

  /** Calibrates and positions the client only. */
  ClientPosition locate(Duration maxDuration) {
    return calibrate(ticker.nanos(), maxDuration).position();
  }

  /**
   * Algorithm 3, or the last calibration if it is younger than positionMaxAge (its position and
   * beacon RTTs only: its RTTs are not reused as list measurements, they are old).
   */
  private Calibration.Result calibrate(long start, Duration maxDuration) {
    if (lastCalibration != null && start - lastCalibrationNanos < positionMaxAge.toNanos()) {
      Calibration.Result c = lastCalibration;
      return new Calibration.Result(c.position(), 0, 0, 0, Map.of(), c.measurements(), start, c.landmarks());
    }
    Calibration.Result cal = Calibration.run(coordinator, calibrationCount, nearCalibration, positioning,
        () -> new ProbeLoop(prober.get(), rate, ticker, new EventSink(DiscoveryListener.NONE), start, maxDuration, 0,
            ReplyFilter.NONE), ticker);
    lastCalibration = cal;
    lastCalibrationNanos = start;
    return cal;
  }

  DiscoveryResult reed(DiscoveryRequest request, DiscoveryListener listener) {
    long start = ticker.nanos();
    EventSink events = new EventSink(listener);
    Calibration.Result cal = calibrate(start, request.maxDuration());
    events.emit(new DiscoveryEvent.Positioned(cal.position(), cal.replies(), false,
        Duration.ofNanos(ticker.nanos() - start)));

    Filter filter = request.filter();
    if (request.stop() instanceof StopRule.RttLimit l) {
      double limit = Math.min(998.999, l.limitMs() + l.deltaMs());
      if (filter.rttLimitMs() == 0 || filter.rttLimitMs() > limit) filter = filter.withRttLimitMs(limit);
    }
    ProbeLoop loop = new ProbeLoop(prober.get(), rate, ticker, events, start, request.maxDuration(), cal.probesSent(),
        new ReplyFilter(request.filter()));
    OrderedFeed feed = new OrderedFeed(coordinator, cal.position().coordinate(), filter, request.pageSize(), loop::post, events,
        cal.landmarks());
    StopCondition stop = StopConditions.of(request.stop());
    Repositioner repositioner = null;
    if (request.reposition()) {
      repositioner = new Repositioner(stop, request.repositionEvery(), coordinator, cal.measurements(), cal.position(),
          feed, events, ticker, start);
      stop = repositioner;
    }
    ProbeLoop.Outcome out = loop.run(feed, stop, cal.measured());
    int probes = cal.probesSent() + out.sent();
    Duration elapsed = Duration.ofNanos(out.stopNanos() - start);
    events.emit(new DiscoveryEvent.Stopped(out.reason(), probes, elapsed));
    return new DiscoveryResult(DiscoveryResult.Method.REED, probes, cal.probesSent() + out.needed(), cal.probesSent(),
        cal.timeouts() + out.timeouts(),
        elapsed, out.found(), out.reason(), repositioner == null ? cal.position() : repositioner.position(),
        out.failure() == null ? null : out.failure().getMessage());
  }

  /**
   * Traditional discovery: the whole list, probed in list order until it is exhausted; the
   * request's filter is applied to the replies (a master list is not filtered).
   *
   * @param coordinatorFailure non-null when this runs because REED discovery failed
   */
  DiscoveryResult traditional(DiscoveryRequest request, DiscoveryListener listener, String coordinatorFailure) {
    long start = ticker.nanos();
    EventSink events = new EventSink(listener);
    List<ListedServer> list = traditionalList != null ? traditionalList.fetch(listDeadline) : coordinatorList(request.filter());
    events.emit(new DiscoveryEvent.Listed(list.size(), list.size()));
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
      CoordinatorClient.Page page = coordinator.orderedPage(origin, filter.withRttLimitMs(0), 5000, token);
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
