package dev.reed.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinator.frontend.ListedServer;
import dev.reed.coordinator.frontend.Quake3MasterFrontEnd;
import dev.reed.coordinator.frontend.ValveMasterFrontEnd;
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
    try (ValveMasterFrontEnd valve = ValveMasterFrontEnd.start(new InetSocketAddress("127.0.0.1", 0), p -> a2s);
        Quake3MasterFrontEnd quake = Quake3MasterFrontEnd.start(new InetSocketAddress("127.0.0.1", 0), p -> q3, (a, i) -> { },
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
