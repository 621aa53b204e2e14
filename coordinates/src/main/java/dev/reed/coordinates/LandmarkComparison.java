package dev.reed.coordinates;

/**
 * What two hosts' RTTs to the same landmarks say about the RTT between them, beside their
 * coordinates. A client has this for every server at no extra probe: its calibration RTTs to the
 * landmarks, and each server's RTTs as the landmarks measured them.
 *
 * <ul>
 *   <li>Triangle-inequality bounds {@code |a_l - b_l| <= d(a, b) <= a_l + b_l} for every landmark l
 *       (IDMaps, Francis et al. 2001; the bounds behind Ng &amp; Zhang's GNP comparison).
 *   <li>The near-landmark difference: the mean of {@code |a_l - b_l|} weighted by
 *       {@code 1 / min(a_l, b_l)^2}. Landmarks near either host resolve the local geometry that
 *       distant ones blur (Tang &amp; Crovella's "virtual landmarks" observe the same: the RTT
 *       vector carries the position, the nearby coordinates of it the fine position).
 * </ul>
 *
 * <p>Why a coordinate system needs them: a Euclidean embedding from 15 landmarks errs by about 9 %
 * (median) on PlanetLab, mostly on pairs far apart, while one of the 15 measured paths often runs
 * almost through one host on its way to the other, so {@code |a_l - b_l|} lands within a few ms of
 * the truth. Near pairs are the opposite case: routes to distant landmarks differ by tens of ms for
 * hosts 5 ms apart (triangle-inequality violations), so there the lower bound is noise; and a
 * server the coordinates misplace by 10-20 ms is often given away by a small near-landmark
 * difference. {@link #refine} therefore applies the lower bound only beyond a radius and the upper
 * bound everywhere, and the probe order adds the near-landmark difference to the prediction
 * ({@code discovery.ProbeOrder}). Numbers on planetlab490 are in docs/research/ordering.md.
 *
 * @param lowerMs largest {@code |a_l - b_l|} over landmarks both hosts measured (0 if none)
 * @param upperMs smallest {@code a_l + b_l} ({@code +Infinity} if none)
 * @param nearDifferenceMs mean of {@code |a_l - b_l|} weighted by {@code 1 / max(1, min(a_l, b_l))^2}
 *     (0 if no common landmark)
 */
public record LandmarkComparison(double lowerMs, double upperMs, double nearDifferenceMs) {

  /** No common landmark: nothing is known. */
  public static final LandmarkComparison NONE = new LandmarkComparison(0, Double.POSITIVE_INFINITY, 0);

  public LandmarkComparison {
    if (!(lowerMs >= 0) || Double.isInfinite(lowerMs) || Double.isNaN(upperMs) || upperMs < 0
        || !(nearDifferenceMs >= 0) || Double.isInfinite(nearDifferenceMs)) {
      throw new IllegalArgumentException("need 0 <= lower < inf, upper >= 0, 0 <= near difference < inf, got "
          + lowerMs + ", " + upperMs + ", " + nearDifferenceMs);
    }
  }

  /**
   * Compares two hosts' RTTs to the same landmarks, index by index; NaN, infinite or negative
   * entries (no answer) are skipped.
   *
   * @throws IllegalArgumentException if the arrays differ in length
   */
  public static LandmarkComparison between(double[] aToLandmarksMs, double[] bToLandmarksMs) {
    if (aToLandmarksMs.length != bToLandmarksMs.length) {
      throw new IllegalArgumentException("landmark RTT vectors differ in length: " + aToLandmarksMs.length + " vs "
          + bToLandmarksMs.length);
    }
    double lower = 0;
    double upper = Double.POSITIVE_INFINITY;
    double num = 0;
    double den = 0;
    for (int l = 0; l < aToLandmarksMs.length; l++) {
      double a = aToLandmarksMs[l];
      double b = bToLandmarksMs[l];
      if (usable(a) && usable(b)) {
        double diff = Math.abs(a - b);
        lower = Math.max(lower, diff);
        upper = Math.min(upper, a + b);
        double near = Math.max(1.0, Math.min(a, b));
        double w = 1 / (near * near);
        num += w * diff;
        den += w;
      }
    }
    return new LandmarkComparison(lower, upper, den == 0 ? 0 : num / den);
  }

  /**
   * A predicted RTT corrected by the bounds: never above the upper bound, and raised to the lower
   * bound when the prediction is beyond {@code lowerBeyondMs} (where the lower bound is informative;
   * see the class comment). When the bounds cross (a triangle-inequality violation), the upper wins.
   */
  public double refine(double predictedMs, double lowerBeyondMs) {
    double p = predictedMs > lowerBeyondMs ? Math.max(predictedMs, lowerMs) : predictedMs;
    return Math.min(p, upperMs);
  }

  private static boolean usable(double v) {
    return v >= 0 && !Double.isInfinite(v);
  }
}
