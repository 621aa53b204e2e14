package dev.reed.eval;

import dev.reed.coordinates.reports.ReportConfig;

/**
 * Client reports in the evaluation: with {@code half}, every other client (in node
 * order) discovers first and reports what it measured; the rest are scored against a coordinator
 * that learned from those reports, and only they are in the results. With {@code withheld} the same
 * half is scored against a coordinator that learned nothing: the baseline on the same clients.
 *
 * @param half whether half the clients report
 * @param withheld whether only the scored half is evaluated, and the reports withheld
 * @param liars fraction of reporters that lie (0-1)
 * @param liarKind how they lie
 * @param config the coordinator's report learning
 * @param attack an attacker's fabricated reports, learned after the honest ones ({@link ReportAttack})
 */
public record ReportSimulation(boolean half, boolean withheld, double liars, LiarKind liarKind, ReportConfig config,
    ReportAttack attack) {

  /** Without an attacker. */
  public ReportSimulation(boolean half, boolean withheld, double liars, LiarKind liarKind, ReportConfig config) {
    this(half, withheld, liars, liarKind, config, ReportAttack.none());
  }

  /** How a lying reporter lies. */
  public enum LiarKind {
    /** 5 ms to every server it probed. */
    FIVE_MS,
    /** A uniformly random RTT in 1-500 ms to every server it probed. */
    RANDOM
  }

  public ReportSimulation {
    if (!(liars >= 0 && liars <= 1)) {
      throw new IllegalArgumentException("--liars must be within 0-1: " + liars);
    }
    if (liarKind == null || config == null || attack == null) {
      throw new IllegalArgumentException("liarKind, config and attack are required");
    }
    if (attack.on() && !half) {
      throw new IllegalArgumentException("--report-attack needs --reports half");
    }
    if (half && withheld) {
      throw new IllegalArgumentException("reports are learned (half) or withheld, not both");
    }
    if (liars > 0 && !half) {
      throw new IllegalArgumentException("--liars needs --reports half");
    }
  }

  /** Whether only every other client is scored. */
  public boolean split() {
    return half || withheld;
  }

  /** No reports. */
  public static ReportSimulation none() {
    return new ReportSimulation(false, false, 0, LiarKind.FIVE_MS, ReportConfig.defaults());
  }
}
