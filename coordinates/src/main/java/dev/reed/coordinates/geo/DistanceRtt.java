package dev.reed.coordinates.geo;

/**
 * RTT as a line of great-circle distance, {@code interceptMs + msPerKm * km}, fitted as a
 * regression quantile (Koenker &amp; Bassett 1978; quantile 0.5 is least absolute deviations): a
 * path is longer than the great circle and queues add delay, so RTTs scatter above the line with a
 * long tail that would drag a least-squares fit. The slope is kept within bounds; the lower one is
 * the physical floor (light in fibre, ~1 ms of RTT per 100 km).
 *
 * @param interceptMs RTT at distance 0 (access and processing), >= 0
 * @param msPerKm ms of RTT per km
 */
public record DistanceRtt(double interceptMs, double msPerKm) {

  /** Golden-section steps over the slope: the bracket shrinks by 0.618^80, far below any precision that matters. */
  private static final int STEPS = 80;

  public DistanceRtt {
    if (!(interceptMs >= 0) || !Double.isFinite(interceptMs) || !(msPerKm >= 0) || !Double.isFinite(msPerKm)) {
      throw new IllegalArgumentException("intercept and slope must be finite and >= 0: " + interceptMs + ", " + msPerKm);
    }
  }

  /** The predicted RTT at {@code km}. */
  public double ms(double km) {
    return interceptMs + msPerKm * km;
  }

  /**
   * Fits the {@code quantile} regression line of {@code rttMs} on {@code km} with the slope in
   * {@code [minMsPerKm, maxMsPerKm]} and the intercept >= 0. For a fixed slope the best intercept
   * is the quantile of the residuals, and the loss minimised over the intercept is convex in the
   * slope (a partial minimum of a jointly convex function), so a golden-section search over the
   * slope finds the optimum.
   *
   * @throws IllegalArgumentException with fewer than 2 pairs, arrays of different length, or
   *     non-finite values
   */
  public static DistanceRtt fit(double[] km, double[] rttMs, double quantile, double minMsPerKm, double maxMsPerKm) {
    if (km.length != rttMs.length || km.length < 2) {
      throw new IllegalArgumentException("need at least 2 pairs of equal-length arrays, got " + km.length + " and " + rttMs.length);
    }
    for (int i = 0; i < km.length; i++) {
      if (!Double.isFinite(km[i]) || !Double.isFinite(rttMs[i])) {
        throw new IllegalArgumentException("pair " + i + " is not finite: " + km[i] + " km, " + rttMs[i] + " ms");
      }
    }
    double lo = minMsPerKm;
    double hi = maxMsPerKm;
    double g = (Math.sqrt(5) - 1) / 2;
    double a = hi - g * (hi - lo);
    double b = lo + g * (hi - lo);
    double fa = loss(km, rttMs, quantile, a);
    double fb = loss(km, rttMs, quantile, b);
    for (int i = 0; i < STEPS; i++) {
      if (fa <= fb) {
        hi = b;
        b = a;
        fb = fa;
        a = hi - g * (hi - lo);
        fa = loss(km, rttMs, quantile, a);
      } else {
        lo = a;
        a = b;
        fa = fb;
        b = lo + g * (hi - lo);
        fb = loss(km, rttMs, quantile, b);
      }
    }
    double slope = (lo + hi) / 2;
    return new DistanceRtt(intercept(km, rttMs, quantile, slope), slope);
  }

  private static double intercept(double[] km, double[] rtt, double q, double slope) {
    double[] r = new double[km.length];
    for (int i = 0; i < km.length; i++) {
      r[i] = rtt[i] - slope * km[i];
    }
    // the q-quantile of the residuals minimises the check loss (a lower order statistic, no
    // interpolation); selected in linear time, not sorted: the fit calls this 160 times per line,
    // and a coordinator fits a line per cross-validation fold after every round
    return Math.max(0, select(r, Math.min(r.length - 1, (int) Math.floor(q * r.length))));
  }

  /**
   * The {@code k}-th smallest value (0-based) of {@code a}, reordering {@code a}: Hoare's
   * quickselect with a median-of-three pivot; exactly {@code sorted(a)[k]}.
   */
  static double select(double[] a, int k) {
    int lo = 0;
    int hi = a.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      // median of three to a[mid]
      if (a[mid] < a[lo]) swap(a, mid, lo);
      if (a[hi] < a[lo]) swap(a, hi, lo);
      if (a[hi] < a[mid]) swap(a, hi, mid);
      double pivot = a[mid];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) i++;
        while (a[j] > pivot) j--;
        if (i <= j) {
          swap(a, i, j);
          i++;
          j--;
        }
      }
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return a[k]; // between j and i: equal to the pivot
      }
    }
    return a[k];
  }

  private static void swap(double[] a, int i, int j) {
    double t = a[i];
    a[i] = a[j];
    a[j] = t;
  }

  private static double loss(double[] km, double[] rtt, double q, double slope) {
    double c = intercept(km, rtt, q, slope);
    double sum = 0;
    for (int i = 0; i < km.length; i++) {
      double u = rtt[i] - c - slope * km[i];
      sum += u >= 0 ? q * u : (q - 1) * u;
    }
    return sum;
  }
}
