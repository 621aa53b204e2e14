package dev.reed.cli.browse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.client.DiscoveredServer;
import dev.reed.client.DiscoveryEvent;
import dev.reed.client.DiscoveryResult;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LiveTableTest {
  private static DiscoveredServer server(String name, int lastOctet, double rtt) throws Exception {
    return new DiscoveredServer(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) lastOctet}), 27960),
        GameProtocol.GAME_PROTOCOL_QUAKE3, rtt, rtt - 2, ServerInfo.newBuilder().setName(name).setMap("oa_dm1")
            .setPlayers(3).setMaxPlayers(12).build(), 0);
  }

  @Test
  void plainModePrintsOneLinePerReplyWithoutColourCodes() throws Exception {
    StringWriter out = new StringWriter();
    LiveTable t = new LiveTable(new PrintWriter(out), false, 20, "title");
    t.onEvent(new DiscoveryEvent.ClustersRanked(DiscoveryResult.Method.CLUSTER_AS_FALLBACK,
        java.util.Arrays.asList("AS3320", null, "AS8075"), 6, Duration.ofMillis(50)));
    t.onEvent(new DiscoveryEvent.ServerFound(server("^1Red^7Server", 5, 42.25), 3, Duration.ofMillis(100)));
    t.onEvent(new DiscoveryEvent.Stopped(DiscoveryResult.StopReason.STOP_RULE, 3, Duration.ofMillis(200)));
    assertThat(out.toString()).contains("# 6 samples ranked 3 clusters, nearest first: AS3320 (unknown) AS8075");
    assertThat(out.toString()).doesNotContain("\033[").contains(LiveTable.HEADER)
        .containsPattern("RedServer\\s+oa_dm1\\s+3/12\\s+42.3\\s+40.3\\s+127.0.0.5:27960");
  }

  @Test
  void terminalModeRedrawsTheClosestFirst() throws Exception {
    StringWriter out = new StringWriter();
    LiveTable t = new LiveTable(new PrintWriter(out), true, 1, "title");
    t.onEvent(new DiscoveryEvent.ServerFound(server("far", 6, 90), 1, Duration.ofMillis(10)));
    t.onEvent(new DiscoveryEvent.ServerFound(server("near", 7, 20), 2, Duration.ofMillis(20)));
    t.onEvent(new DiscoveryEvent.Stopped(DiscoveryResult.StopReason.STOP_RULE, 2, Duration.ofMillis(30)));
    String last = out.toString().substring(out.toString().lastIndexOf("\033[H\033[2J"));
    assertThat(last).contains("near").doesNotContain("far ").contains("... 1 more").contains("stopped (STOP_RULE) after 2 probes");
  }
}
