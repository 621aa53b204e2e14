package dev.reed.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.v1.ServerInfo;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CatalogTest {

  @Test
  void valveFilterGroupsAndGlobs() {
    ServerInfo s = ServerInfo.newBuilder().setGame("cstrike").setMap("de_dust2").setName("Best Server EU").setPlayers(3)
        .setMaxPlayers(10).setAppId(10).setGameType("alltalk,friendlyfire").build();
    assertThat(ValveFilter.parse("\\gamedir\\cstrike\\map\\DE_DUST2").test(s)).isTrue();
    assertThat(ValveFilter.parse("\\gamedir\\tf").test(s)).isFalse();
    assertThat(ValveFilter.parse("\\name_match\\*EU").test(s)).isTrue();
    assertThat(ValveFilter.parse("\\nor\\1\\map\\de_dust2").test(s)).isFalse();
    assertThat(ValveFilter.parse("\\nand\\2\\map\\de_dust2\\appid\\11").test(s)).isTrue();
    assertThat(ValveFilter.parse("\\gametype\\alltalk").test(s)).isTrue();
    assertThat(ValveFilter.parse("\\gametype\\alltalk,hardcore").test(s)).isFalse();
    assertThat(ValveFilter.parse("\\noplayers\\1").test(s)).isFalse();
    assertThat(ValveFilter.parse("\\unknown\\x\\dangling").test(s)).isTrue();
  }

  @Test
  void crawlerPagesThroughBothMasterKinds() throws Exception {
    List<ListedServer> a2s = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      a2s.add(new ListedServer(new InetSocketAddress("10.3." + (i / 250) + "." + (i % 250 + 1), 27015), null));
    }
    List<ListedServer> q3 = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      q3.add(new ListedServer(new InetSocketAddress("10.4." + (i / 250) + "." + (i % 250 + 1), 27960),
          ServerInfo.newBuilder().setVersion("68").build()));
    }
    try (ValveMasterServer valve = ValveMasterServer.start(new InetSocketAddress("127.0.0.1", 0), p -> a2s);
        Quake3MasterServer quake = Quake3MasterServer.start(new InetSocketAddress("127.0.0.1", 0), p -> q3, (a, i) -> { },
            Clock.systemUTC())) {
      MasterCrawler crawler = new MasterCrawler(Duration.ofSeconds(2), Duration.ofMillis(10), 50);
      Set<InetSocketAddress> v = crawler.crawl(MasterCrawler.Master.parse("valve 127.0.0.1:" + valve.localAddress().getPort()));
      assertThat(v).hasSize(600);
      Set<InetSocketAddress> q = crawler.crawl(MasterCrawler.Master.parse("q3:127.0.0.1:" + quake.localAddress().getPort()));
      assertThat(q).hasSize(400);
    }
    assertThatThrownBy(() -> MasterCrawler.Master.parse("gopher 1.2.3.4:5")).hasMessageContaining("unknown master kind");
  }
}
