package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Algorithm 4's ordered list as a {@link CandidateFeed}: pages of GetOrderedServers (each a
 * deadline-bound call, so a coordinator that stalls mid-list is noticed within one deadline
 * rather than holding a stream open), the next page fetched in the background while the current
 * one is probed. {@link #restart} asks again from a new client position (re-positioning); pages
 * of the old position that arrive late are dropped.
 *
 * <p>Within what has been fetched, servers are probed by {@link LandmarkOrder}'s score: the
 * prediction kept within the landmark bounds plus half the near-landmark difference (the
 * coordinator's order when there are no landmark RTTs). A server on the next page can only
 * overtake once that page has arrived; pages are prefetched when a quarter of one is left.
 *
 * <p>Paged calls rather than StreamOrderedServers: the stream's deadline would have to cover the
 * whole discovery (minutes when exhaustive), and the page cursor makes restarting trivial.
 */
final class OrderedFeed implements CandidateFeed {
  private final CoordinatorClient coordinator;
  private final Filter filter;
  private final int pageSize;
  private final Consumer<Runnable> post;
  private final EventSink events;
  private final LandmarkOrder order;
  private final PriorityQueue<Queued> queue = new PriorityQueue<>();
  private long arrivals;
  private Coordinate client;
  private String token = "";
  private boolean more = true;
  private boolean fetching;
  private int generation;
  private ReedClientException failure;

  /** A fetched, unprobed server; ties keep the coordinator's order. */
  private record Queued(double score, long arrival, Candidate candidate) implements Comparable<Queued> {
    @Override
    public int compareTo(Queued o) {
      int c = Double.compare(score, o.score);
      return c != 0 ? c : Long.compare(arrival, o.arrival);
    }
  }

  /**
   * Fetches the first page synchronously, so a coordinator problem surfaces before any probe.
   *
   * @param order scores fetched servers by the client's landmark comparison (probe order within
   *     what has been fetched); {@link LandmarkOrder#NONE} keeps the coordinator's order
   */
  OrderedFeed(CoordinatorClient coordinator, Coordinate client, Filter filter, int pageSize, Consumer<Runnable> post,
      EventSink events, LandmarkOrder order) {
    this.order = order;
    this.coordinator = coordinator;
    this.filter = filter;
    this.pageSize = pageSize;
    this.post = post;
    this.events = events;
    this.client = client;
    accept(coordinator.orderedPage(client, filter, pageSize, ""));
  }

  /** Forgets the queue and asks again from a new position (already probed servers are skipped by the loop). */
  void restart(Coordinate newClient) {
    generation++;
    client = newClient;
    queue.clear();
    token = "";
    more = true;
    fetching = false;
    accept(coordinator.orderedPage(client, filter, pageSize, ""));
  }

  private void accept(CoordinatorClient.Page page) {
    for (Candidate c : page.servers()) {
      LandmarkOrder.Scored scored = order.score(c);
      queue.add(new Queued(scored.score(), arrivals++, scored.candidate()));
    }
    token = page.nextToken();
    more = !token.isEmpty();
    events.emit(new DiscoveryEvent.Listed(page.servers().size(), page.totalMatching()));
  }

  @Override
  public Candidate next() {
    if (queue.size() <= Math.max(1, pageSize / 4) && more && !fetching && failure == null) prefetch();
    Queued q = queue.poll();
    return q == null ? null : q.candidate();
  }

  private void prefetch() {
    fetching = true;
    int gen = generation;
    coordinator.orderedPageAsync(client, filter, pageSize, token).whenComplete((page, ex) -> post.accept(() -> {
      if (gen != generation) return;
      fetching = false;
      if (ex != null) {
        failure = ex instanceof ReedClientException r ? r
            : new ReedClientException(ReedClientException.Kind.COORDINATOR_BAD_RESPONSE, ex.toString(), ex);
        more = false;
      } else {
        accept(page);
      }
    }));
  }

  @Override
  public boolean exhausted() {
    return queue.isEmpty() && !more && !fetching;
  }

  @Override
  public ReedClientException failure() {
    return queue.isEmpty() ? failure : null; // probe what we already have before giving up
  }
}
