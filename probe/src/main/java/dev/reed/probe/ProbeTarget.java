package dev.reed.probe;

import dev.reed.proto.v1.GameProtocol;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A game server to probe: a resolved UDP address (coordinates belong to addresses, never names)
 * and the query protocol it answers.
 */
public record ProbeTarget(InetSocketAddress address, GameProtocol protocol) {
  public ProbeTarget {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(protocol, "protocol");
    if (address.isUnresolved()) {
      throw new IllegalArgumentException("unresolved target address " + address + ": give an IP literal");
    }
    if (protocol != GameProtocol.GAME_PROTOCOL_A2S && protocol != GameProtocol.GAME_PROTOCOL_QUAKE3) {
      throw new IllegalArgumentException("cannot probe protocol " + protocol);
    }
  }

  public static ProbeTarget a2s(InetSocketAddress address) {
    return new ProbeTarget(address, GameProtocol.GAME_PROTOCOL_A2S);
  }

  public static ProbeTarget quake3(InetSocketAddress address) {
    return new ProbeTarget(address, GameProtocol.GAME_PROTOCOL_QUAKE3);
  }
}
