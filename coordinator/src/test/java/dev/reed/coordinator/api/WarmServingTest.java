package dev.reed.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.index.read.ServingState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Readiness waits for the warm-up: SERVING is reported only after the ranking queries ran against
 * the index (each one reads the serving state, which is how this test counts them), the warm-up
 * runs once, and its time budget bounds it on a slow machine (a clock that advances as it is read).
 */
class WarmServingTest {

  private static final ServingState WORLD = GrpcLoadGenerator.world(2_000, 4);

  /** The world's state, counting the reads: one per ranked page, plus the warm-up's own. */
  private static Supplier<ServingState> counting(ServingState state, AtomicInteger reads) {
    return () -> {
      reads.incrementAndGet();
      return state;
    };
  }

  private static ReedServiceImpl service(Supplier<ServingState> state) {
    return new ReedServiceImpl(ReedServiceImpl.Dependencies.of(state, new CoordinateConfig(4, true), Clock.systemUTC()));
  }

  @Test
  void servingIsReportedOnlyAfterTheWarmUpRanThenNotWarmedAgain() {
    AtomicInteger reads = new AtomicInteger();
    Supplier<ServingState> state = counting(WORLD, reads);
    Clock frozen = Clock.fixed(Instant.parse("2026-11-29T00:00:00Z"), ZoneOffset.UTC);
    List<Integer> readsWhenServing = new ArrayList<>();
    WarmServing ready = new WarmServing(new IndexWarmup(service(state), state, frozen, 500, Duration.ofSeconds(10)),
        serving -> {
          assertThat(serving).isTrue();
          readsWhenServing.add(reads.get());
        });
    assertThat(ready.warmed()).isFalse();
    assertThat(ready.result()).isNull();

    ready.indexReady();
    assertThat(readsWhenServing).as("SERVING after all 500 pages were ranked").containsExactly(501);
    assertThat(ready.warmed()).isTrue();
    assertThat(ready.result()).isEqualTo(new IndexWarmup.Result(2_000, 500, Duration.ZERO, true));

    ready.indexReady(); // a later rebuild: reported again, not warmed again
    assertThat(readsWhenServing).containsExactly(501, 501);
  }

  @Test
  void theBudgetBoundsTheWarmUp() {
    AtomicInteger reads = new AtomicInteger();
    Supplier<ServingState> state = counting(WORLD, reads);
    IndexWarmup.Result r = new IndexWarmup(service(state), state, new Ticking(Duration.ofMillis(1)), 1_000_000,
        Duration.ofMillis(5)).run();
    assertThat(r.complete()).isFalse();
    // the clock is read at the start and before every 64 pages, 1 ms later each time: the fifth
    // check finds the 5 ms spent, after four batches
    assertThat(r.queries()).isEqualTo(4 * 64);
    assertThat(reads.get()).isEqualTo(1 + 4 * 64);
  }

  @Test
  void anEmptyIndexIsReadyAtOnce() {
    ServingState empty = ServingState.empty(4, true, Instant.EPOCH);
    AtomicInteger served = new AtomicInteger();
    WarmServing ready = new WarmServing(new IndexWarmup(service(() -> empty), () -> empty, Clock.systemUTC(),
        IndexWarmup.DEFAULT_QUERIES, IndexWarmup.DEFAULT_BUDGET), serving -> served.incrementAndGet());
    ready.indexReady();
    assertThat(served.get()).isEqualTo(1);
    assertThat(ready.result().queries()).isZero();
    assertThat(ready.result().complete()).isTrue();
  }

  /** A clock that advances {@code step} every time it is read. */
  private static final class Ticking extends Clock {
    private final Duration step;
    private Instant now = Instant.parse("2026-11-29T00:00:00Z");

    Ticking(Duration step) {
      this.step = step;
    }

    @Override
    public Instant instant() {
      Instant t = now;
      now = now.plus(step);
      return t;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
