package dev.reed.coordinates.vivaldi;

import dev.reed.coordinates.Coordinate;

/**
 * A node's Vivaldi state: its coordinate and its error estimate (a running relative error in
 * [0, errorMax]; lower = more confident).
 */
public record VivaldiState(Coordinate coordinate, double error) {
  public VivaldiState {
    if (coordinate == null) {
      throw new IllegalArgumentException("coordinate must not be null");
    }
    if (!Double.isFinite(error) || error < 0) {
      throw new IllegalArgumentException("error must be finite and >= 0, got " + error);
    }
  }
}
