package dev.reed.coordinator.index.read;

import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.ServerAttributes;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.proto.v1.ServerCoordinate;
import java.util.function.UnaryOperator;

/**
 * One server as the index holds it, decoded from its coordinate record: its {@link RankedTemplate}
 * and its entry in the ranking index. A value in passing: on its way into the feed's servers
 * ({@code index.write.FeedServers}) or a checkpoint, or a server of a state's {@link StateServers}
 * made on demand; neither keeps one per server.
 */
public record DecodedServer(RankedTemplate template, ServerEntry entry) {

  /**
   * A server from its coordinate record.
   *
   * @param numbers numbers the template's landmarks
   * @param names gives the one String the index shares per game and map name
   * @param attributes gives the one instance the index shares per set of equal attributes
   * @throws IllegalArgumentException when the coordinate is invalid (dimensions, NaN, negative height)
   */
  public static DecodedServer of(String key, ServerCoordinate c, int dimensions, LandmarkNumbers numbers, UnaryOperator<String> names,
      UnaryOperator<ServerAttributes> attributes) {
    Coordinate coordinate = CoordinateCodec.fromProto(c.getCoordinate(), dimensions, "coordinate of " + key);
    ServerAttributes a = CoordinateCodec.attributes(c.getServerInfo(), c.getProtocol(), RankedTemplate.suspect(c), names);
    return new DecodedServer(RankedTemplate.of(c, numbers), new ServerEntry(key, coordinate, attributes.apply(a)));
  }
}
