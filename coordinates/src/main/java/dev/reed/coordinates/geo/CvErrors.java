package dev.reed.coordinates.geo;

import dev.reed.coordinates.Stats;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * How wrong each kind of prediction was in the estimator's leave-one-landmark-out
 * cross-validation: the median absolute relative error {@code |predicted - measured| / measured}
 * over the folds' pairs that kind can predict, NaN when it predicts none. An uncertainty for a
 * served prediction is {@code predicted x} the error of its kind (a median, so half the
 * cross-validated predictions were closer than that).
 *
 * @param geo the geographic prediction alone (a zero-probe ranking)
 * @param coordinates the coordinate distance alone (a ranking without a location prior)
 * @param geoAndCoordinates the fusion without the relay bound: what a coordinator serves, since
 *     the relay needs the client's own landmark RTTs
 * @param fused the fusion of all three sources
 */
public record CvErrors(double geo, double coordinates, double geoAndCoordinates, double fused) {

  /** No cross-validation (every kind unknown). */
  public static final CvErrors UNKNOWN = new CvErrors(Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  /** The errors of the folds' examples under fusion weights {@code w}. */
  public static CvErrors of(List<FusionExample> examples, FusionWeights w) {
    return new CvErrors(median(examples, FusionExample::geoMs), median(examples, FusionExample::coordinateMs),
        median(examples, e -> Double.isFinite(e.geoMs()) && Double.isFinite(e.coordinateMs())
            ? w.predictMs(e.geoMs(), e.coordinateMs(), Double.NaN) : Double.NaN),
        median(examples, e -> w.predictMs(e.geoMs(), e.coordinateMs(), e.relayMs())));
  }

  private static double median(List<FusionExample> examples, ToDoubleFunction<FusionExample> predicted) {
    double[] err = new double[examples.size()];
    int n = 0;
    for (FusionExample e : examples) {
      double p = predicted.applyAsDouble(e);
      if (e.truthMs() > 0 && Double.isFinite(e.truthMs()) && Double.isFinite(p)) {
        err[n++] = Math.abs(p - e.truthMs()) / e.truthMs();
      }
    }
    return n == 0 ? Double.NaN : Stats.median(err, n);
  }
}
