package dev.reed.geo;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * An address as one unsigned 128-bit number, IPv4 mapped into {@code ::ffff:0:0/96} (RFC 4291),
 * so IPv4 and IPv6 ranges sort and compare alike.
 */
record IpKey(long hi, long lo) implements Comparable<IpKey> {
  private static final long V4_MAPPED = 0xFFFF_0000_0000L;

  static IpKey of(InetAddress address) {
    byte[] b = address.getAddress();
    if (address instanceof Inet4Address) {
      return new IpKey(0, V4_MAPPED | (((b[0] & 0xFFL) << 24) | ((b[1] & 0xFFL) << 16) | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL)));
    }
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < 8; i++) hi = (hi << 8) | (b[i] & 0xFFL);
    for (int i = 8; i < 16; i++) lo = (lo << 8) | (b[i] & 0xFFL);
    return new IpKey(hi, lo);
  }

  static int compare(long hiA, long loA, long hiB, long loB) {
    int c = Long.compareUnsigned(hiA, hiB);
    return c != 0 ? c : Long.compareUnsigned(loA, loB);
  }

  @Override
  public int compareTo(IpKey o) {
    return compare(hi, lo, o.hi, o.lo);
  }
}
