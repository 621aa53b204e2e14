package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DelayErrorTest {
  @Test
  void percentilesOfUnsortedErrorsLeaveTheInputAlone() {
    double[] errors = new double[1000];
    for (int i = 0; i < errors.length; i++) errors[i] = i / 1000.0; // 0 .. 0.999 ms
    double[] shuffled = errors.clone();
    SplittableRandom rng = new SplittableRandom(3);
    for (int i = shuffled.length - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      double t = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = t;
    }
    double[] copy = shuffled.clone();
    DelayError d = DelayError.of(shuffled);
    assertThat(shuffled).containsExactly(copy);
    assertThat(d.probes()).isEqualTo(1000);
    assertThat(d.p50Ms()).isCloseTo(0.4995, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(d.p99Ms()).isCloseTo(0.98901, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(d.maxMs()).isEqualTo(0.999);
  }

  @Test
  void oneLateReplyIsTheMaximumNotTheP99() {
    double[] errors = new double[200];
    java.util.Arrays.fill(errors, 0.1);
    errors[57] = 35.0;
    DelayError d = DelayError.of(errors);
    assertThat(d.p99Ms()).isLessThan(1.0);
    assertThat(d.maxMs()).isEqualTo(35.0);
  }

  @Test
  void nothingComparedIsNaNAndNonFiniteIsRejected() {
    assertThat(DelayError.of(new double[0])).isEqualTo(DelayError.NONE);
    assertThat(DelayError.NONE.p99Ms()).isNaN();
    assertThatThrownBy(() -> DelayError.of(new double[] {0.1, Double.NaN})).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("finite");
  }
}
