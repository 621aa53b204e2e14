package dev.reed.agent.beacon;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Settings of the landmark's WebSocket beacon ({@code --ws-beacon} and friends).
 *
 * @param bind where it listens
 * @param advertise host and port put in the announced URL; null = the bound address when it is a
 *     specific one, else the UDP beacon's announced host with the bound port
 * @param tlsCert PEM certificate chain (then the URL is {@code wss://}), or null for plain {@code ws://}
 * @param tlsKey PEM private key (PKCS#8) for {@code tlsCert}, or null
 * @param origins allowed values of the {@code Origin} header (e.g. {@code https://servers.example});
 *     empty = any origin (the beacon only echoes, so any page may use it)
 * @param maxConnectionsPerPrefix open connections one network prefix (/24 of IPv4, /56 of IPv6) may
 *     hold, 1-1000
 * @param messagesPerSecond frames per second one network prefix may send over all its connections,
 *     PINGs included (token bucket, burst = two seconds' worth), > 0
 * @param logClientAddresses true = refusals name the client's address at DEBUG
 *     ({@code --log-client-addresses}); false = no client address in any log line
 */
public record WsBeaconConfig(InetSocketAddress bind, InetSocketAddress advertise, Path tlsCert, Path tlsKey,
    List<String> origins, int maxConnectionsPerPrefix, double messagesPerSecond, boolean logClientAddresses) {

  /** Largest frame payload echoed, in bytes; a larger frame closes the connection with 1009. */
  public static final int MAX_FRAME_BYTES = 64;
  /**
   * Default open connections per network prefix: a page holds one per landmark at a time, and a
   * flood from one host's many addresses fills its prefix's 8, not the beacon's 8,000.
   */
  public static final int DEFAULT_MAX_CONNECTIONS = 8;
  /** Default frames per second per network prefix: a page pings each landmark a few times. */
  public static final double DEFAULT_MESSAGES_PER_SECOND = 20;

  public WsBeaconConfig {
    Objects.requireNonNull(bind, "bind");
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--ws-tls-cert and --ws-tls-key go together");
    }
    origins = origins == null ? List.of() : origins.stream().map(String::strip).filter(o -> !o.isEmpty()).toList();
    for (String o : origins) {
      if (!o.equals("null") && !o.matches("https?://[^/\\s]+")) {
        throw new IllegalArgumentException("an allowed origin is SCHEME://HOST[:PORT] without a path, e.g. "
            + "https://servers.example, got '" + o + "'");
      }
    }
    if (maxConnectionsPerPrefix < 1 || maxConnectionsPerPrefix > 1000) {
      throw new IllegalArgumentException("WebSocket connections per network prefix must be 1-1000, got " + maxConnectionsPerPrefix);
    }
    if (!(messagesPerSecond > 0) || Double.isInfinite(messagesPerSecond)) {
      throw new IllegalArgumentException("WebSocket messages per second must be > 0, got " + messagesPerSecond);
    }
  }

  /** Client addresses not logged. */
  public WsBeaconConfig(InetSocketAddress bind, InetSocketAddress advertise, Path tlsCert, Path tlsKey,
      List<String> origins, int maxConnectionsPerPrefix, double messagesPerSecond) {
    this(bind, advertise, tlsCert, tlsKey, origins, maxConnectionsPerPrefix, messagesPerSecond, false);
  }

  /** Plain {@code ws://}, any origin, default limits. */
  public static WsBeaconConfig of(InetSocketAddress bind) {
    return new WsBeaconConfig(bind, null, null, null, List.of(), DEFAULT_MAX_CONNECTIONS, DEFAULT_MESSAGES_PER_SECOND);
  }

  public boolean tls() {
    return tlsCert != null;
  }
}
