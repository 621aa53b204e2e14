package dev.reed.coordinates.integrity;

/**
 * Settings of the lying-landmark check ({@link LandmarkResiduals}, {@link LandmarkQuarantine}). The
 * defaults were tuned on the real matrices (planetlab490, seattle99, azure54; figures and false
 * quarantine rates in docs/research/host-integrity-landmarks.md).
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
 *     least this much: 0.7, because real landmarks are not Euclidean: on seattle99 an honest landmark
 *     fits its mesh with a median relative error of 0.55-0.68 against the others' 0.07-0.14, and
 *     0.5 quarantined it in 3 of 5 seeds (docs/research/host-integrity-landmarks.md). Only gross
 *     lies (random RTTs) exceed it; the window spread catches inconsistent ones
 * @param spreadFloor the same floor for the window spread (90th percentile minus minimum of a
 *     landmark's window to a server, over the minimum; median over servers): 0.05, about the honest
 *     spread of the eval's jitter model on a typical 100 ms path; 30 ms on half the samples gives
 *     0.1-0.3 there. At 0.10 two of five planetlab490 liars (far from most servers, so 30 ms is
 *     relatively small) went undetected in 12 rounds; at 0.05 all five in 4-6, and seattle99 still had
 *     no false quarantine in 10 seeds
 * @param quarantineAfter consecutive outlier rounds before a landmark is quarantined (hysteresis: a
 *     single bad round, e.g. a congested VM for a minute, is not enough)
 * @param readmitAfter consecutive clean rounds before a quarantined landmark is readmitted; its
 *     windows must first flush the lies (W rounds), so this adds to W
 * @param maxQuarantinedFraction at most this share of the landmarks is quarantined at once (the worst
 *     first), so a fault that makes many honest landmarks look bad (e.g. a partitioned region)
 *     cannot empty the embedding; 0.25 tolerates 3 liars of 15
 * @param maxServers servers sampled per round for the server residuals (each costs one host fit per
 *     landmark): 200 keeps a round's check near 13 ms (LandmarkResidualsBenchmark) and the median's error small
 * @param minServers fewer servers with RTTs from a landmark than this and its server signals are
 *     unknown (neither bad nor good)
 * @param stepFloorMs the floor of the step signal (a landmark's newest RTT minus its window minimum,
 *     median over servers, ms): a patient liar adding a constant to every sample shows it here from
 *     its first lying round until its window holds only lies
 * @param relativeStepFloor the floor of the same over the minimum: a liar scaling every sample
 * @param biasFloorMs the floor of the bias signal (RTT reported minus the distance to the server
 *     positioned without the landmark, median, ms): what a liar adds once its window holds only lies
 */
public record QuarantineConfig(
    double madFactor,
    double residualFloor,
    double spreadFloor,
    int quarantineAfter,
    int readmitAfter,
    double maxQuarantinedFraction,
    int maxServers,
    int minServers,
    double stepFloorMs,
    double relativeStepFloor,
    double biasFloorMs) {

  public QuarantineConfig {
    if (!(madFactor > 0) || !Double.isFinite(madFactor)) throw new IllegalArgumentException("madFactor must be > 0: " + madFactor);
    if (!(residualFloor >= 0) || !Double.isFinite(residualFloor)) {
      throw new IllegalArgumentException("residualFloor must be >= 0: " + residualFloor);
    }
    if (!(spreadFloor >= 0) || !Double.isFinite(spreadFloor)) {
      throw new IllegalArgumentException("spreadFloor must be >= 0: " + spreadFloor);
    }
    if (quarantineAfter < 1 || readmitAfter < 1) {
      throw new IllegalArgumentException("quarantineAfter and readmitAfter must be >= 1 round");
    }
    if (!(maxQuarantinedFraction >= 0 && maxQuarantinedFraction < 0.5)) {
      throw new IllegalArgumentException("maxQuarantinedFraction must be in [0, 0.5): " + maxQuarantinedFraction);
    }
    if (maxServers < 1 || minServers < 1) throw new IllegalArgumentException("maxServers and minServers must be >= 1");
    for (double f : new double[] {stepFloorMs, relativeStepFloor, biasFloorMs}) {
      if (!(f >= 0)) throw new IllegalArgumentException("step and bias floors must be >= 0 (infinite = off): " + f);
    }
  }

  /** The step and bias signals at their defaults. */
  public QuarantineConfig(double madFactor, double residualFloor, double spreadFloor, int quarantineAfter, int readmitAfter,
      double maxQuarantinedFraction, int maxServers, int minServers) {
    this(madFactor, residualFloor, spreadFloor, quarantineAfter, readmitAfter, maxQuarantinedFraction, maxServers,
        minServers, DEFAULT_STEP_FLOOR_MS, DEFAULT_RELATIVE_STEP_FLOOR, DEFAULT_BIAS_FLOOR_MS);
  }

  /** Default {@link #stepFloorMs()}. */
  public static final double DEFAULT_STEP_FLOOR_MS = 5;
  /** Default {@link #relativeStepFloor()}. */
  public static final double DEFAULT_RELATIVE_STEP_FLOOR = 0.05;
  /**
   * Default {@link #biasFloorMs()}: off. On the real matrices honest landmarks' biases range from
   * -13 to +38 ms (azure54, 4-D): the embedding's own error, larger than the lies worth catching.
   */
  public static final double DEFAULT_BIAS_FLOOR_MS = Double.POSITIVE_INFINITY;

  /** The defaults above. */
  public static QuarantineConfig defaults() {
    return new QuarantineConfig(5.0, 0.7, 0.05, 3, 3, 0.25, 200, 20);
  }

  /** The check switched off (the coordinator's {@code --no-landmark-quarantine}): nobody is ever quarantined. */
  public static QuarantineConfig off() {
    return defaults().withQuarantineAfter(Integer.MAX_VALUE);
  }

  /** False for {@link #off()}. */
  public boolean enabled() {
    return quarantineAfter != Integer.MAX_VALUE;
  }

  /** These settings with another {@code quarantineAfter} (tests, and the eval's runs with quarantine off). */
  public QuarantineConfig withQuarantineAfter(int rounds) {
    return new QuarantineConfig(madFactor, residualFloor, spreadFloor, rounds, readmitAfter, maxQuarantinedFraction,
        maxServers, minServers, stepFloorMs, relativeStepFloor, biasFloorMs);
  }
}
