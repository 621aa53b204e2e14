package dev.reed.client;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import java.net.InetSocketAddress;
import java.util.Objects;

/** A server address from a list (master server, coordinator), not yet probed. */
public record ListedServer(InetSocketAddress address, GameProtocol protocol) {
  public ListedServer {
    Objects.requireNonNull(address, "address");
    if (address.isUnresolved()) throw new IllegalArgumentException("unresolved address: " + address);
    if (protocol != GameProtocol.GAME_PROTOCOL_A2S && protocol != GameProtocol.GAME_PROTOCOL_QUAKE3) {
      throw new IllegalArgumentException("protocol must be A2S or QUAKE3: " + protocol);
    }
  }

  public String key() {
    return Endpoints.key(address);
  }
}
