package dev.reed.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.geo.Asn;
import dev.reed.geo.GeoFiles;
import dev.reed.geo.IpRangeCsvWriter;
import dev.reed.geo.Location;
import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK's fallback without a coordinator (nothing listens on its port): Armitage's clustering of
 * a master list over real UDP, with location and AS databases written in ip-location-db's CSV
 * layout for the servers' loopback addresses (read by the geo module as real files are). 23
 * emulated Quake3 servers, each on its own 127.41.0.x address, delay their replies by a fixed RTT:
 *
 * <pre>
 *   DE  AS64501  5 servers   8-12 ms
 *   DE  AS64511  5 servers  70-74 ms   (same country, a far network)
 *   FR  AS64502  5 servers  30-34 ms
 *   US  AS64503  5 servers 100-104 ms
 *   (in no database) 3 servers 50-52 ms
 * </pre>
 *
 * The master list interleaves the groups, so DE's first two servers (its samples) are one of each
 * of its networks.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusteringFallbackTest {
  @TempDir static Path dir;

  private static final List<GameQueryResponder> servers = new ArrayList<>();
  private static final List<ListedServer> master = new ArrayList<>();
  /** server key -> its AS label (null: unknown) and country */
  private static final Map<String, String> asOf = new HashMap<>();
  private static final Map<String, String> countryOf = new HashMap<>();
  private static GeoFiles geo;
  private static String deadCoordinator;

  private record Group(String country, long asn, int count, double firstMs, double stepMs) {}

  private static final List<Group> GROUPS = List.of(new Group("DE", 64501, 5, 8, 1), new Group("US", 64503, 5, 100, 1),
      new Group("DE", 64511, 5, 70, 1), new Group("FR", 64502, 5, 30, 1), new Group(null, 0, 3, 50, 1));

  @BeforeAll
  static void start() throws IOException {
    Map<InetAddress, Location> locations = new LinkedHashMap<>();
    Map<InetAddress, Asn> asns = new LinkedHashMap<>();
    List<List<ListedServer>> byGroup = new ArrayList<>();
    int host = 1;
    for (Group g : GROUPS) {
      List<ListedServer> members = new ArrayList<>();
      for (int i = 0; i < g.count(); i++) {
        InetAddress a = InetAddress.getByAddress(new byte[] {127, 41, 0, (byte) host++});
        Duration delay = Duration.ofNanos(Math.round((g.firstMs() + i * g.stepMs()) * 1e6));
        ServerInfo info = ServerInfo.newBuilder().setName("cluster-" + g.country() + "-" + g.asn() + "-" + i).setMap("oa_dm1")
            .setGame("baseoa").setMaxPlayers(12).build();
        GameQueryResponder r = GameQueryResponder.start(new InetSocketAddress(a, 0), () -> info, from -> delay);
        servers.add(r);
        ListedServer s = new ListedServer(r.localAddress(), GameProtocol.GAME_PROTOCOL_QUAKE3);
        members.add(s);
        if (g.country() != null) {
          locations.put(a, new Location(g.country().equals("DE") ? 50 : g.country().equals("FR") ? 48 : 40,
              g.country().equals("US") ? -100 : 5, Double.NaN, g.country()));
          asns.put(a, new Asn(g.asn(), "emulated " + g.asn()));
          asOf.put(s.key(), "AS" + g.asn());
          countryOf.put(s.key(), g.country());
        }
      }
      byGroup.add(members);
    }
    for (int i = 0; i < 5; i++) {
      for (List<ListedServer> members : byGroup) {
        if (i < members.size()) master.add(members.get(i));
      }
    }
    Path loc = dir.resolve("locations.csv");
    Path as = dir.resolve("asn.csv");
    IpRangeCsvWriter.writeLocations(loc, locations);
    IpRangeCsvWriter.writeAsns(as, asns);
    geo = new GeoFiles(List.of(loc), List.of(as), true); // loopback addresses: the testbed's switch
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      deadCoordinator = "127.0.0.1:" + s.getLocalPort();
    }
  }

  @AfterAll
  static void stop() {
    servers.forEach(GameQueryResponder::close);
  }

  private static ReedClient.Builder client() {
    return ReedClient.builder().coordinator(deadCoordinator).rpcDeadline(Duration.ofSeconds(2)).rate(400)
        .traditionalList(ServerListSource.of(master)).fallbackToTraditional(true);
  }

  /** The rank of each found server's cluster, in probe order. */
  private static List<Integer> clusterRanks(DiscoveryResult r, List<String> ranking, Map<String, String> labelOf) {
    return r.servers().stream().sorted(Comparator.comparingInt(DiscoveredServer::probeIndex))
        .map(s -> ranking.indexOf(labelOf.get(s.key()))).toList();
  }

  @Test
  void byOriginAsItFindsEveryServerClusterAfterClusterNearestFirst() {
    List<DiscoveryEvent> events = new CopyOnWriteArrayList<>();
    DiscoveryResult r;
    try (ReedClient c = client().geoDatabases(geo).build()) {
      r = c.discover(DiscoveryRequest.defaults().withStop(StopRule.exhaustive()), events::add);
    }
    assertThat(r.method()).isEqualTo(DiscoveryResult.Method.CLUSTER_AS_FALLBACK);
    assertThat(r.coordinatorFailure()).contains("unreachable");
    assertThat(events.getFirst()).isInstanceOf(DiscoveryEvent.FallingBack.class);
    DiscoveryEvent.ClustersRanked ranked = events.stream().filter(e -> e instanceof DiscoveryEvent.ClustersRanked)
        .map(e -> (DiscoveryEvent.ClustersRanked) e).findFirst().orElseThrow();
    assertThat(ranked.method()).isEqualTo(DiscoveryResult.Method.CLUSTER_AS_FALLBACK);
    assertThat(ranked.clusters()).containsExactly("AS64501", "AS64502", null, "AS64511", "AS64503");
    // two samples in each of the 5 clusters, counted as probes; every server probed once
    assertThat(r.calibrationProbes()).isEqualTo(10);
    assertThat(r.probes()).isEqualTo(master.size());
    assertThat(r.servers()).hasSize(master.size());
    assertThat(r.stopReason()).isEqualTo(DiscoveryResult.StopReason.LIST_EXHAUSTED);
    // in probe order (samples in their cluster's turn) the clusters come nearest first
    List<Integer> ranks = clusterRanks(r, ranked.clusters(), asOf);
    assertThat(ranks).isSorted();
    assertThat(ranks.getFirst()).isZero();
    assertThat(r.servers().getFirst().rttMs()).isBetween(7.5, 40.0);
  }

  @Test
  void byCountryTheNearCountryComesFirstAndFirstNCloseStopsEarly() {
    DiscoveryResult r;
    List<DiscoveryEvent> events = new CopyOnWriteArrayList<>();
    try (ReedClient c = client().geoDatabases(geo).clustering(ClusterBy.COUNTRY).build()) {
      r = c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(6)), events::add);
    }
    assertThat(r.method()).isEqualTo(DiscoveryResult.Method.CLUSTER_COUNTRY_FALLBACK);
    DiscoveryEvent.ClustersRanked ranked = events.stream().filter(e -> e instanceof DiscoveryEvent.ClustersRanked)
        .map(e -> (DiscoveryEvent.ClustersRanked) e).findFirst().orElseThrow();
    // DE's samples are one near (8 ms) and one far (70 ms) server: its lowest ranks it first
    assertThat(ranked.clusters()).containsExactly("DE", "FR", null, "US");
    assertThat(r.calibrationProbes()).isEqualTo(8);
    assertThat(r.stopReason()).isEqualTo(DiscoveryResult.StopReason.STOP_RULE);
    assertThat(r.probes()).isLessThan(master.size());
    assertThat(r.servers()).hasSizeGreaterThanOrEqualTo(6);
    // DE's turn first, its far network included (what the AS clustering avoids), then FR (whose
    // samples, measured already, count the moment their turn comes)
    List<Integer> ranks = clusterRanks(r, ranked.clusters(), countryOf);
    assertThat(ranks).isSorted();
    assertThat(ranks.getFirst()).isZero();
    assertThat(ranks).doesNotContain(2, 3);
    assertThat(r.servers().getFirst().rttMs()).isLessThan(20);
  }

  @Test
  void databasesThatKnowNoListedAddressLeaveTheTraditionalFallback() throws IOException {
    Path loc = dir.resolve("elsewhere.csv");
    IpRangeCsvWriter.writeLocations(loc, Map.of(InetAddress.getByAddress(new byte[] {127, 42, 0, 1}), new Location(1, 1, Double.NaN, "NL")));
    DiscoveryResult r;
    try (ReedClient c = client().geoDatabases(new GeoFiles(List.of(loc), List.of(), true)).build()) {
      r = c.discover(DiscoveryRequest.defaults());
    }
    assertThat(r.method()).isEqualTo(DiscoveryResult.Method.TRADITIONAL_FALLBACK);
    assertThat(r.calibrationProbes()).isZero();
    assertThat(r.probes()).isEqualTo(master.size());
  }

  @Test
  void aMissingDatabaseIsAClearErrorAtBuild() {
    GeoFiles missing = new GeoFiles(List.of(dir.resolve("missing.csv")), List.of(), true);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> client().geoDatabases(missing).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot open the geo databases")
        .hasMessageContaining("missing.csv");
  }
}
