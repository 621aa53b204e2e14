package dev.reed.coordinates;

import java.util.Arrays;

/** Small order statistics used by the fits. */
final class Stats {
  private Stats() {}

  /** Median of the finite values; NaN when there are none. */
  static double median(double[] values) {
    return median(values, values.length);
  }

  /** Median of the finite values among the first {@code n}; NaN when there are none. */
  static double median(double[] values, int n) {
    double[] v = new double[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (Double.isFinite(values[i])) {
        v[k++] = values[i];
      }
    }
    if (k == 0) {
      return Double.NaN;
    }
    Arrays.sort(v, 0, k);
    return (k & 1) == 1 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
  }
}
