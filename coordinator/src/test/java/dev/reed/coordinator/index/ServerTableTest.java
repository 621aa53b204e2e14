package dev.reed.coordinator.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.ServerCoordinate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A state's servers by index position and by key: every server found under its own key, nothing else. */
class ServerTableTest {

  private static Map<String, IndexedServer> servers(int n) {
    LandmarkNumbers numbers = new LandmarkNumbers();
    Map<String, IndexedServer> out = new HashMap<>();
    for (int i = 0; i < n; i++) {
      // keys that differ in one digit: hash codes close together, the probing's hard case
      String ip = "10.1." + i / 250 + "." + i % 250;
      ServerCoordinate c = RankedTemplateTest.server(ip, "lm-a").toBuilder()
          .setCoordinate(Coordinate.newBuilder().addComponents(i % 97).addComponents(-(i % 13)).setHeightMs(1)).build();
      out.put(ip + ":27015", IndexedServer.of(ip + ":27015", c, 2, numbers, name -> name, a -> a));
    }
    return out;
  }

  private static RankingIndex index(Map<String, IndexedServer> servers) {
    List<ServerEntry> entries = new ArrayList<>();
    servers.values().forEach(s -> entries.add(s.entry()));
    return RankingIndex.ofDistinct(entries);
  }

  @Test
  void findsEveryServerUnderItsKeyAndAtItsIndexPosition() {
    Map<String, IndexedServer> servers = servers(5_000);
    RankingIndex index = index(servers);
    ServerTable table = ServerTable.of(index, servers, 1);

    assertThat(table).hasSize(5_000);
    for (Map.Entry<String, IndexedServer> e : servers.entrySet()) {
      assertThat(table.get(e.getKey())).as(e.getKey()).isSameAs(e.getValue());
      assertThat(table.containsKey(e.getKey())).isTrue();
    }
    for (int p = 0; p < index.size(); p++) {
      assertThat(table.at(p).entry()).isSameAs(index.entry(p));
    }
    assertThat(table.get("10.1.99.99:27015")).isNull();
    assertThat(table.get("10.1.0.0:27016")).isNull();
    assertThat(table.get(42)).isNull();
    assertThat(table.containsKey(null)).isFalse();
  }

  @Test
  void iteratesEachServerOnceAndRefusesChanges() {
    Map<String, IndexedServer> servers = servers(1_000);
    ServerTable table = ServerTable.of(index(servers), servers, 1);

    Set<String> seen = new HashSet<>();
    table.forEach((k, v) -> {
      assertThat(seen.add(k)).as("seen twice: " + k).isTrue();
      assertThat(v).isSameAs(servers.get(k));
    });
    assertThat(seen).isEqualTo(servers.keySet());
    assertThat(table.keySet()).isEqualTo(servers.keySet());
    assertThat(table).isEqualTo(servers);
    Map.Entry<String, IndexedServer> one = servers.entrySet().iterator().next();
    assertThat(table.entrySet()).contains(Map.entry(one.getKey(), one.getValue()));
    assertThat(table.entrySet().contains(Map.entry(one.getKey(), servers(1_000).get(one.getKey())))).as("another server")
        .isFalse();
    assertThat(table.keySet().contains("10.9.9.9:27015")).isFalse();
    assertThatThrownBy(() -> table.put("10.9.9.9:1", servers.values().iterator().next()))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void anEmptyStateHasAnEmptyTable() {
    ServerTable table = ServerTable.of(RankingIndex.of(List.of()), Map.of(), 0);
    assertThat(table).isEmpty();
    assertThat(table.get("10.0.0.1:27015")).isNull();
  }

  @Test
  void refusesAnIndexOfOtherServersAndTemplatesBeyondTheLandmarkTable() {
    Map<String, IndexedServer> servers = servers(10);
    Map<String, IndexedServer> others = new HashMap<>(servers(20));
    others.keySet().removeAll(servers.keySet());
    assertThat(others).hasSize(10);
    assertThatThrownBy(() -> ServerTable.of(index(servers), others, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the servers do not");
    assertThatThrownBy(() -> ServerTable.of(index(servers), servers(11), 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("an index of 10 servers for 11");
    assertThatThrownBy(() -> ServerTable.of(index(servers), servers, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refers to landmark number 0, the table has 0");
  }
}
