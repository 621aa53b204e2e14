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
   * Parses {@code ip:port} or {@code [ipv6]:port}; the address must be a literal.
   *
   * @throws IllegalArgumentException with a message naming the bad part
   */
  public static Endpoint parse(String text) {
    String s = text.strip();
    int colon = s.lastIndexOf(':');
    if (colon <= 0) throw new IllegalArgumentException("expected ip:port, got '" + text + "'");
    String host = s.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
    int port;
    try {
      port = Integer.parseInt(s.substring(colon + 1));
    } catch (NumberFormatException ex) {
      throw new IllegalArgumentException("bad port in '" + text + "'");
    }
    InetAddress address = literal(host);
    Endpoint e = Endpoint.newBuilder().setIp(address.getHostAddress()).setPort(port).build();
    validate(e);
    return e;
  }

  private static final java.util.regex.Pattern IPV4 =
      java.util.regex.Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
  private static final java.util.regex.Pattern IPV6 = java.util.regex.Pattern.compile("[0-9A-Fa-f:.]+(%\\w+)?");

  /** Parses a literal IP address without ever asking DNS (InetAddress.ofLiteral is JDK 22+). */
  static InetAddress literal(String ip) {
    boolean v4 = IPV4.matcher(ip).matches();
    boolean v6 = !v4 && ip.indexOf(':') >= 0 && IPV6.matcher(ip).matches();
    if (!v4 && !v6) throw new IllegalArgumentException("not a literal IP address: '" + ip + "'");
    try {
      return InetAddress.getByName(ip); // a literal is parsed, never looked up
    } catch (UnknownHostException ex) {
      throw new IllegalArgumentException("not a literal IP address: '" + ip + "'", ex);
    }
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
