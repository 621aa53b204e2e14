package dev.reed.coordinates.geo;

import java.util.List;

/**
 * How much each source counts in the fused prediction: a convex combination of the geographic
 * prediction, the coordinate distance and the relay bound, renormalised over the sources a pair
 * has (a client that has not probed has the geographic prediction only).
 *
 * @param geo weight of {@link GeoPrior}'s prediction
 * @param coordinate weight of the coordinate distance
 * @param relay weight of the relay bound
 */
public record FusionWeights(double geo, double coordinate, double relay) {
  public FusionWeights {
    if (!(geo >= 0) || !(coordinate >= 0) || !(relay >= 0) || !(geo + coordinate + relay > 0)) {
      throw new IllegalArgumentException("weights must be >= 0 and not all 0: " + geo + ", " + coordinate + ", " + relay);
    }
  }

  /** The fused prediction, NaN when no source predicts. */
  public double predictMs(double geoMs, double coordinateMs, double relayMs) {
    double w = 0;
    double sum = 0;
    double plain = 0;
    int have = 0;
    double[] f = {geoMs, coordinateMs, relayMs};
    double[] ws = {geo, coordinate, relay};
    for (int i = 0; i < 3; i++) {
      if (Double.isFinite(f[i])) {
        w += ws[i];
        sum += ws[i] * f[i];
        plain += f[i];
        have++;
      }
    }
    if (have == 0) {
      return Double.NaN;
    }
    // the sources a pair has may all weigh 0: then each counts alike rather than none
    return w > 0 ? sum / w : plain / have;
  }

  /**
   * The weights on a grid of step {@code step} over the simplex with the least mean absolute
   * relative error over the examples (ties: the first on the grid, geo-heavy first).
   *
   * @throws IllegalArgumentException when no example has a positive measured RTT
   */
  public static FusionWeights fit(List<FusionExample> examples, double step) {
    int n = (int) Math.round(1 / step);
    FusionWeights best = null;
    double bestLoss = Double.POSITIVE_INFINITY;
    for (int g = n; g >= 0; g--) {
      for (int c = n - g; c >= 0; c--) {
        FusionWeights w = new FusionWeights(g / (double) n, c / (double) n, (n - g - c) / (double) n);
        double loss = w.loss(examples);
        if (loss < bestLoss) {
          bestLoss = loss;
          best = w;
        }
      }
    }
    if (best == null) {
      throw new IllegalArgumentException("no example with a measured RTT > 0 and a prediction to fit weights on");
    }
    return best;
  }

  /** Mean absolute relative error over the examples this combination predicts (infinite with none). */
  public double loss(List<FusionExample> examples) {
    double sum = 0;
    int n = 0;
    for (FusionExample e : examples) {
      double p = predictMs(e.geoMs(), e.coordinateMs(), e.relayMs());
      if (e.truthMs() > 0 && Double.isFinite(e.truthMs()) && Double.isFinite(p)) {
        sum += Math.abs(p - e.truthMs()) / e.truthMs();
        n++;
      }
    }
    return n == 0 ? Double.POSITIVE_INFINITY : sum / n;
  }
}
