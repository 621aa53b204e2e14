package dev.reed.probe.master;

import java.io.ByteArrayOutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;

/** The 6-byte entry both master lists are made of: IPv4 address, then port, big-endian. */
final class Ipv4Entry {
  static final int SIZE = 6;

  private Ipv4Entry() {}

  static void write(ByteArrayOutputStream out, InetSocketAddress server) {
    if (!(server.getAddress() instanceof Inet4Address)) throw new IllegalArgumentException("not IPv4: " + server);
    out.writeBytes(server.getAddress().getAddress());
    out.write(server.getPort() >> 8);
    out.write(server.getPort());
  }

  /** Reads one entry; the caller checks that {@link #SIZE} bytes remain. */
  static InetSocketAddress read(ByteBuffer b) {
    byte[] ip = new byte[4];
    b.get(ip);
    return new InetSocketAddress(address(ip), b.getShort() & 0xFFFF);
  }

  static InetAddress address(byte[] octets) {
    try {
      return InetAddress.getByAddress(octets);
    } catch (UnknownHostException impossible) {
      throw new AssertionError(impossible); // four bytes are always an IPv4 address
    }
  }
}
