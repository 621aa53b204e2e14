package dev.reed.coordinator.api;

import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.v1.GetOrderedServersRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ranks pages against the index a replica has just read, before it reports ready. The first
 * queries after a start run interpreted and touch the index's arrays for the first time; a load
 * balancer that hands a fresh replica its share at once would see those as the query tail. So the
 * replica ranks {@code queries} pages itself first (GetOrderedServers' own path, in the compact form
 * the SDK asks for, pages of 230 and 20, clients at the positions of servers drawn from the index:
 * players are near servers), for at most {@code budget}: a slow machine becomes ready late, never
 * not at all.
 */
public final class IndexWarmup {
  private static final Logger log = LoggerFactory.getLogger(IndexWarmup.class);

  /** Pages ranked by default: a few thousand, so that the ranking path runs compiled when clients come. */
  public static final int DEFAULT_QUERIES = 3_000;
  /** The most a warm-up takes by default, whatever the machine. */
  public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(10);
  /** The clock is read once per this many pages. */
  private static final int CHECK_EVERY = 64;

  /**
   * What a warm-up did.
   *
   * @param servers the index's size it ranked against
   * @param queries pages ranked
   * @param took how long it took
   * @param complete whether all pages were ranked within the budget
   */
  public record Result(int servers, int queries, Duration took, boolean complete) {}

  private final ReedServiceImpl service;
  private final Supplier<ServingState> state;
  private final Clock clock;
  private final int queries;
  private final Duration budget;

  public IndexWarmup(ReedServiceImpl service, Supplier<ServingState> state, Clock clock, int queries, Duration budget) {
    if (queries < 0) throw new IllegalArgumentException("warm-up queries must be >= 0: " + queries);
    if (budget.isNegative()) throw new IllegalArgumentException("warm-up budget must not be negative: " + budget);
    this.service = service;
    this.state = state;
    this.clock = clock;
    this.queries = queries;
    this.budget = budget;
  }

  /** Ranks the pages; a request the index refuses ends the warm-up early (logged), as the budget does. */
  public Result run() {
    Instant start = clock.instant();
    ServingState s = state.get();
    int n = s.index().size();
    SplittableRandom random = new SplittableRandom(0x5eedL);
    int done = 0;
    while (n > 0 && done < queries) {
      if (done % CHECK_EVERY == 0 && Duration.between(start, clock.instant()).compareTo(budget) >= 0) break;
      GetOrderedServersRequest req = GetOrderedServersRequest.newBuilder()
          .setClient(CoordinateCodec.toProto(s.index().entry(random.nextInt(n)).coordinate()))
          .setPageSize(done % 2 == 0 ? 230 : 20).setCompactLandmarkRtts(true).build();
      try {
        service.orderedPage(req);
      } catch (RuntimeException e) {
        log.warn("index warm-up stopped after {} queries: {}", done, e.toString());
        break;
      }
      done++;
    }
    return new Result(n, done, Duration.between(start, clock.instant()), done == queries || n == 0);
  }
}
