package dev.reed.coordinates.reports;

/**
 * How far client reports may move one prediction: {@code baseMs} plus {@code perNetwork} of the
 * prediction for every independent network (AS) whose reporters near the client agree with the
 * correction. One network (any number of prefixes, hosts or keys in it) buys the base and one share;
 * moving a far server many ms takes many networks. A reporter at the client's own site still
 * corrects a near server fully (5 ms where the coordinates say a few), which is where reports help.
 *
 * @param baseMs the shift any correction may make (ms)
 * @param perNetwork the further shift per agreeing network, as a fraction of the prediction
 */
public record CorrectionBound(double baseMs, double perNetwork) {
  public CorrectionBound {
    if (!(baseMs >= 0) || !(perNetwork >= 0) || Double.isInfinite(baseMs) || Double.isInfinite(perNetwork)) {
      throw new IllegalArgumentException("need finite baseMs >= 0 and perNetwork >= 0: " + baseMs + ", " + perNetwork);
    }
  }

  /** The largest shift of a prediction of {@code predictedMs} with {@code networks} agreeing networks (ms). */
  public double maxShiftMs(double predictedMs, int networks) {
    return baseMs + perNetwork * Math.max(0, networks) * predictedMs;
  }

  /**
   * The factor {@code factor} would apply to {@code predictedMs}, limited so that the prediction
   * moves by at most {@link #maxShiftMs}.
   */
  public double limit(double factor, double predictedMs, int networks) {
    if (!(predictedMs > 0)) {
      return factor;
    }
    double shift = maxShiftMs(predictedMs, networks);
    double corrected = Math.max(predictedMs - shift, Math.min(predictedMs + shift, factor * predictedMs));
    return Math.max(corrected, 0.1) / predictedMs;
  }
}
