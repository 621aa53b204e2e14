package dev.reed.client;

import dev.reed.probe.ProbeResult;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-positions the client as measured RTTs arrive and asks again from the new position: every
 * {@code every} new replies, the client's calibration RTTs plus the RTTs measured to listed
 * servers go to the coordinator's Locate RPC (the client cannot solve this locally: ranked
 * servers come without their coordinates), and the ordered list restarts from the new
 * coordinate, skipping servers already probed. A failing Locate switches re-positioning off for
 * the rest of the discovery; probing goes on from the last position.
 */
final class Repositioner implements StopCondition {
  private static final Logger log = LoggerFactory.getLogger(Repositioner.class);
  private static final int MAX_MEASUREMENTS = 256; // LocateRequest limit

  private final StopCondition inner;
  private final int every;
  private final CoordinatorClient coordinator;
  private final List<CoordinatorClient.Measurement> calibration;
  private final List<CoordinatorClient.Measurement> measured = new ArrayList<>();
  private final OrderedFeed feed;
  private final EventSink events;
  private final Ticker ticker;
  private final long startNanos;
  private ClientPosition position;
  private int sinceLast;
  private boolean enabled = true;

  Repositioner(StopCondition inner, int every, CoordinatorClient coordinator,
      List<CoordinatorClient.Measurement> calibration, ClientPosition start, OrderedFeed feed, EventSink events,
      Ticker ticker, long startNanos) {
    this.inner = inner;
    this.every = every;
    this.coordinator = coordinator;
    this.calibration = List.copyOf(calibration);
    this.position = start;
    this.feed = feed;
    this.events = events;
    this.ticker = ticker;
    this.startNanos = startNanos;
  }

  ClientPosition position() {
    return position;
  }

  @Override
  public boolean stopBefore(Candidate next) {
    return inner.stopBefore(next);
  }

  // the wrapped rule decides how it sees outcomes and when it gives up waiting: First N_close
  // must not wait in probe order for a silent server just because it re-positions
  @Override
  public boolean inProbeOrder() {
    return inner.inProbeOrder();
  }

  @Override
  public long stopAtNanos() {
    return inner.stopAtNanos();
  }

  @Override
  public boolean observe(Candidate c, ProbeResult r) {
    if (inner.observe(c, r)) return true;
    if (!r.ok() || !enabled) return false;
    measured.add(new CoordinatorClient.Measurement(c.address(), r.rttNanos() / 1e6));
    if (++sinceLast < every) return false;
    sinceLast = 0;
    List<CoordinatorClient.Measurement> all = new ArrayList<>(calibration);
    int room = MAX_MEASUREMENTS - all.size();
    all.addAll(measured.subList(Math.max(0, measured.size() - room), measured.size()));
    try {
      ClientPosition next = coordinator.locate(all);
      feed.restart(next.coordinate());
      position = next;
      events.emit(new DiscoveryEvent.Positioned(next, all.size(), true, java.time.Duration.ofNanos(ticker.nanos() - startNanos)));
    } catch (ReedClientException e) {
      enabled = false;
      log.warn("re-positioning switched off for this discovery: {}", e.getMessage());
    }
    return false;
  }
}
