package dev.reed.agent.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** Parses the addresses operators type: {@code ADDR}, {@code ADDR:PORT}, {@code [v6]:PORT}, {@code :PORT}. */
public final class SocketAddresses {
  private SocketAddresses() {}

  /**
   * @param defaultPort used when the text has no port; -1 = a port is required
   * @throws IllegalArgumentException naming the text
   */
  public static InetSocketAddress parse(String text, int defaultPort) {
    String s = text.strip();
    String host = s;
    int port = defaultPort;
    int colon = s.lastIndexOf(':');
    boolean bracketed = s.startsWith("[");
    if (colon >= 0 && (bracketed ? s.indexOf(']') < colon : s.indexOf(':') == colon)) {
      host = s.substring(0, colon);
      try {
        port = Integer.parseInt(s.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("bad port in '" + text + "'");
      }
    }
    if (bracketed && host.endsWith("]")) host = host.substring(1, host.length() - 1);
    if (port < 0) throw new IllegalArgumentException("expected ADDR:PORT, got '" + text + "'");
    if (port > 65535) throw new IllegalArgumentException("port out of range 0-65535 in '" + text + "'");
    try {
      return new InetSocketAddress(host.isEmpty() ? InetAddress.getByName("0.0.0.0") : InetAddress.getByName(host), port);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("cannot resolve '" + host + "' in '" + text + "'");
    }
  }
}
