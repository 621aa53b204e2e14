package dev.reed.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TokenBucketTest {
  @Test
  void releasesExactlyTheRateOverAWindow() {
    long now = 1_000;
    TokenBucket b = new TokenBucket(1000, 5, now);
    int taken = 0;
    // one simulated second in 10 µs steps, taking whenever allowed
    for (long t = now; t < now + 1_000_000_000L; t += 10_000) {
      while (b.tryTake(t) == 0) {
        taken++;
      }
    }
    assertThat(taken).isBetween(999, 1001);
  }

  @Test
  void burstIsCappedAfterIdleTime() {
    TokenBucket b = new TokenBucket(100, 3, 0);
    long later = 60_000_000_000L;
    int taken = 0;
    while (b.tryTake(later) == 0) {
      taken++;
    }
    assertThat(taken).isEqualTo(3);
    long wait = b.tryTake(later);
    assertThat(wait).isBetween(9_000_000L, 10_000_000L);
    assertThat(b.tryTake(later + wait)).isZero();
  }

  @Test
  void rejectsNonsense() {
    assertThatThrownBy(() -> new TokenBucket(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TokenBucket(Double.NaN, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TokenBucket(10, 0.5, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
