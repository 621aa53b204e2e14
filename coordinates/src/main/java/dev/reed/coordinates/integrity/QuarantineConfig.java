package dev.reed.coordinates.integrity;

/**
 * Settings of the lying-landmark check ({@link LandmarkResiduals}, {@link LandmarkQuarantine}). The
 * defaults were tuned on the real matrices (planetlab490, seattle99, azure54; figures in
 * docs/research/host-integrity-landmarks.md): no honest landmark quarantined there over 10 seeds.
 *
 * <p>The test is NCShield's and Veracity's idea for decentralised coordinates (Zhang et al.,
 * "NCShield: securing decentralized, matrix factorization-based network coordinate systems", 2012;
 * Sherr et al., "Veracity: practical secure network coordinates via vote-based agreements", USENIX
 * ATC 2009) applied to a small trusted set: a landmark's measurements are checked against what the
 * other landmarks predict, and a landmark is an outlier only against the spread of its peers
 * (median and MAD, so one liar cannot move the yardstick), never against a fixed error.
 *
 * @param madFactor how many robust standard deviations (1.4826 x MAD of the other landmarks' values)
 *     above their median a landmark's value must be to count as an outlier; 5, wide, because real
 *     landmarks differ (a landmark far from the others fits worse): at 3, planetlab490's honest
 *     landmarks were flagged in single rounds
 * @param residualFloor a residual (median relative error) must also exceed the others' median by at
 *     least this much, so identical honest landmarks (MAD ~ 0) are not flagged for noise; 0.10 is
 *     about the whole median error of REED's 4-D fit on planetlab490 (0.06, eval/README.md)
 * @param spreadFloorMs the same floor for the window spread (upper quartile minus minimum of a
 *     landmark's window to a server, ms): 10 ms, several times the jitter of a healthy path and a
 *     third of the 30 ms shift the issue names
 * @param quarantineAfter consecutive outlier rounds before a landmark is quarantined (hysteresis: a
 *     single bad round, e.g. a congested VM for a minute, is not enough)
 * @param readmitAfter consecutive clean rounds before a quarantined landmark is readmitted; its
 *     windows must first flush the lies (W rounds), so this adds to W
 * @param maxQuarantinedFraction at most this share of the landmarks is quarantined at once (the worst
 *     first), so a fault that makes many honest landmarks look bad (e.g. a partitioned region)
 *     cannot empty the embedding; 0.25 tolerates 3 liars of 15
 * @param maxServers servers sampled per round for the server residuals (each costs one host fit per
 *     landmark): 200 keeps a round's check near 0.1 s and the median's error small
 * @param minServers fewer servers with RTTs from a landmark than this and its server signals are
 *     unknown (neither bad nor good)
 */
public record QuarantineConfig(
    double madFactor,
    double residualFloor,
    double spreadFloorMs,
    int quarantineAfter,
    int readmitAfter,
    double maxQuarantinedFraction,
    int maxServers,
    int minServers) {

  public QuarantineConfig {
    if (!(madFactor > 0) || !Double.isFinite(madFactor)) throw new IllegalArgumentException("madFactor must be > 0: " + madFactor);
    if (!(residualFloor >= 0) || !Double.isFinite(residualFloor)) {
      throw new IllegalArgumentException("residualFloor must be >= 0: " + residualFloor);
    }
    if (!(spreadFloorMs >= 0) || !Double.isFinite(spreadFloorMs)) {
      throw new IllegalArgumentException("spreadFloorMs must be >= 0: " + spreadFloorMs);
    }
    if (quarantineAfter < 1 || readmitAfter < 1) {
      throw new IllegalArgumentException("quarantineAfter and readmitAfter must be >= 1 round");
    }
    if (!(maxQuarantinedFraction >= 0 && maxQuarantinedFraction < 0.5)) {
      throw new IllegalArgumentException("maxQuarantinedFraction must be in [0, 0.5): " + maxQuarantinedFraction);
    }
    if (maxServers < 1 || minServers < 1) throw new IllegalArgumentException("maxServers and minServers must be >= 1");
  }

  /** The defaults above. */
  public static QuarantineConfig defaults() {
    return new QuarantineConfig(5.0, 0.10, 10.0, 3, 3, 0.25, 200, 20);
  }

  /** These settings with another {@code quarantineAfter} (tests, and the eval's runs with quarantine off). */
  public QuarantineConfig withQuarantineAfter(int rounds) {
    return new QuarantineConfig(madFactor, residualFloor, spreadFloorMs, rounds, readmitAfter, maxQuarantinedFraction,
        maxServers, minServers);
  }
}
