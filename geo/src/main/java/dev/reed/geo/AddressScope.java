package dev.reed.geo;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * Which addresses a database may be asked about: public unicast only. A private or loopback
 * address says nothing about where a host is (every home network is 192.168.x.x), so it gets no
 * location rather than whatever a database holds for it.
 */
final class AddressScope {
  private AddressScope() {}

  static boolean isLocatable(InetAddress a, boolean locateLoopback) {
    if (a.isLoopbackAddress()) return locateLoopback;
    if (a.isAnyLocalAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isMulticastAddress()) {
      return false;
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet4Address) {
      int o0 = b[0] & 0xFF;
      int o1 = b[1] & 0xFF;
      boolean thisNetwork = o0 == 0; // 0.0.0.0/8
      boolean shared = o0 == 100 && (o1 & 0xC0) == 64; // 100.64.0.0/10, carrier-grade NAT (RFC 6598)
      boolean reserved = o0 >= 240; // 240.0.0.0/4 and the broadcast address
      return !thisNetwork && !shared && !reserved;
    }
    if (a instanceof Inet6Address) {
      return (b[0] & 0xFE) != 0xFC; // fc00::/7, unique local (RFC 4193)
    }
    return false;
  }
}
