package dev.reed.runtime;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * How a client's address appears in a log line: a player's address is personal data, so logs name
 * no client at any level unless the operator asks ({@code --log-client-addresses}), e.g. to find a
 * flood's source. Servers and landmarks are not clients and are logged as they are.
 *
 * @param shown true = the address itself; false = {@code "a client"}
 */
public record LoggedAddresses(boolean shown) {
  /** No client address in any log line (the default). */
  public static final LoggedAddresses HIDDEN = new LoggedAddresses(false);

  /** What a log line says for {@code client}. */
  public String of(InetAddress client) {
    return shown && client != null ? client.getHostAddress() : "a client";
  }

  /** What a log line says for {@code client} (address and port when shown). */
  public String of(SocketAddress client) {
    if (!shown || client == null) return "a client";
    return client instanceof InetSocketAddress isa && isa.getAddress() != null
        ? isa.getAddress().getHostAddress() + ":" + isa.getPort() : client.toString();
  }
}
