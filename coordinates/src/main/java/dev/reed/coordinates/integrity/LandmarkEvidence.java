package dev.reed.coordinates.integrity;

/**
 * What one round measured about one landmark's honesty; NaN = not measurable this round (too few
 * peers or servers).
 *
 * @param meshError median relative error of the landmark's mesh RTTs against its position fitted
 *     from them among the other (trusted) landmarks
 * @param serverError median over sampled servers of |RTT the landmark reports - distance from the
 *     landmark to the server positioned without it| / RTT: the server positions never saw its RTTs
 * @param spread median over sampled servers of its window's 90th percentile minus minimum, over the
 *     minimum: a landmark that inflates some of its samples has a wide window where honest ones have
 *     jitter (relative, so a far landmark's larger jitter in ms is no outlier)
 * @param servers servers its server figures were taken over
 * @param position where its mesh RTTs place it among the trusted landmarks (null = unknown): what a
 *     quarantined landmark is shown at
 * @param step median over sampled servers of its newest RTT minus its window minimum, ms: a landmark
 *     that starts adding a constant or a proportion to every sample has a step the size of its lie
 *     until its window holds only lies, where honest ones have their jitter
 * @param relativeStep the same over the minimum (median of the ratios): a proportional lie's size
 * @param bias median over sampled servers of (RTT it reports - distance to the server positioned
 *     without it), ms, signed: what it adds to every RTT once its window holds only lies, if its
 *     mesh RTTs (the lower of both directions) stayed honest
 */
public record LandmarkEvidence(double meshError, double serverError, double spread, int servers,
    dev.reed.coordinates.Coordinate position, double step, double relativeStep, double bias) {

  /** Nothing measurable. */
  public static final LandmarkEvidence UNKNOWN = new LandmarkEvidence(Double.NaN, Double.NaN, Double.NaN, 0, null);

  /** Without the step and bias signals. */
  public LandmarkEvidence(double meshError, double serverError, double spread, int servers,
      dev.reed.coordinates.Coordinate position) {
    this(meshError, serverError, spread, servers, position, Double.NaN, Double.NaN, Double.NaN);
  }

  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT, "mesh error %.3f, server error %.3f, window spread %.3f, "
        + "step %.1f ms (%.3f), bias %.1f ms over %d servers", meshError, serverError, spread, step, relativeStep, bias, servers);
  }
}
