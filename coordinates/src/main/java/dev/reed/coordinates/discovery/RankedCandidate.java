package dev.reed.coordinates.discovery;

import dev.reed.coordinates.Coordinate;
import java.util.Map;

/**
 * A server of the coordinator's ordered list (Algorithm 4) as the policy orders it.
 *
 * @param key the server's endpoint key
 * @param coordinate its coordinate, or null when the coordinator did not send one (it is then
 *     ordered by {@code predictedMs} and takes no part in learning)
 * @param predictedMs the coordinator's predicted RTT from the position the list was asked from
 * @param landmarkRttMs the landmarks' windowed RTT to it, by landmark id (empty when none)
 */
public record RankedCandidate(String key, Coordinate coordinate, double predictedMs, Map<String, Double> landmarkRttMs) {
  public RankedCandidate {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("a ranked candidate needs a key");
    }
    landmarkRttMs = Map.copyOf(landmarkRttMs);
  }
}
