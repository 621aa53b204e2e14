package dev.reed.eval;

/**
 * What a baseline decided for one client: the whole order at once, with what it predicts.
 *
 * @param order indices into the client's server list, in probe order (every server once)
 * @param predictedMs the method's predicted RTT per server index (NaN = it predicts none)
 * @param calibrationProbes probes the method sent before ordering
 * @param calibrated per server index: already probed in calibration (handed out in its turn as
 *     measured, no second probe)
 * @param predictsRtt whether the predictions are the method's own estimate of RTT (its relative
 *     error is reported) rather than a stand-in for the auto-stop policies
 */
record StaticOrder(int[] order, double[] predictedMs, int calibrationProbes, boolean[] calibrated, boolean predictsRtt) {

  /** An order with no calibration. */
  static StaticOrder uncalibrated(int[] order, double[] predictedMs, boolean predictsRtt) {
    return new StaticOrder(order, predictedMs, 0, new boolean[order.length], predictsRtt);
  }
}
