package dev.reed.coordinates.discovery;

import dev.reed.coordinates.Coordinate;

/**
 * A page of the ordered list the policy wants: GetOrderedServers from {@code from} at
 * {@code cursor} (empty for the first page). Answer it with {@link ProbeOrder#pageArrived} or
 * {@link ProbeOrder#pageFailed}, passing it back as given.
 *
 * @param generation which chain of pages it belongs to (a re-asked list starts a new chain, and late
 *     pages of the old one are dropped)
 */
public record PageRequest(Coordinate from, String cursor, int generation) {}
