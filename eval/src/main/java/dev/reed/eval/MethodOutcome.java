package dev.reed.eval;

import java.util.Map;

/**
 * How one method (REED or a baseline) did for one client, in the figures every method shares.
 *
 * @param client node index
 * @param calibrationProbes probes the method sent before its order
 * @param precisionAt10 First P@N_close
 * @param allNearestSeen probes (calibration included) until all N_close nearest had been probed
 * @param policies outcome per auto-stop policy
 */
record MethodOutcome(int client, int calibrationProbes, double precisionAt10, int allNearestSeen,
    Map<String, PolicyOutcome> policies) {

  /** REED's (or a REED-engine baseline's) client in these terms. */
  static MethodOutcome of(ClientResult r) {
    return new MethodOutcome(r.client(), r.calibrationProbes(), r.precisionAt10(), r.allNearestSeen(), r.policies());
  }
}
