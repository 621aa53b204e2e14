package dev.reed.client;

import dev.reed.probe.master.MasterListClient;
import dev.reed.proto.v1.GameProtocol;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * A master server's list as a {@link ServerListSource}: the wire protocols and the fetch are
 * {@link MasterListClient}'s; this adds the protocol tag and the SDK's error kind.
 */
final class MasterServerList implements ServerListSource {
  /** After the first Quake3 packet, this much silence ends the list (some masters omit EOT). */
  private static final Duration QUAKE3_QUIET_END = Duration.ofMillis(300);
  private static final int MAX_PAGES = 1000;

  private final GameProtocol protocol;
  private final InetSocketAddress master;
  private final int quake3Protocol;
  private final String valveFilter;

  private MasterServerList(GameProtocol protocol, InetSocketAddress master, int quake3Protocol, String valveFilter) {
    if (master.isUnresolved()) throw new IllegalArgumentException("unresolved master address: " + master);
    this.protocol = protocol;
    this.master = master;
    this.quake3Protocol = quake3Protocol;
    this.valveFilter = valveFilter == null ? "" : valveFilter;
  }

  static MasterServerList quake3(InetSocketAddress master, int protocol) {
    if (protocol < 1) throw new IllegalArgumentException("protocol must be >= 1: " + protocol);
    return new MasterServerList(GameProtocol.GAME_PROTOCOL_QUAKE3, master, protocol, null);
  }

  static MasterServerList valve(InetSocketAddress master, String filter) {
    return new MasterServerList(GameProtocol.GAME_PROTOCOL_A2S, master, 0, filter);
  }

  @Override
  public String describe() {
    return (protocol == GameProtocol.GAME_PROTOCOL_QUAKE3 ? "quake3" : "valve") + " master "
        + master.getAddress().getHostAddress() + ":" + master.getPort();
  }

  @Override
  public List<ListedServer> fetch(Duration deadline) {
    MasterListClient client = new MasterListClient(
        new MasterListClient.Settings(deadline, QUAKE3_QUIET_END, Duration.ZERO, MAX_PAGES, deadline));
    try {
      List<InetSocketAddress> servers = protocol == GameProtocol.GAME_PROTOCOL_QUAKE3
          ? client.fetchQuake3(master, quake3Protocol)
          : client.fetchValve(master, valveFilter);
      return servers.stream().map(a -> new ListedServer(a, protocol)).toList();
    } catch (MasterListClient.IncompleteListException e) {
      throw new ReedClientException(ReedClientException.Kind.SERVER_LIST_FAILED, describe() + " " + e.getMessage(), e);
    } catch (IOException e) {
      throw new ReedClientException(ReedClientException.Kind.SERVER_LIST_FAILED, describe() + ": " + e.getMessage(), e);
    }
  }
}
