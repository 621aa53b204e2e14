package dev.reed.coordinates.ranking;

/**
 * Filter on servers the host integrity check flags ({@link ServerAttributes#suspect}): any, only
 * unflagged ones, or only flagged ones (the two halves of a demoted ranking).
 */
public enum SuspectRule { ANY, EXCLUDE, ONLY }
