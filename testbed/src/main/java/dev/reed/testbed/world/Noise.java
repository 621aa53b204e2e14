package dev.reed.testbed.world;

import java.util.random.RandomGenerator;

/**
 * Per-probe variation on top of a model's base RTT: queueing jitter (exponential, so it only
 * ever adds delay, as congestion does) and independent loss. The REED paper's landmarks take
 * the minimum of repeated probes precisely to filter this out (section 5.1.1).
 *
 * @param jitterMeanMs mean of the exponential jitter added to each RTT; 0 for none
 * @param lossRate probability that a probe or its reply is lost, in [0, 1)
 */
public record Noise(double jitterMeanMs, double lossRate) {
  public static final Noise NONE = new Noise(0, 0);

  public Noise {
    if (!(jitterMeanMs >= 0) || Double.isInfinite(jitterMeanMs)) {
      throw new IllegalArgumentException("jitterMeanMs must be >= 0 and finite: " + jitterMeanMs);
    }
    if (!(lossRate >= 0 && lossRate < 1)) {
      throw new IllegalArgumentException("lossRate must be in [0, 1): " + lossRate);
    }
  }

  /** One RTT sample for a base RTT: base plus jitter, or NaN when lost (or when base is NaN). */
  public double sample(double baseMs, RandomGenerator rng) {
    if (Double.isNaN(baseMs)) {
      return Double.NaN;
    }
    if (lossRate > 0 && rng.nextDouble() < lossRate) {
      return Double.NaN;
    }
    return jitterMeanMs > 0 ? baseMs - jitterMeanMs * Math.log1p(-rng.nextDouble()) : baseMs;
  }
}
