package dev.reed.cli.demo;

import dev.reed.coordinates.Stats;
import java.util.Arrays;

/**
 * How faithfully the emulated world delays replies: per landmark probe, the RTT the landmark
 * measured minus the RTT the world intended for that reply (its sampled RTT, jitter included).
 * An emulation-quality figure, not an accuracy claim: everything above 0 is scheduling delay on
 * this machine (the receive loop, the delay line's sender, the prober's receiver thread).
 *
 * @param probes probes compared
 * @param p50Ms median error, ms
 * @param p99Ms 99th percentile, ms
 * @param maxMs largest error, ms
 */
record DelayError(int probes, double p50Ms, double p99Ms, double maxMs) {
  /** Nothing compared. */
  static final DelayError NONE = new DelayError(0, Double.NaN, Double.NaN, Double.NaN);

  /**
   * @param errorsMs measured minus intended RTT per probe, ms (any order; not modified)
   * @throws IllegalArgumentException an error is NaN or infinite
   */
  static DelayError of(double[] errorsMs) {
    if (errorsMs.length == 0) return NONE;
    double[] v = errorsMs.clone();
    for (double e : v) if (!Double.isFinite(e)) throw new IllegalArgumentException("delay error must be finite: " + e);
    Arrays.sort(v);
    return new DelayError(v.length, Stats.quantile(v, 0.5), Stats.quantile(v, 0.99), v[v.length - 1]);
  }
}
