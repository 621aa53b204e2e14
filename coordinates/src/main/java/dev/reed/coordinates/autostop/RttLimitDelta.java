package dev.reed.coordinates.autostop;

/** Section 4.3.2: probe all servers predicted within RTT_limit + delta, then stop. */
final class RttLimitDelta implements AutoStopPolicy {
  private final double limit;
  private final double delta;
  private int probes;
  private boolean stopped;

  RttLimitDelta(double rttLimitMs, double deltaMs) {
    if (!(rttLimitMs > 0) || !Double.isFinite(rttLimitMs) || !(deltaMs >= 0) || !Double.isFinite(deltaMs)) {
      throw new IllegalArgumentException("rttLimitMs must be > 0 and deltaMs >= 0, both finite; got "
          + rttLimitMs + ", " + deltaMs);
    }
    this.limit = rttLimitMs;
    this.delta = deltaMs;
  }

  @Override
  public boolean observe(double predictedMs, double rttMs) {
    probes++;
    return stopped;
  }

  @Override
  public boolean stopBefore(double nextPredictedMs) {
    stopped |= nextPredictedMs > limit + delta;
    return stopped;
  }

  @Override
  public boolean stopped() {
    return stopped;
  }

  @Override
  public int probes() {
    return probes;
  }

  @Override
  public String name() {
    return "rtt-limit(" + RttStop.fmt(limit) + "+" + RttStop.fmt(delta) + ")";
  }
}
