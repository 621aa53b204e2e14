package dev.reed.coordinates.calibration;

import dev.reed.coordinates.Coordinate;

/**
 * A server (or landmark beacon) that could calibrate clients: its coordinate and fit quality.
 *
 * @param relativeError the fit's median relative error (lower is better)
 * @param anchorsUsed how many landmarks the fit used
 */
public record CalibrationCandidate(String key, Coordinate coordinate, double relativeError, int anchorsUsed) {
  public CalibrationCandidate {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("candidate key must not be empty");
    }
    if (coordinate == null) {
      throw new IllegalArgumentException("candidate " + key + " has no coordinate");
    }
    if (!Double.isFinite(relativeError) || relativeError < 0) {
      throw new IllegalArgumentException("candidate " + key + ": relativeError must be finite and >= 0, got " + relativeError);
    }
    if (anchorsUsed < 0) {
      throw new IllegalArgumentException("candidate " + key + ": anchorsUsed must be >= 0, got " + anchorsUsed);
    }
  }
}
