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
 */
public record LandmarkEvidence(double meshError, double serverError, double spread, int servers,
    dev.reed.coordinates.Coordinate position) {

  /** Nothing measurable. */
  public static final LandmarkEvidence UNKNOWN = new LandmarkEvidence(Double.NaN, Double.NaN, Double.NaN, 0, null);

  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT, "mesh error %.3f, server error %.3f, window spread %.3f over %d servers",
        meshError, serverError, spread, servers);
  }
}
