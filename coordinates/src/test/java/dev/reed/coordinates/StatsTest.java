package dev.reed.coordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.junit.jupiter.api.Test;

class StatsTest {

  @Test
  void quantileInterpolatesBetweenClosestRanks() {
    double[] v = {1, 2, 3, 4};
    assertThat(Stats.quantile(v, 0)).isEqualTo(1);
    assertThat(Stats.quantile(v, 0.5)).isEqualTo(2.5);
    assertThat(Stats.quantile(v, 0.9)).isCloseTo(3.7, within(1e-12));
    assertThat(Stats.quantile(v, 1)).isEqualTo(4);
    assertThat(Stats.quantile(new double[] {7}, 0.99)).isEqualTo(7);
    assertThat(Stats.quantile(new double[0], 0.5)).isNaN();
    assertThatThrownBy(() -> Stats.quantile(v, 90)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void agreesWithCommonsMathR7AndTheMedian() {
    SplittableRandom rng = new SplittableRandom(14);
    Percentile r7 = new Percentile().withEstimationType(Percentile.EstimationType.R_7);
    for (int n = 1; n < 60; n++) {
      double[] v = rng.doubles(n, 0, 300).toArray();
      double[] sorted = v.clone();
      Arrays.sort(sorted);
      for (double q : new double[] {0.02, 0.1, 0.25, 0.5, 0.9, 0.99, 1}) {
        assertThat(Stats.quantile(sorted, q)).isCloseTo(r7.evaluate(v, q * 100), within(1e-9));
      }
      assertThat(Stats.median(v)).isCloseTo(Stats.quantile(sorted, 0.5), within(1e-12));
    }
  }

  @Test
  void quantileOfIgnoresNonFiniteValuesAndLeavesTheInputAlone() {
    double[] v = {Double.NaN, 5, 1, Double.POSITIVE_INFINITY, 3};
    assertThat(Stats.quantileOf(v, 0.5)).isEqualTo(3);
    assertThat(v).containsExactly(Double.NaN, 5, 1, Double.POSITIVE_INFINITY, 3);
    assertThat(Stats.quantileOf(new double[] {Double.NaN}, 0.5)).isNaN();
  }
}
