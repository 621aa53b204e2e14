package dev.reed.coordinator.index.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinator.index.read.DecodedServer;
import dev.reed.coordinator.index.read.LandmarkNumbers;
import dev.reed.coordinator.index.read.RankedTemplate;
import dev.reed.coordinator.index.read.RankedTemplateTest;
import dev.reed.coordinator.index.read.StateServers;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.ServerCoordinate;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The feed's servers in columns and a state's copy of them: every server found under its own key
 * and at its index position with the bytes it was put with, a state unchanged by later puts, dead
 * template bytes bounded.
 */
class FeedServersTest {

  /** Servers 0..n-1 with a coordinate and an RTT that depend on {@code round}. */
  private static Map<String, DecodedServer> servers(int n, int round) {
    LandmarkNumbers numbers = new LandmarkNumbers();
    Map<String, DecodedServer> out = new HashMap<>();
    for (int i = 0; i < n; i++) {
      // keys that differ in one digit: hash codes close together, the probing's hard case
      String ip = "10.1." + i / 250 + "." + i % 250;
      ServerCoordinate c = RankedTemplateTest.server(ip, "lm-a").toBuilder()
          .setCoordinate(Coordinate.newBuilder().addComponents(i % 97 + round).addComponents(-(i % 13)).setHeightMs(1))
          .setRound(round).build();
      out.put(ip + ":27015", DecodedServer.of(ip + ":27015", c, 2, numbers, name -> name, a -> a));
    }
    return out;
  }

  /** A state's table of {@code servers}, put into new columns. */
  private static StateServers table(Map<String, DecodedServer> servers, int dimensions, int landmarks) {
    FeedServers columns = new FeedServers(dimensions);
    servers.values().forEach(columns::put);
    return columns.table(columns.index(), landmarks);
  }

  private static void assertSame(DecodedServer actual, DecodedServer expected) {
    assertThat(actual.entry()).isEqualTo(expected.entry());
    RankedTemplate a = actual.template();
    RankedTemplate e = expected.template();
    assertThat(a.common()).isEqualTo(e.common());
    assertThat(a.compactRtts()).isEqualTo(e.compactRtts());
    assertThat(a.rest()).isEqualTo(e.rest());
    assertThat(a.maxRef()).isEqualTo(e.maxRef());
    assertThat(a.integrity()).isEqualTo(e.integrity());
  }

  @Test
  void findsEveryServerUnderItsKeyAndAtItsIndexPosition() {
    Map<String, DecodedServer> servers = servers(5_000, 1);
    StateServers table = table(servers, 2, 1);

    assertThat(table).hasSize(5_000);
    for (Map.Entry<String, DecodedServer> e : servers.entrySet()) {
      assertSame(table.get(e.getKey()), e.getValue());
      assertThat(table.containsKey(e.getKey())).isTrue();
    }
    RankingIndex index = table.index();
    for (int p = 0; p < index.size(); p++) {
      assertThat(table.at(p).entry()).isEqualTo(index.entry(p));
      assertSame(table.at(p), servers.get(index.key(p)));
    }
    assertThat(table.get("10.1.99.99:27015")).isNull();
    assertThat(table.get("10.1.0.0:27016")).isNull();
    assertThat(table.get(42)).isNull();
    assertThat(table.containsKey(null)).isFalse();
  }

  @Test
  void iteratesEachServerOnceAndRefusesChanges() {
    Map<String, DecodedServer> servers = servers(1_000, 1);
    StateServers table = table(servers, 2, 1);

    Set<String> seen = new HashSet<>();
    table.forEach((k, v) -> {
      assertThat(seen.add(k)).as("seen twice: " + k).isTrue();
      assertSame(v, servers.get(k));
    });
    assertThat(seen).isEqualTo(servers.keySet());
    assertThat(table.keySet()).isEqualTo(servers.keySet());
    String one = servers.keySet().iterator().next();
    assertThat(table.entrySet()).contains(Map.entry(one, table.get(one)));
    assertThat(table.entrySet().contains(Map.entry(one, servers(1_000, 2).get(one)))).as("another server").isFalse();
    assertThat(table.keySet().contains("10.9.9.9:27015")).isFalse();
    assertThatThrownBy(() -> table.put("10.9.9.9:1", servers.values().iterator().next()))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aStateKeepsWhatItsBuildSawWhileTheFeedWritesOver() {
    FeedServers columns = new FeedServers(2);
    Map<String, DecodedServer> first = servers(2_000, 1);
    first.values().forEach(columns::put);
    StateServers before = columns.table(columns.index(), 1);

    Map<String, DecodedServer> second = servers(2_000, 2);
    second.values().forEach(columns::put);
    columns.remove("10.1.0.7:27015");
    columns.remove("10.1.0.7:27015"); // twice: nothing happens
    columns.put(servers(2_001, 3).get("10.1.8.0:27015")); // a new server takes the free slot
    StateServers after = columns.table(columns.index(), 1);

    assertThat(before).hasSize(2_000);
    first.forEach((k, v) -> assertSame(before.get(k), v));
    assertThat(after).hasSize(2_000).doesNotContainKey("10.1.0.7:27015").containsKey("10.1.8.0:27015");
    second.forEach((k, v) -> {
      if (!k.equals("10.1.0.7:27015")) assertSame(after.get(k), v);
    });
    assertThat(columns.size()).isEqualTo(2_000);
  }

  @Test
  void deadTemplateBytesStayBoundedByTheLiveOnes() {
    int chunk = 4096;
    FeedServers columns = new FeedServers(2, chunk);
    Map<String, DecodedServer> held = new HashMap<>();
    long appended = 0;
    for (int round = 0; round < 60; round++) {
      // every round 1 server in 60 stops writing and keeps its template, and with it, without
      // compaction, the chunk it is in: 60 rounds of chunks
      for (Map.Entry<String, DecodedServer> e : servers(3_000, round).entrySet()) {
        int i = Integer.parseInt(e.getKey().split("[.:]")[2]) * 250 + Integer.parseInt(e.getKey().split("[.:]")[3]);
        if (i % 60 < round) continue;
        columns.put(e.getValue());
        held.put(e.getKey(), e.getValue());
        appended += e.getValue().template().length();
      }
      StateServers table = columns.table(columns.index(), 1);
      long live = 0;
      for (int p = 0; p < table.size(); p++) live += table.template(p).length();
      assertThat(columns.templateChunks().held()).as("round " + round).isLessThanOrEqualTo(2 * live + 9L * chunk);
      assertThat(columns.templateChunks().live()).as("what the metric calls live, round " + round).isEqualTo(live);
    }
    assertThat(appended).as("what compaction bounded").isGreaterThan(5 * columns.templateChunks().held());
    StateServers table = columns.table(columns.index(), 1);
    assertThat(table).hasSize(3_000);
    held.forEach((k, v) -> assertSame(table.get(k), v));
  }

  @Test
  void anEmptyStateHasAnEmptyTable() {
    StateServers table = table(Map.of(), 2, 0);
    assertThat(table).isEmpty();
    assertThat(table.get("10.0.0.1:27015")).isNull();
  }

  @Test
  void refusesTemplatesBeyondTheLandmarkTableOtherDimensionsAndAStaleIndex() {
    Map<String, DecodedServer> servers = servers(10, 1);
    assertThatThrownBy(() -> table(servers, 2, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refers to landmark number 0, the table has 0");
    assertThatThrownBy(() -> table(servers, 3, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has 2 dimensions, the index 3");
    FeedServers columns = new FeedServers(2);
    servers.values().forEach(columns::put);
    RankingIndex index = columns.index();
    columns.put(servers(11, 1).get("10.1.0.10:27015"));
    RankingIndex other = columns.index();
    assertThatThrownBy(() -> columns.table(index, 1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("an index of 10 servers, 11 were indexed");
    assertThat(columns.table(other, 1)).hasSize(11);
  }
}
