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
 * @param reportFactor what clients near the asking client reported, as a factor on the coordinate
 *     distance from where the page was asked, floored at 1 ms (1 = nothing reported there;
 *     {@code reports.NeighbourhoodCorrections})
 * @param demoted handed out after every candidate that is not (the coordinator's integrity check
 *     flags it and the client demotes such servers: its prediction is unreliable)
 */
public record RankedCandidate(String key, Coordinate coordinate, double predictedMs, Map<String, Double> landmarkRttMs,
    double geoMs, Place place, double reportFactor, boolean demoted) {
  /** A candidate that is not demoted. */
  public RankedCandidate(String key, Coordinate coordinate, double predictedMs, Map<String, Double> landmarkRttMs,
      double geoMs, Place place, double reportFactor) {
    this(key, coordinate, predictedMs, landmarkRttMs, geoMs, place, reportFactor, false);
  }

  /** A candidate without location. */
  public RankedCandidate(String key, Coordinate coordinate, double predictedMs, Map<String, Double> landmarkRttMs) {
    this(key, coordinate, predictedMs, landmarkRttMs, Double.NaN, null);
  }

  /** A candidate without report correction. */
  public RankedCandidate(String key, Coordinate coordinate, double predictedMs, Map<String, Double> landmarkRttMs,
      double geoMs, Place place) {
    this(key, coordinate, predictedMs, landmarkRttMs, geoMs, place, 1.0);
  }

  public RankedCandidate {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("a ranked candidate needs a key");
    }
    if (!(reportFactor > 0) || Double.isInfinite(reportFactor)) {
      throw new IllegalArgumentException("reportFactor must be finite and > 0: " + reportFactor);
    }
    landmarkRttMs = Map.copyOf(landmarkRttMs);
  }
}
