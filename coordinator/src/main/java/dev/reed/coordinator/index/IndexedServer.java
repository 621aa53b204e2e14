package dev.reed.coordinator.index;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.ServerAttributes;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.proto.v1.ServerCoordinate;
import java.util.function.UnaryOperator;

/**
 * What the index feed holds per server, in one map entry: every replica holds one per server of
 * the deployment, and three maps (template, rest, entry) cost two more hash nodes and table slots a
 * server than one.
 *
 * @param template what a ranking returns about the server but the predicted RTT
 * @param rest the coordinate's fields the template lacks, encoded ({@link ServerCoordinates#rest})
 * @param entry the server in the ranking index
 */
record IndexedServer(RankedTemplate template, byte[] rest, ServerEntry entry) {
  /**
   * A server from its coordinate record.
   *
   * @param numbers numbers the template's landmarks
   * @param names gives the one String the index shares per game and map name
   * @throws IllegalArgumentException when the coordinate is invalid (dimensions, NaN, negative height)
   */
  static IndexedServer of(String key, ServerCoordinate c, int dimensions, LandmarkNumbers numbers, UnaryOperator<String> names) {
    Coordinate coordinate = CoordinateCodec.fromProto(c.getCoordinate(), dimensions, "coordinate of " + key);
    ServerAttributes a = CoordinateCodec.attributes(c.getServerInfo(), c.getProtocol(), RankedTemplate.suspect(c), names);
    return new IndexedServer(RankedTemplate.of(c, numbers), ServerCoordinates.rest(c), new ServerEntry(key, coordinate, a));
  }
}
