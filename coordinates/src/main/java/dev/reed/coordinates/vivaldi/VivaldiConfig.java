package dev.reed.coordinates.vivaldi;

/**
 * Vivaldi's tuning (Dabek et al., "Vivaldi: a decentralized network coordinate system", SIGCOMM
 * 2004), with the defaults hashicorp/serf's coordinate package uses in production.
 *
 * @param ce error-estimate gain c_e (paper 0.25; serf VivaldiCE 0.25)
 * @param cc step gain c_c (paper 0.25; serf VivaldiCC 0.25)
 * @param errorMax ceiling and initial value of a node's error estimate (serf VivaldiErrorMax 1.5)
 * @param heightMinMs smallest height with the height model (serf HeightMin 10 us = 0.01 ms)
 * @param maxRttMs RTTs above this are treated as bogus and ignored (serf ignores &gt; 10 s)
 */
public record VivaldiConfig(double ce, double cc, double errorMax, double heightMinMs, double maxRttMs) {

  public VivaldiConfig {
    check("ce", ce, 0, 1);
    check("cc", cc, 0, 1);
    check("errorMax", errorMax, 0, 100);
    check("heightMinMs", heightMinMs, 0, 1000);
    check("maxRttMs", maxRttMs, 0, 1e7);
  }

  public static VivaldiConfig defaults() {
    return new VivaldiConfig(0.25, 0.25, 1.5, 0.01, 10_000);
  }

  private static void check(String name, double v, double lo, double hi) {
    if (!Double.isFinite(v) || v <= lo || v > hi) {
      throw new IllegalArgumentException(name + " must be in (" + lo + ", " + hi + "], got " + v);
    }
  }
}
