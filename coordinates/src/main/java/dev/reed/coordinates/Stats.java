package dev.reed.coordinates;

import java.util.Arrays;

/**
 * Order statistics with one definition for the whole project, so a median or p90 in a log, a
 * snapshot, a benchmark and an evaluation figure mean the same thing: linear interpolation between
 * the closest ranks, the q-quantile of n ascending values sits at position {@code q * (n - 1)}
 * (Hyndman &amp; Fan type 7; numpy's default and commons-math3's {@code Percentile} with
 * {@code EstimationType.R_7}). The median is the 0.5-quantile: the middle value, or the mean of the
 * two middle values. Written out rather than calling commons-math3 because its {@code Percentile}
 * copies and re-sorts per call and rejects q = 0; {@code StatsTest} checks agreement with it.
 */
public final class Stats {
  private Stats() {}

  /**
   * The {@code q}-quantile ({@code 0 <= q <= 1}) of values already sorted ascending; NaN for none.
   * The evaluation's published figures use this definition.
   */
  public static double quantile(double[] sorted, double q) {
    if (!(q >= 0 && q <= 1)) throw new IllegalArgumentException("quantile outside [0, 1]: " + q);
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double pos = q * (sorted.length - 1);
    int lo = (int) Math.floor(pos);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
  }

  /** The {@code q}-quantile of the finite values, in any order (not modified); NaN when there are none. */
  public static double quantileOf(double[] values, double q) {
    return quantile(Arrays.stream(values).filter(Double::isFinite).sorted().toArray(), q);
  }

  /** Median of the finite values; NaN when there are none. */
  public static double median(double[] values) {
    return median(values, values.length);
  }

  /** Median of the finite values among the first {@code n}; NaN when there are none. */
  public static double median(double[] values, int n) {
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
    // the 0.5-quantile, written as the mean of the middle pair so the fits' figures stay bit-identical
    return (k & 1) == 1 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
  }
}
