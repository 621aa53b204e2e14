package dev.reed.coordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LandmarkComparisonTest {

  @Test
  void boundsComeFromTheLandmarksBothMeasured() {
    LandmarkComparison c = LandmarkComparison.between(
        new double[] {10, 50, Double.NaN, 30, -1},
        new double[] {14, 42, 5, Double.POSITIVE_INFINITY, 7});
    assertThat(c.lowerMs()).isEqualTo(8); // |50 - 42|; the NaN, infinite and negative pairs are skipped
    assertThat(c.upperMs()).isEqualTo(24); // 10 + 14
  }

  @Test
  void noCommonLandmarkSaysNothing() {
    LandmarkComparison c = LandmarkComparison.between(new double[] {Double.NaN, 3}, new double[] {4, Double.NaN});
    assertThat(c).isEqualTo(LandmarkComparison.NONE);
    assertThat(c.refine(42, 0)).isEqualTo(42);
  }

  /** In a metric space the bounds always hold the true distance, and refining never moves away from it. */
  @Test
  void inAMetricSpaceTheBoundsHoldTheTruthAndRefiningOnlyHelps() {
    SplittableRandom r = new SplittableRandom(3);
    double[][] landmarks = new double[15][];
    for (int l = 0; l < landmarks.length; l++) {
      landmarks[l] = new double[] {r.nextDouble() * 300, r.nextDouble() * 300};
    }
    for (int trial = 0; trial < 500; trial++) {
      double[] a = {r.nextDouble() * 300, r.nextDouble() * 300};
      double[] b = {r.nextDouble() * 300, r.nextDouble() * 300};
      double truth = Math.hypot(a[0] - b[0], a[1] - b[1]);
      LandmarkComparison c = LandmarkComparison.between(toLandmarks(a, landmarks), toLandmarks(b, landmarks));
      assertThat(c.lowerMs()).isLessThanOrEqualTo(truth + 1e-9);
      assertThat(c.upperMs()).isGreaterThanOrEqualTo(truth - 1e-9);
      double guess = truth * (0.3 + 1.4 * r.nextDouble());
      assertThat(Math.abs(c.refine(guess, 0) - truth)).isLessThanOrEqualTo(Math.abs(guess - truth) + 1e-9);
    }
  }

  @Test
  void theLowerBoundOnlyAppliesBeyondTheRadiusAndTheUpperAlways() {
    LandmarkComparison c = new LandmarkComparison(60, 80, 0);
    assertThat(c.refine(20, 50)).isEqualTo(20); // near: the lower bound is noise there
    assertThat(c.refine(55, 50)).isEqualTo(60);
    assertThat(c.refine(95, 50)).isEqualTo(80);
    assertThat(c.refine(95, Double.POSITIVE_INFINITY)).isEqualTo(80);
    // crossed bounds (a triangle-inequality violation): the upper wins
    assertThat(new LandmarkComparison(90, 70, 0).refine(60, 50)).isEqualTo(70);
  }

  @Test
  void theNearDifferenceIsDominatedByLandmarksNearEitherHost() {
    // landmark 0 is 2 ms from a and sees b 10 ms further; landmark 1 is 100 ms from both
    LandmarkComparison c = LandmarkComparison.between(new double[] {2, 100}, new double[] {12, 100});
    assertThat(c.nearDifferenceMs()).isCloseTo(10, within(0.01)); // the plain mean would say 5
    // landmarks closer than 1 ms weigh as 1 ms, so a 0 ms RTT cannot divide by zero
    assertThat(LandmarkComparison.between(new double[] {0, 50}, new double[] {3, 40}).nearDifferenceMs())
        .isCloseTo((3 + 10 / 1600.0) / (1 + 1 / 1600.0), within(1e-9));
  }

  @Test
  void rejectsMismatchedVectorsAndImpossibleValues() {
    assertThatThrownBy(() -> LandmarkComparison.between(new double[2], new double[3]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("differ in length");
    assertThatThrownBy(() -> new LandmarkComparison(Double.NaN, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LandmarkComparison(-1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LandmarkComparison(0, Double.NaN, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LandmarkComparison(0, 1, Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static double[] toLandmarks(double[] p, double[][] landmarks) {
    double[] out = new double[landmarks.length];
    for (int l = 0; l < landmarks.length; l++) {
      out[l] = Math.hypot(p[0] - landmarks[l][0], p[1] - landmarks[l][1]);
    }
    return out;
  }
}
