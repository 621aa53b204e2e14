package dev.reed.coordinates.discovery;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.Place;
import java.util.Map;

/**
 * A server of the coordinator's ordered list (Algorithm 4) as the policy orders it.
 *
 * @param key the server's endpoint key
 * @param coordinate its coordinate, or null when the coordinator did not send one (it is then
 *     ordered by {@code predictedMs} and takes no part in learning)
 * @param predictedMs the coordinator's predicted RTT from the position the list was asked from
 * @param landmarkRttMs the landmarks' windowed RTT to it, by landmark id (empty when none)
 * @param geoMs the coordinator's geographic prediction from the client's location prior, NaN when
 *     either location is unknown
 * @param place where the server is, or null when unknown
 */
public record RankedCandidate(String key, Coordinate coordinate, double predictedMs, Map<String, Double> landmarkRttMs,
    double geoMs, Place place) {
  /** A candidate without location. */
  public RankedCandidate(String key, Coordinate coordinate, double predictedMs, Map<String, Double> landmarkRttMs) {
    this(key, coordinate, predictedMs, landmarkRttMs, Double.NaN, null);
  }

  public RankedCandidate {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("a ranked candidate needs a key");
    }
    landmarkRttMs = Map.copyOf(landmarkRttMs);
  }
}
