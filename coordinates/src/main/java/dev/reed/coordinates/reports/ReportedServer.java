package dev.reed.coordinates.reports;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.Place;
import java.util.Map;

/**
 * What the coordinator knows of a reported server when a report arrives.
 *
 * @param coordinate its coordinate
 * @param landmarkRttMs the landmarks' RTT to it, by landmark id (ms)
 * @param place where it is, or null when unknown
 */
public record ReportedServer(Coordinate coordinate, Map<String, Double> landmarkRttMs, Place place) {
  public ReportedServer {
    if (coordinate == null) {
      throw new IllegalArgumentException("a reported server needs a coordinate");
    }
    landmarkRttMs = Map.copyOf(landmarkRttMs);
  }
}
