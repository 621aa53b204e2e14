package dev.reed.probe;

/**
 * The global probes/s budget (the paper's ~140 probes/s of a server browser is the default).
 * A bucket holding at most {@code burst} tokens, refilled at {@code rate} per second. Pure
 * logic on caller-supplied nanos, so tests drive it with a fake clock. Not thread-safe.
 */
final class TokenBucket {
  private final double perNano;
  private final double burst;
  private double tokens;
  private long last;

  TokenBucket(double ratePerSecond, double burst, long nowNanos) {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond) || !(burst >= 1)) {
      throw new IllegalArgumentException("rate " + ratePerSecond + " burst " + burst);
    }
    this.perNano = ratePerSecond / 1e9;
    this.burst = burst;
    this.tokens = 1;
    this.last = nowNanos;
  }

  /** Takes one token and returns 0, or returns the nanos until a token will be available. */
  long tryTake(long now) {
    if (now > last) {
      tokens = Math.min(burst, tokens + (now - last) * perNano);
      last = now;
    }
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, (long) Math.ceil((1 - tokens) / perNano));
  }
}
