package dev.reed.coordinates.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DistanceRttTest {

  /** y = 5 + 0.02 km with small symmetric noise and 20 % of pairs on a detour 100-300 ms longer. */
  private static double[][] withOutliers(int n) {
    SplittableRandom r = new SplittableRandom(3);
    double[] km = new double[n];
    double[] ms = new double[n];
    for (int i = 0; i < n; i++) {
      km[i] = r.nextDouble() * 10_000;
      ms[i] = 5 + 0.02 * km[i] + r.nextDouble(-1, 1) + (r.nextDouble() < 0.2 ? r.nextDouble(100, 300) : 0);
    }
    return new double[][] {km, ms};
  }

  @Test
  void leastAbsoluteDeviationsRecoversTheLineDespiteOutliers() {
    double[][] d = withOutliers(800);
    DistanceRtt fit = DistanceRtt.fit(d[0], d[1], 0.5, 0.01, 0.1);
    assertThat(fit.msPerKm()).isCloseTo(0.02, within(0.0005));
    assertThat(fit.interceptMs()).isCloseTo(5, within(2.0));
    assertThat(fit.ms(1000)).isCloseTo(25, within(2.0));
    // what least squares would have made of the same data: the outliers lift it far off
    double mean = 0;
    for (double v : d[1]) {
      mean += v / d[1].length;
    }
    assertThat(mean - (5 + 0.02 * 5000)).as("outliers move the mean").isGreaterThan(20);
  }

  @Test
  void theSlopeStaysAtThePhysicalFloor() {
    double[] km = {0, 1000, 2000, 3000};
    double[] ms = {10, 11, 12, 13}; // 1 ms per 1000 km: faster than light in fibre
    DistanceRtt fit = DistanceRtt.fit(km, ms, 0.5, 0.01, 0.1);
    assertThat(fit.msPerKm()).isCloseTo(0.01, within(1e-6));
    assertThat(fit.interceptMs()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void aLowQuantileFollowsTheFastPaths() {
    double[][] d = withOutliers(800);
    DistanceRtt median = DistanceRtt.fit(d[0], d[1], 0.5, 0.01, 0.1);
    DistanceRtt low = DistanceRtt.fit(d[0], d[1], 0.1, 0.01, 0.1);
    assertThat(low.ms(5000)).isLessThanOrEqualTo(median.ms(5000));
  }

  @Test
  void badInputIsRejected() {
    assertThatThrownBy(() -> DistanceRtt.fit(new double[] {1}, new double[] {1}, 0.5, 0.01, 0.1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2");
    assertThatThrownBy(() -> DistanceRtt.fit(new double[] {1, 2}, new double[] {1, Double.NaN}, 0.5, 0.01, 0.1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pair 1");
    assertThatThrownBy(() -> new LabelledPair(-1, 3, null, null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void regionPairsGetTheirOwnLineWhenTheyHaveEnoughPairs() {
    List<LabelledPair> pairs = new ArrayList<>();
    SplittableRandom r = new SplittableRandom(9);
    for (int i = 0; i < 200; i++) {
      double km = r.nextDouble() * 5000;
      pairs.add(new LabelledPair(km, 2 + 0.015 * km, "EU", "EU"));
      pairs.add(new LabelledPair(km, 10 + 0.03 * km, "AS", "EU")); // a detour-heavy pair
    }
    pairs.add(new LabelledPair(100, 500, "AF", "EU")); // too few to get a line
    EstimatorModel cfg = EstimatorModel.defaults();
    DistanceRttModel m = DistanceRttModel.fit(pairs, cfg);
    assertThat(m.byRegionPair()).containsOnlyKeys("EU|EU", "AS|EU");
    assertThat(m.ms(1000, "EU", "AS")).isCloseTo(40, within(0.5));
    assertThat(m.ms(1000, "EU", "EU")).isCloseTo(17, within(0.5));
    assertThat(m.ms(1000, "AF", "EU")).isEqualTo(m.global().ms(1000));
    assertThat(m.ms(1000, null, "EU")).isEqualTo(m.global().ms(1000));
  }

  @Test
  void selectIsExactlyTheSortedOrderStatistic() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(8);
    for (int trial = 0; trial < 300; trial++) {
      int n = 1 + r.nextInt(200);
      double[] a = new double[n];
      for (int i = 0; i < n; i++) {
        a[i] = trial % 3 == 0 ? r.nextInt(5) : r.nextDouble(-50, 50); // many ties in every third trial
      }
      double[] sorted = a.clone();
      java.util.Arrays.sort(sorted);
      int k = r.nextInt(n);
      assertThat(DistanceRtt.select(a.clone(), k)).as("trial %d, k %d of %d", trial, k, n).isEqualTo(sorted[k]);
    }
  }
}
