package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Algorithm 4's ordered list as a {@link CandidateFeed}: pages of GetOrderedServers (each a
 * deadline-bound call, so a coordinator that stalls mid-list is noticed within one deadline
 * rather than holding a stream open), the next page fetched in the background while the current
 * one is probed. {@link #restart} asks again from a new client position (re-positioning); pages
 * of the old position that arrive late are dropped.
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
  private final ArrayDeque<Candidate> queue = new ArrayDeque<>();
  private Coordinate client;
  private String token = "";
  private boolean more = true;
  private boolean fetching;
  private int generation;
  private ReedClientException failure;

  /** Fetches the first page synchronously, so a coordinator problem surfaces before any probe. */
  OrderedFeed(CoordinatorClient coordinator, Coordinate client, Filter filter, int pageSize, Consumer<Runnable> post,
      EventSink events) {
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
    queue.addAll(page.servers());
    token = page.nextToken();
    more = !token.isEmpty();
    events.emit(new DiscoveryEvent.Listed(page.servers().size(), page.totalMatching()));
  }

  @Override
  public Candidate next() {
    if (queue.size() <= Math.max(1, pageSize / 4) && more && !fetching && failure == null) prefetch();
    return queue.poll();
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
