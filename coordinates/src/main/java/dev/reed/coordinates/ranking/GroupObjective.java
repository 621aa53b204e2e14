package dev.reed.coordinates.ranking;

/**
 * How a group of players scores a server (MUSST report, beyond the REED paper).
 * MIN_MAX: the worst member's predicted RTT (fairest server for the group).
 * MEAN_UNDER_CEILING: the members' mean predicted RTT, only servers where every member is under
 * the ceiling.
 */
public enum GroupObjective { MIN_MAX, MEAN_UNDER_CEILING }
