package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import java.util.Objects;

/**
 * Where the client sits in the coordinate space (ms), and how it got there.
 *
 * @param coordinate the client's coordinate
 * @param relativeError median |predicted - measured| / measured over the anchors used
 * @param anchorsUsed calibration servers (or measured servers) that contributed
 * @param source solved locally, or by the coordinator's Locate RPC
 */
public record ClientPosition(Coordinate coordinate, double relativeError, int anchorsUsed, Source source) {

  /** Who solved the position. */
  public enum Source { LOCAL, LOCATE_RPC, GIVEN }

  public ClientPosition {
    Objects.requireNonNull(coordinate, "coordinate");
    Objects.requireNonNull(source, "source");
  }
}
