package dev.reed.coordinates.discovery;

import dev.reed.coordinates.Coordinate;

/**
 * A server with a known, accurate coordinate that a client probes to position itself: a landmark's
 * beacon ({@code landmarkId} not empty: the landmark measured its RTT to every server, so the
 * client's RTT to it also bounds each server's) or a well-fitted game server.
 *
 * @param key the server's endpoint key (as {@code RankedCandidate#key})
 */
public record CalibrationPoint(String key, Coordinate coordinate, String landmarkId) {
  public CalibrationPoint {
    if (key == null || key.isEmpty() || coordinate == null || landmarkId == null) {
      throw new IllegalArgumentException("a calibration point needs a key, a coordinate and a landmark id (empty for none)");
    }
  }

  /** True for a landmark's beacon. */
  public boolean beacon() {
    return !landmarkId.isEmpty();
  }
}
