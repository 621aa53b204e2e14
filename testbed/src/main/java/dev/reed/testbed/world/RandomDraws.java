package dev.reed.testbed.world;

import java.util.SplittableRandom;

/**
 * The random draws the synthetic and the calibrated world share. Per-pair terms (of hosts, or of
 * exchange points) are hashed from a seed and the pair rather than stored: a world of n hosts needs
 * no n-by-n matrix, and a pair gets the same draws whichever way round it is asked and in every run.
 */
final class RandomDraws {
  private RandomDraws() {}

  /** A standard normal from {@code rng} (Box-Muller), for per-host terms drawn as hosts are added. */
  static double normal(SplittableRandom rng) {
    double u1 = 1 - rng.nextDouble();
    double u2 = rng.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  /** The hash of the pair {@code (lo, hi)}, lo < hi, under {@code seed}. */
  static long hash(long seed, int lo, int hi) {
    return mix(seed ^ (((long) lo << 32) | hi) * 0x9E3779B97F4A7C15L);
  }

  /** A standard normal from a pair's hash (Box-Muller over two uniforms derived from it). */
  static double normal(long h) {
    double u1 = ((h >>> 11) + 1) * 0x1.0p-53; // (0, 1]
    double u2 = (mix(h) >>> 11) * 0x1.0p-53;
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  /** A uniform in [0, 1) from a pair's hash, independent of {@link #normal}'s draw. */
  static double uniform(long h) {
    return (mix(mix(h)) >>> 11) * 0x1.0p-53;
  }

  /** SplitMix64's finaliser: a good 64-bit hash. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
