package dev.reed.client;

import dev.reed.probe.ProbeResult;

/** Decides when probing stops; sees every probe outcome once. */
interface StopCondition {
  /** @return true to stop probing now */
  boolean observe(Candidate candidate, ProbeResult result);

  /** @return true if {@code next} should not be probed at all (and probing stops) */
  default boolean stopBefore(Candidate next) {
    return false;
  }

  /**
   * True (the default) to see outcomes in probe order, as Algorithms 5 and 6 reason about the
   * probe sequence; false to see them as they arrive.
   */
  default boolean inProbeOrder() {
    return true;
  }

  /** A time at which to stop even without another outcome (ticker nanos), or Long.MAX_VALUE for none. */
  default long stopAtNanos() {
    return Long.MAX_VALUE;
  }

  /** Never stops: the loop ends when the list is exhausted. */
  StopCondition NEVER = (c, r) -> false;
}
