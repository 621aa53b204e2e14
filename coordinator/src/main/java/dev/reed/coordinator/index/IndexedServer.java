package dev.reed.coordinator.index;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.ServerAttributes;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.proto.v1.IntegrityKind;
import dev.reed.proto.v1.ServerCoordinate;
import java.util.function.UnaryOperator;

/**
 * What the index feed holds per server, in one map entry: the parts of its {@link RankedTemplate}
 * (whose record it makes on demand) and its entry in the ranking index.
 *
 * <p>Every replica holds one per server of the deployment and reads each server's coordinate
 * anew every round, so each object a server is held in is one more a young collection copies: the
 * feed once made eleven a server and round (docs/research/scale.md, ninth pass). Here they are
 * five: this, the template's bytes, the entry, its coordinate and the coordinate's array; the key
 * and the attributes are shared with the server's previous coordinate and with other servers.
 */
final class IndexedServer {
  private final byte[] bytes;
  private final int commonLength;
  private final int compactLength;
  private final int maxRef;
  private final IntegrityKind integrity;
  private final ServerEntry entry;

  IndexedServer(RankedTemplate template, ServerEntry entry) {
    this.bytes = template.bytes();
    this.commonLength = template.commonLength();
    this.compactLength = template.compactLength();
    this.maxRef = template.maxRef();
    this.integrity = template.integrity();
    this.entry = entry;
  }

  /**
   * A server from its coordinate record.
   *
   * @param numbers numbers the template's landmarks
   * @param names gives the one String the index shares per game and map name
   * @param attributes gives the one instance the index shares per set of equal attributes
   * @throws IllegalArgumentException when the coordinate is invalid (dimensions, NaN, negative height)
   */
  static IndexedServer of(String key, ServerCoordinate c, int dimensions, LandmarkNumbers numbers, UnaryOperator<String> names,
      UnaryOperator<ServerAttributes> attributes) {
    Coordinate coordinate = CoordinateCodec.fromProto(c.getCoordinate(), dimensions, "coordinate of " + key);
    ServerAttributes a = CoordinateCodec.attributes(c.getServerInfo(), c.getProtocol(), RankedTemplate.suspect(c), names);
    return new IndexedServer(RankedTemplate.of(c, numbers), new ServerEntry(key, coordinate, attributes.apply(a)));
  }

  /** What a ranking returns about the server but the predicted RTT, and the coordinate's other fields. */
  RankedTemplate template() {
    return new RankedTemplate(bytes, commonLength, compactLength, maxRef, integrity);
  }

  /** The server in the ranking index. */
  ServerEntry entry() {
    return entry;
  }

  /** The largest landmark number the template refers to, -1 for none. */
  int maxRef() {
    return maxRef;
  }

  /** The host integrity check's verdict. */
  IntegrityKind integrity() {
    return integrity;
  }
}
