package dev.reed.client;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A server that answered this client's probe.
 *
 * @param address where it answered
 * @param protocol how it was probed
 * @param rttMs RTT this client measured, in ms
 * @param predictedMs RTT the coordinator predicted, in ms; NaN in traditional discovery
 * @param info what the server itself said in its reply (name, map, players ...)
 * @param probeIndex position of the probe in this discovery's probe order (0-based)
 */
public record DiscoveredServer(InetSocketAddress address, GameProtocol protocol, double rttMs,
    double predictedMs, ServerInfo info, int probeIndex) {

  public DiscoveredServer {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(info, "info");
  }

  /** Canonical "ip:port". */
  public String key() {
    return Endpoints.key(address);
  }

  public String name() {
    return info.getName();
  }

  public String map() {
    return info.getMap();
  }

  public int players() {
    return info.getPlayers();
  }

  public int maxPlayers() {
    return info.getMaxPlayers();
  }
}
