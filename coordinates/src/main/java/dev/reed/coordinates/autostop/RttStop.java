package dev.reed.coordinates.autostop;

import java.util.Arrays;

/** REED Algorithm 5: stop when a low percentile of the last W probes exceeds RTT_stop. */
final class RttStop extends CountingPolicy {
  private final double rttStopMs;
  private final int window;
  private final int rank; // nearest-rank index of the percentile within a full window (0-based)
  private final double[] ring;
  private final double[] scratch;

  RttStop(double rttStopMs, int window, double percentile) {
    if (!(rttStopMs > 0) || !Double.isFinite(rttStopMs)) {
      throw new IllegalArgumentException("rttStopMs must be finite and > 0, got " + rttStopMs);
    }
    if (window < 1) {
      throw new IllegalArgumentException("window must be >= 1, got " + window);
    }
    this.rttStopMs = rttStopMs;
    this.window = window;
    this.rank = Math.max(0, (int) Math.ceil(percentile * window) - 1);
    this.ring = new double[window];
    this.scratch = new double[window];
  }

  @Override
  boolean decide(double predictedMs, double rttMs) {
    ring[(probes() - 1) % window] = Double.isFinite(rttMs) ? rttMs : Double.POSITIVE_INFINITY;
    if (probes() < window) {
      return false;
    }
    System.arraycopy(ring, 0, scratch, 0, window);
    Arrays.sort(scratch);
    return scratch[rank] > rttStopMs;
  }

  @Override
  public String name() {
    return "rtt-stop(" + fmt(rttStopMs) + "," + window + ")";
  }

  static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
