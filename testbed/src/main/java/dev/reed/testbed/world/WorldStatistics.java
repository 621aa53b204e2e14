package dev.reed.testbed.world;

import dev.reed.coordinates.Stats;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Summary statistics of a latency model over a set of hosts: RTT percentiles and the share of
 * triangles that violate the triangle inequality, the figures that decide how well a Euclidean
 * embedding such as GNP (Ng &amp; Zhang 2002) can fit a network (Ledlie et al. 2006). Used to
 * compare the synthetic world with the measured matrices; the definitions match
 * the repository's {@code data/*}{@code /stats.json}: percentiles over all ordered off-diagonal pairs,
 * a triangle (i, j, k) violates when d(i,j) &gt; d(i,k) + d(k,j).
 *
 * @param hosts hosts considered
 * @param pairsUsed ordered pairs with a value that the percentiles were computed from
 * @param missingFraction share of pairs without a value (NaN)
 * @param trianglesSampled random triangles with all three values
 * @param tivFraction share of those that violate the triangle inequality
 * @param tivOver10Fraction share that violate it by more than 10 %
 */
record WorldStatistics(int hosts, long pairsUsed, double missingFraction, double p5, double p25,
    double median, double p75, double p95, double mean, long trianglesSampled, double tivFraction,
    double tivOver10Fraction) {

  private static final long EXACT_PAIR_LIMIT = 2_000_000;
  private static final int SAMPLED_PAIRS = 1_000_000;

  /** Statistics over all hosts of the model. */
  public static WorldStatistics of(LatencyModel model, int triangles, long seed) {
    int[] all = new int[model.size()];
    Arrays.setAll(all, i -> i);
    return of(model, all, triangles, seed);
  }

  /**
   * @param hostIndices the hosts to consider (at least 3, distinct)
   * @param triangles random triangles to test
   * @param seed for the triangle (and, above 2 million pairs, pair) sampling
   */
  public static WorldStatistics of(LatencyModel model, int[] hostIndices, int triangles, long seed) {
    int n = hostIndices.length;
    if (n < 3) {
      throw new IllegalArgumentException("need at least 3 hosts, got " + n);
    }
    SplittableRandom rng = new SplittableRandom(seed);
    long ordered = (long) n * (n - 1);
    double[] values;
    long missing = 0;
    int k = 0;
    if (ordered <= EXACT_PAIR_LIMIT) {
      values = new double[(int) ordered];
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          if (a != b) {
            double v = model.rttMs(hostIndices[a], hostIndices[b]);
            if (Double.isNaN(v)) {
              missing++;
            } else {
              values[k++] = v;
            }
          }
        }
      }
    } else {
      values = new double[SAMPLED_PAIRS];
      for (int s = 0; s < SAMPLED_PAIRS; s++) {
        int a = rng.nextInt(n);
        int b = rng.nextInt(n - 1);
        if (b >= a) {
          b++;
        }
        double v = model.rttMs(hostIndices[a], hostIndices[b]);
        if (Double.isNaN(v)) {
          missing++;
        } else {
          values[k++] = v;
        }
      }
    }
    double[] used = Arrays.copyOf(values, k);
    Arrays.sort(used);
    double sum = 0;
    for (double v : used) {
      sum += v;
    }
    long tested = 0;
    long violating = 0;
    long violatingBy10 = 0;
    for (int t = 0; t < triangles; t++) {
      int i = hostIndices[rng.nextInt(n)];
      int j = hostIndices[rng.nextInt(n)];
      int m = hostIndices[rng.nextInt(n)];
      if (i == j || j == m || i == m) {
        continue;
      }
      double dij = model.rttMs(i, j);
      double dim = model.rttMs(i, m);
      double dmj = model.rttMs(m, j);
      if (Double.isNaN(dij) || Double.isNaN(dim) || Double.isNaN(dmj)) {
        continue;
      }
      tested++;
      if (dij > dim + dmj) {
        violating++;
      }
      if (dij > 1.1 * (dim + dmj)) {
        violatingBy10++;
      }
    }
    long pairs = k + missing;
    return new WorldStatistics(n, k, pairs == 0 ? 0 : (double) missing / pairs, Stats.quantile(used, 0.05),
        Stats.quantile(used, 0.25), Stats.quantile(used, 0.50), Stats.quantile(used, 0.75), Stats.quantile(used, 0.95),
        k == 0 ? Double.NaN : sum / k, tested, tested == 0 ? Double.NaN : (double) violating / tested,
        tested == 0 ? Double.NaN : (double) violatingBy10 / tested);
  }

  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT,
        "hosts %d, RTT ms p5 %.1f p25 %.1f median %.1f p75 %.1f p95 %.1f mean %.1f, missing %.1f %%, "
            + "triangles violating %.2f %% (by >10 %%: %.2f %%) of %d",
        hosts, p5, p25, median, p75, p95, mean, 100 * missingFraction, 100 * tivFraction,
        100 * tivOver10Fraction, trianglesSampled);
  }
}
