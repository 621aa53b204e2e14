package dev.reed.client;

import dev.reed.probe.ProbeResult;

/** Decides when probing stops; sees every probe outcome once, in probe order. */
interface StopCondition {
  /** @return true to stop probing now */
  boolean observe(Candidate candidate, ProbeResult result);

  /** @return true if {@code next} should not be probed at all (and probing stops) */
  default boolean stopBefore(Candidate next) {
    return false;
  }

  /** Never stops: the loop ends when the list is exhausted. */
  StopCondition NEVER = (c, r) -> false;
}
