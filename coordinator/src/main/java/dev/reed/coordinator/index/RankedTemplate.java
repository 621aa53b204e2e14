package dev.reed.coordinator.index;

import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ServerCoordinate;

/**
 * A server as rankings return it (endpoint, protocol, server info, stability, fit, the landmarks'
 * RTTs to it, its coordinate), everything
 * but the predicted RTT, built once per coordinate update instead of once per query: as a message
 * for the streaming and group calls, and pre-encoded for GetOrderedServers, whose responses are
 * assembled from these bytes (protobuf allows appending the predicted_rtt_us field after them).
 *
 * @param message the RankedServer without predicted_rtt_us
 * @param encoded {@code message.toByteArray()}
 */
public record RankedTemplate(RankedServer message, byte[] encoded) {
  /** Whether the host integrity check flags the server (anything but OK or unchecked). */
  public static boolean suspect(ServerCoordinate c) {
    dev.reed.proto.v1.IntegrityKind k = c.getIntegrity().getKind();
    return k == dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_ANYCAST_OR_PROXY
        || k == dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_INCONSISTENT;
  }

  public static RankedTemplate of(ServerCoordinate c) {
    RankedServer m = RankedServer.newBuilder().setEndpoint(c.getEndpoint()).setProtocol(c.getProtocol())
        .setServerInfo(c.getServerInfo()).setStability(c.getStability()).setFit(c.getFit()).addAllLandmarkRtts(c.getLandmarkRttsList())
        .setCoordinate(c.getCoordinate()).build();
    if (c.hasIntegrity()) {
      m = m.toBuilder().setIntegrity(c.getIntegrity()).setPredictedRttUnreliable(suspect(c)).build();
    }
    return new RankedTemplate(m, m.toByteArray());
  }
}
