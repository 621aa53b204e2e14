package dev.reed.coordinates.ranking;

import dev.reed.coordinates.Coordinate;

/** One rankable server: its canonical key ("ip:port"), coordinate and attributes. */
public record ServerEntry(String key, Coordinate coordinate, ServerAttributes attributes) {
  public ServerEntry {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("server key must not be empty");
    }
    if (coordinate == null) {
      throw new IllegalArgumentException("server " + key + " has no coordinate");
    }
    attributes = attributes == null ? ServerAttributes.unknown() : attributes;
  }
}
