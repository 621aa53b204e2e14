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
 * @param maxConnectionsPerAddress open connections one remote address may hold, 1-1000
 * @param messagesPerSecond frames per second one remote address may send over all its connections
 *     (token bucket, burst = one second's worth), > 0
 */
public record WsBeaconConfig(InetSocketAddress bind, InetSocketAddress advertise, Path tlsCert, Path tlsKey,
    List<String> origins, int maxConnectionsPerAddress, double messagesPerSecond) {

  /** Largest frame payload echoed, in bytes; a larger frame closes the connection with 1009. */
  public static final int MAX_FRAME_BYTES = 64;
  /** Default open connections per remote address: a page holds one per landmark at a time. */
  public static final int DEFAULT_MAX_CONNECTIONS = 8;
  /** Default frames per second per remote address: a page pings each landmark a few times. */
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
    if (maxConnectionsPerAddress < 1 || maxConnectionsPerAddress > 1000) {
      throw new IllegalArgumentException("WebSocket connections per address must be 1-1000, got " + maxConnectionsPerAddress);
    }
    if (!(messagesPerSecond > 0) || Double.isInfinite(messagesPerSecond)) {
      throw new IllegalArgumentException("WebSocket messages per second must be > 0, got " + messagesPerSecond);
    }
  }

  /** Plain {@code ws://}, any origin, default limits. */
  public static WsBeaconConfig of(InetSocketAddress bind) {
    return new WsBeaconConfig(bind, null, null, null, List.of(), DEFAULT_MAX_CONNECTIONS, DEFAULT_MESSAGES_PER_SECOND);
  }

  public boolean tls() {
    return tlsCert != null;
  }
}
