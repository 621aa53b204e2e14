package dev.reed.coordinator.frontend;

import dev.reed.proto.v1.ServerInfo;
import java.net.Inet4Address;
import java.net.InetSocketAddress;

/**
 * A server a master front end may list: its address and the latest info the landmarks or the
 * heartbeat check saw ({@link ServerInfo#getDefaultInstance()} when nothing is known yet).
 */
public record ListedServer(InetSocketAddress address, ServerInfo info) {
  public ListedServer {
    if (info == null) info = ServerInfo.getDefaultInstance();
  }

  /** Master lists carry 6-byte IPv4 entries only. */
  boolean ipv4() {
    return address.getAddress() instanceof Inet4Address;
  }

  /** Unsigned IPv4 address then port: the order Valve-style cursor paging walks. */
  long order() {
    byte[] a = address.getAddress().getAddress();
    long ip = ((a[0] & 0xffL) << 24) | ((a[1] & 0xffL) << 16) | ((a[2] & 0xffL) << 8) | (a[3] & 0xffL);
    return (ip << 16) | address.getPort();
  }
}
