package dev.reed.client;

import dev.reed.probe.NanoTicker;

import dev.reed.coordinates.discovery.PageRequest;
import dev.reed.coordinates.discovery.ProbeOrder;
import dev.reed.coordinates.discovery.RankedCandidate;
import dev.reed.probe.ProbeResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The discovery policy's {@link ProbeOrder} as a {@link CandidateFeed}: the pages it asks for are
 * GetOrderedServers calls (each deadline-bound, so a coordinator that stalls mid-list is noticed
 * within one deadline rather than holding a stream open), fetched in the background while probing
 * goes on; every probe outcome goes back to the order, which learns from it.
 *
 * <p>Paged calls rather than StreamOrderedServers: the stream's deadline would have to cover the
 * whole discovery (minutes when exhaustive), and the page cursor makes asking again from a new
 * position trivial.
 */
final class OrderedFeed implements CandidateFeed {
  private final CoordinatorClient coordinator;
  private final Filter filter;
  private final int pageSize;
  private final Consumer<Runnable> post;
  private final EventSink events;
  private final ProbeOrder order;
  private final Map<String, Candidate> byKey = new HashMap<>();
  private final long startNanos;
  private final NanoTicker ticker;
  private ReedClientException failure;
  private int restarts;

  /** Fetches the first page synchronously, so a coordinator problem surfaces before any probe. */
  OrderedFeed(CoordinatorClient coordinator, ProbeOrder order, Filter filter, int pageSize, Consumer<Runnable> post,
      EventSink events, NanoTicker ticker, long startNanos) {
    this.coordinator = coordinator;
    this.order = order;
    this.filter = filter;
    this.pageSize = pageSize;
    this.post = post;
    this.events = events;
    this.ticker = ticker;
    this.startNanos = startNanos;
    PageRequest first = order.pageRequest();
    if (first != null) accept(first, coordinator.orderedPage(first, filter, pageSize));
  }

  private void accept(PageRequest request, CoordinatorClient.Page page) {
    List<RankedCandidate> ranked = new ArrayList<>(page.servers().size());
    for (Candidate c : page.servers()) {
      byKey.putIfAbsent(c.key(), c);
      ranked.add(c.ranked());
    }
    order.pageArrived(request, ranked, page.nextToken());
    events.emit(new DiscoveryEvent.Listed(page.servers().size(), page.totalMatching()));
  }

  @Override
  public Candidate next() {
    if (failure == null) fetch();
    ProbeOrder.Pick pick = order.next();
    if (pick == null) return null;
    Candidate c = byKey.get(pick.candidate().key());
    return c.withPredictedMs(pick.predictedMs());
  }

  @Override
  public void completed(Candidate candidate, ProbeResult result) {
    if (result.ok()) {
      order.replied(candidate.key(), result.rttNanos() / 1e6);
    } else {
      order.noReply(candidate.key());
    }
  }

  private void fetch() {
    PageRequest request = order.pageRequest();
    if (request == null) return;
    if (request.generation() > restarts) {
      restarts = request.generation();
      events.emit(new DiscoveryEvent.Positioned(new ClientPosition(order.position(), Double.NaN, order.answers(),
          ClientPosition.Source.LOCAL), order.answers(), true, java.time.Duration.ofNanos(ticker.read() - startNanos)));
    }
    coordinator.orderedPageAsync(request, filter, pageSize).whenComplete((page, ex) -> post.accept(() -> {
      if (ex != null) {
        order.pageFailed(request);
        failure = ex instanceof ReedClientException r ? r
            : new ReedClientException(ReedClientException.Kind.COORDINATOR_BAD_RESPONSE, ex.toString(), ex);
      } else {
        accept(request, page);
      }
    }));
  }

  /** The client's position as the order has re-fitted it. */
  ClientPosition position(ClientPosition calibrated) {
    return order.answers() == 0 ? calibrated
        : new ClientPosition(order.position(), Double.NaN, calibrated.anchorsUsed() + order.answers(), ClientPosition.Source.LOCAL);
  }

  @Override
  public boolean exhausted() {
    return order.exhausted();
  }

  @Override
  public ReedClientException failure() {
    return order.waiting() == 0 ? failure : null; // probe what we already have before giving up
  }
}
