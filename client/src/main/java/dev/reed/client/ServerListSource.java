package dev.reed.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * Where traditional discovery gets its full, unordered server list: a Quake3-protocol or Valve
 * master server, or a fixed list. (The coordinator itself is the default source; see
 * {@link ReedClient.Builder#traditionalList}.)
 */
public interface ServerListSource {

  /**
   * The whole list, in the order the source gives it.
   *
   * @throws ReedClientException of kind SERVER_LIST_FAILED when the source does not answer in
   *     time or answers garbage
   */
  List<ListedServer> fetch(Duration deadline);

  /** For messages: "quake3 master 127.0.0.1:27950". */
  String describe();

  /**
   * A Quake3-protocol master ({@code getservers <protocol> empty full}; 68 = Quake3 1.32,
   * 71 = ioquake3/OpenArena).
   */
  static ServerListSource quake3Master(InetSocketAddress master, int protocol) {
    return MasterServerList.quake3(master, protocol);
  }

  /** A Valve master (Master Server Query Protocol, region 0xFF = all) with a filter such as {@code \gamedir\cstrike}. */
  static ServerListSource valveMaster(InetSocketAddress master, String filter) {
    return MasterServerList.valve(master, filter);
  }

  /** A fixed list (a cached master list, a file). */
  static ServerListSource of(List<ListedServer> servers) {
    List<ListedServer> copy = List.copyOf(servers);
    return new ServerListSource() {
      @Override
      public List<ListedServer> fetch(Duration deadline) {
        return copy;
      }

      @Override
      public String describe() {
        return "fixed list of " + copy.size() + " servers";
      }
    };
  }
}
