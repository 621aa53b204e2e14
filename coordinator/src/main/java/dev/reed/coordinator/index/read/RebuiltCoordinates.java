package dev.reed.coordinator.index.read;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ServerCoordinate;
import java.util.List;
import java.util.Map;

/**
 * The servers' coordinates as the feed read them, rebuilt on each read from the server's {@link
 * RankedTemplate} (which holds the endpoint, protocol, server info, stability, fit, coordinate,
 * integrity and, as ~4 bytes a landmark, the landmark RTTs, and after them the few bytes a
 * ranking does not return: update time, round, placement, {@link #rest}). Every replica holds every server,
 * and parsed coordinates with their {@code LandmarkRtt} objects were the largest item of a
 * replica's heap in a class histogram at 50,000 x 15 (docs/research/scale.md). A read
 * costs a parse: callers that read every server often (the metrics) count from the templates.
 *
 * <p>Immutable, like the state that holds it.
 */
final class RebuiltCoordinates extends DerivedServerMap<ServerCoordinate> {
  private final Map<String, DecodedServer> servers;
  private final List<String> landmarkIds;
  private final boolean withLandmarkRtts;

  /**
   * @param servers per server key, its template and the coordinate's fields a template does not hold
   * @param landmarkIds the table of the templates' landmark numbers
   */
  RebuiltCoordinates(Map<String, DecodedServer> servers, List<String> landmarkIds) {
    this(servers, landmarkIds, true);
  }

  private RebuiltCoordinates(Map<String, DecodedServer> servers, List<String> landmarkIds, boolean withLandmarkRtts) {
    super(servers, s -> whole(s, landmarkIds, withLandmarkRtts));
    this.servers = servers;
    this.landmarkIds = landmarkIds;
    this.withLandmarkRtts = withLandmarkRtts;
  }

  /** The same servers' templates, by key. */
  Map<String, RankedTemplate> templates() {
    return new DerivedServerMap<>(servers, DecodedServer::template);
  }

  /** What of {@code c} a template of it does not hold. */
  static byte[] rest(ServerCoordinate c) {
    return c.toBuilder().clearEndpoint().clearProtocol().clearServerInfo().clearStability().clearFit().clearCoordinate()
        .clearIntegrity().clearLandmarkRtts().build().toByteArray();
  }

  /** The same coordinates without landmark_rtts, cheaper to read. */
  Map<String, ServerCoordinate> withoutLandmarkRtts() {
    return withLandmarkRtts ? new RebuiltCoordinates(servers, landmarkIds, false) : this;
  }

  private static ServerCoordinate whole(DecodedServer server, List<String> landmarkIds, boolean withLandmarkRtts) {
    RankedTemplate t = server.template();
    try {
      ServerCoordinate.Builder b = ServerCoordinate.newBuilder();
      t.mergeRest(b);
      RankedServer s = t.parseCommon();
      b.setProtocol(s.getProtocol());
      if (s.hasEndpoint()) b.setEndpoint(s.getEndpoint());
      if (s.hasServerInfo()) b.setServerInfo(s.getServerInfo());
      if (s.hasStability()) b.setStability(s.getStability());
      if (s.hasFit()) b.setFit(s.getFit());
      if (s.hasCoordinate()) b.setCoordinate(s.getCoordinate());
      if (s.hasIntegrity()) b.setIntegrity(s.getIntegrity());
      if (withLandmarkRtts && t.compactLength() > 0) b.addAllLandmarkRtts(t.landmarkRtts(landmarkIds));
      return b.build();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("the index's own bytes of a server do not parse", e);
    }
  }
}
