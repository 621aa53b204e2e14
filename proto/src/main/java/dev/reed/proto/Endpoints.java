package dev.reed.proto;

import dev.reed.proto.v1.Endpoint;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Conversions between {@link Endpoint} and Java socket addresses, and the canonical text form
 * ({@code 203.0.113.7:27960}, {@code [2001:db8::7]:27015}) used as the Kafka key of every record
 * that is keyed by server.
 */
public final class Endpoints {
  private Endpoints() {}

  /** The canonical text form. */
  public static String key(Endpoint e) {
    return e.getIp().indexOf(':') >= 0 ? "[" + e.getIp() + "]:" + e.getPort() : e.getIp() + ":" + e.getPort();
  }

  /** The canonical text form of a socket address (must be resolved). */
  public static String key(InetSocketAddress a) {
    return key(of(a));
  }

  /** An endpoint from a resolved socket address. */
  public static Endpoint of(InetSocketAddress a) {
    if (a.isUnresolved()) throw new IllegalArgumentException("unresolved address: " + a);
    return Endpoint.newBuilder().setIp(a.getAddress().getHostAddress()).setPort(a.getPort()).build();
  }

  /** A socket address from an endpoint; the ip must be a literal address. */
  public static InetSocketAddress toSocketAddress(Endpoint e) {
    validate(e);
    return new InetSocketAddress(literal(e.getIp()), e.getPort());
  }

  /**
   * A host and a port as an operator or a peer wrote them, split but not resolved.
   *
   * @param host a literal address or a host name, without brackets; empty = every local address
   * @param port 0-65535
   */
  public record HostPort(String host, int port) {}

  /**
   * The one {@code host:port} splitter of the project: {@code HOST:PORT}, {@code [v6]:PORT},
   * {@code HOST}, {@code :PORT}. When the port is required ({@code defaultPort} -1), the last
   * colon always starts the port, so {@code 2001:db8::7:27015} is an IPv6 address and a port; with
   * a default port an unbracketed text with several colons is an IPv6 address alone.
   *
   * @param defaultPort the port when the text has none; -1 = the text must have a host and a port
   * @throws IllegalArgumentException with a message naming the bad part
   */
  public static HostPort hostPort(String text, int defaultPort) {
    String s = text.strip();
    boolean bracketed = s.startsWith("[");
    int colon = s.lastIndexOf(':');
    boolean hasPort = colon >= 0
        && (bracketed ? s.indexOf(']') < colon : defaultPort < 0 || s.indexOf(':') == colon);
    String host = hasPort ? s.substring(0, colon) : s;
    int port = defaultPort;
    if (hasPort) {
      try {
        port = Integer.parseInt(s.substring(colon + 1));
      } catch (NumberFormatException e) {
        if (colon == s.length() - 1) throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
        throw new IllegalArgumentException("bad port in '" + text + "'");
      }
    }
    if (bracketed && host.endsWith("]")) host = host.substring(1, host.length() - 1);
    if (port < 0 || (defaultPort < 0 && host.isEmpty())) throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
    if (port > 65535) throw new IllegalArgumentException("port out of range 0-65535 in '" + text + "'");
    return new HostPort(host, port);
  }

  /**
   * Parses {@code ip:port} or {@code [ipv6]:port}; the address must be a literal.
   *
   * @throws IllegalArgumentException with a message naming the bad part
   */
  public static Endpoint parse(String text) {
    HostPort hp = hostPort(text, -1);
    InetAddress address = literal(hp.host());
    Endpoint e = Endpoint.newBuilder().setIp(address.getHostAddress()).setPort(hp.port()).build();
    validate(e);
    return e;
  }

  /**
   * Parses an address an operator typed ({@link #hostPort} forms) into a socket address; a host
   * name is resolved now, an empty host is every local address.
   *
   * @throws IllegalArgumentException naming the text when it is malformed or does not resolve
   */
  public static InetSocketAddress socketAddress(String text, int defaultPort) {
    HostPort hp = hostPort(text, defaultPort);
    try {
      return new InetSocketAddress(hp.host().isEmpty() ? InetAddress.getByName("0.0.0.0") : InetAddress.getByName(hp.host()), hp.port());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("cannot resolve '" + hp.host() + "' in '" + text + "'");
    }
  }

  private static final java.util.regex.Pattern IPV6 = java.util.regex.Pattern.compile("[0-9A-Fa-f:.]+(%\\w+)?");

  /**
   * Parses a literal IP address without ever asking DNS (InetAddress.ofLiteral is JDK 22+).
   * Dotted-quad IPv4, what every probe's target is, is parsed by hand: a regex per probe was 7 %
   * of what the demo's 30 agents allocated (docs/research/scale.md).
   *
   * @throws IllegalArgumentException the text is not a literal address
   */
  public static InetAddress literal(String ip) {
    byte[] v4 = ipv4(ip);
    try {
      if (v4 != null) return InetAddress.getByAddress(v4);
      if (ip.indexOf(':') < 0 || !IPV6.matcher(ip).matches()) {
        throw new IllegalArgumentException("not a literal IP address: '" + ip + "'");
      }
      return InetAddress.getByName(ip); // a literal is parsed, never looked up
    } catch (UnknownHostException ex) {
      throw new IllegalArgumentException("not a literal IP address: '" + ip + "'", ex);
    }
  }

  /** The four bytes of a dotted quad (decimal, 0-255, no leading zeros), or null. */
  private static byte[] ipv4(String ip) {
    byte[] out = new byte[4];
    int part = 0;
    int i = 0;
    int n = ip.length();
    while (part < 4) {
      int start = i;
      int value = 0;
      while (i < n && i - start < 3 && ip.charAt(i) >= '0' && ip.charAt(i) <= '9') {
        value = value * 10 + (ip.charAt(i++) - '0');
      }
      int digits = i - start;
      if (digits == 0 || value > 255 || (digits > 1 && ip.charAt(start) == '0')) return null;
      out[part++] = (byte) value;
      if (part < 4) {
        if (i >= n || ip.charAt(i) != '.') return null;
        i++;
      }
    }
    return i == n ? out : null;
  }

  /** Checks port range and that the ip is present. */
  public static void validate(Endpoint e) {
    if (e.getIp().isEmpty()) throw new IllegalArgumentException("endpoint has no ip");
    if (e.getPort() < 1 || e.getPort() > 65535) {
      throw new IllegalArgumentException("port out of range 1-65535: " + e.getPort());
    }
  }

  /** Resolves a host name (for operator input such as --kafka or target files) to an endpoint. */
  public static Endpoint resolve(String host, int port) throws UnknownHostException {
    return of(new InetSocketAddress(InetAddress.getByName(host), port));
  }
}
