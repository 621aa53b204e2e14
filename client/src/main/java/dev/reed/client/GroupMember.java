package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import java.util.Objects;

/**
 * A player in a group, by coordinate (each player positions themselves, e.g. with
 * {@link ReedClient#locate()}, and shares the coordinate).
 *
 * @param id a label for messages ("alice")
 * @param coordinate the player's coordinate
 */
public record GroupMember(String id, Coordinate coordinate) {
  public GroupMember {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(coordinate, "coordinate");
  }
}
