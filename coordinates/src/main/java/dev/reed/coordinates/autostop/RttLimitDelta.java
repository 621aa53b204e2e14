package dev.reed.coordinates.autostop;

/** Section 4.3.2: probe all servers predicted within RTT_limit + delta, then stop. */
final class RttLimitDelta extends CountingPolicy {
  private final double limit;
  private final double delta;

  RttLimitDelta(double rttLimitMs, double deltaMs) {
    if (!(rttLimitMs > 0) || !Double.isFinite(rttLimitMs) || !(deltaMs >= 0) || !Double.isFinite(deltaMs)) {
      throw new IllegalArgumentException("rttLimitMs must be > 0 and deltaMs >= 0, both finite; got "
          + rttLimitMs + ", " + deltaMs);
    }
    this.limit = rttLimitMs;
    this.delta = deltaMs;
  }

  @Override
  boolean decide(double predictedMs, double rttMs) {
    return false; // decided before each probe
  }

  @Override
  public boolean stopBefore(double nextPredictedMs) {
    if (nextPredictedMs > limit + delta) {
      stop();
    }
    return stopped();
  }

  @Override
  public String name() {
    return "rtt-limit(" + RttStop.fmt(limit) + "+" + RttStop.fmt(delta) + ")";
  }
}
