package dev.reed.client;

/** How a group ranking scores a server (beyond the paper; from the MUSST report). */
public enum GroupObjective {
  /** Ascending worst member's predicted RTT. */
  MIN_MAX,
  /** Ascending mean predicted RTT, only servers where every member is under the ceiling. */
  MEAN_UNDER_CEILING
}
