package dev.reed.eval;

import java.util.Arrays;

/** Rank statistics for the evaluator. */
final class Ranks {
  private Ranks() {}

  static double mean(double[] values) {
    return Arrays.stream(values).filter(Double::isFinite).average().orElse(Double.NaN);
  }

  /** Spearman correlation over the pairs where both are finite (average ranks for ties). */
  static double spearman(double[] a, double[] b) {
    int n = 0;
    for (int i = 0; i < a.length; i++) {
      if (Double.isFinite(a[i]) && Double.isFinite(b[i])) {
        n++;
      }
    }
    if (n < 3) {
      return Double.NaN;
    }
    double[] x = new double[n];
    double[] y = new double[n];
    int k = 0;
    for (int i = 0; i < a.length; i++) {
      if (Double.isFinite(a[i]) && Double.isFinite(b[i])) {
        x[k] = a[i];
        y[k] = b[i];
        k++;
      }
    }
    double[] rx = ranks(x);
    double[] ry = ranks(y);
    double mx = (n + 1) / 2.0;
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (int i = 0; i < n; i++) {
      sxy += (rx[i] - mx) * (ry[i] - mx);
      sxx += (rx[i] - mx) * (rx[i] - mx);
      syy += (ry[i] - mx) * (ry[i] - mx);
    }
    return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
  }

  private static double[] ranks(double[] v) {
    int n = v.length;
    Integer[] idx = new Integer[n];
    for (int i = 0; i < n; i++) {
      idx[i] = i;
    }
    Arrays.sort(idx, (p, q) -> Double.compare(v[p], v[q]));
    double[] r = new double[n];
    int i = 0;
    while (i < n) {
      int j = i;
      while (j + 1 < n && v[idx[j + 1]] == v[idx[i]]) {
        j++;
      }
      double avg = (i + j) / 2.0 + 1;
      for (int t = i; t <= j; t++) {
        r[idx[t]] = avg;
      }
      i = j + 1;
    }
    return r;
  }
}
