package dev.reed.coordinates.discovery;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.Place;

/**
 * A page of the ordered list the policy wants: GetOrderedServers from {@code from} at
 * {@code cursor} (empty for the first page). Answer it with {@link ProbeOrder#pageArrived} or
 * {@link ProbeOrder#pageFailed}, passing it back as given.
 *
 * @param generation which chain of pages it belongs to (a re-asked list starts a new chain, and late
 *     pages of the old one are dropped)
 * @param location where the client is believed to be, for the coordinator's geographic predictions
 *     and fused order; null for none
 * @param locationDistrusted true when the coordinator placed the client but the calibration found
 *     that place inconsistent with its RTTs: the list is to be ordered by coordinates alone
 * @param landmarkRttMs the client's calibration RTT to each landmark beacon, by landmark id: the
 *     coordinator finds the clients that reported from near it by them; empty for none
 */
public record PageRequest(Coordinate from, String cursor, int generation, Place location, boolean locationDistrusted,
    java.util.Map<String, Double> landmarkRttMs) {
  public PageRequest {
    landmarkRttMs = java.util.Map.copyOf(landmarkRttMs);
  }

  /** A request without location. */
  public PageRequest(Coordinate from, String cursor, int generation) {
    this(from, cursor, generation, null, false);
  }

  /** A request without landmark RTTs. */
  public PageRequest(Coordinate from, String cursor, int generation, Place location, boolean locationDistrusted) {
    this(from, cursor, generation, location, locationDistrusted, java.util.Map.of());
  }
}
