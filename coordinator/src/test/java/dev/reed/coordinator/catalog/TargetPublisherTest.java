package dev.reed.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Target;
import dev.reed.proto.v1.TargetSource;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Catalog bookkeeping as pure logic (Kafka's in-memory MockProducer records what would be published). */
class TargetPublisherTest {
  @TempDir Path dir;

  static Target target(String key, TargetSource source, Instant lastSeen) {
    Timestamp t = Timestamp.newBuilder().setSeconds(lastSeen.getEpochSecond()).build();
    return Target.newBuilder().setEndpoint(Endpoints.parse(key)).setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3)
        .setSource(source).setFirstSeenTime(t).setLastSeenTime(t).build();
  }

  /** A catalog with no masters to crawl, 15 min heartbeat expiry. */
  static TargetPublisher catalog(MockProducer<byte[], byte[]> producer, Instant now, Path targets, Path deny) {
    return new TargetPublisher(producer, Clock.fixed(now, ZoneOffset.UTC), targets, deny, List.of(),
        new MasterCrawler(Duration.ofSeconds(1), Duration.ZERO, 1), Duration.ofMinutes(10), Duration.ofMinutes(15));
  }

  @Test
  void publishesTheFileExpiresStaleHeartbeatsAndDeletesWhatLeftTheFile() throws Exception {
    Instant now = Instant.parse("2026-11-21T07:00:00Z");
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    Path file = dir.resolve("targets");
    Files.writeString(file, "q3 127.0.0.1:27960\na2s 127.0.0.2:27015\n");
    TargetPublisher catalog = catalog(producer, now, file, null);
    Map<String, Target> known = new HashMap<>();
    known.put("127.0.0.3:27960", target("127.0.0.3:27960", TargetSource.TARGET_SOURCE_QUAKE3_HEARTBEAT, now.minusSeconds(3600)));
    known.put("127.0.0.4:27960", target("127.0.0.4:27960", TargetSource.TARGET_SOURCE_QUAKE3_HEARTBEAT, now.minusSeconds(60)));
    known.put("127.0.0.5:27960", target("127.0.0.5:27960", TargetSource.TARGET_SOURCE_STATIC, now.minusSeconds(60)));

    TargetPublisher.Result r = catalog.run(() -> known);
    assertThat(r.published()).isEqualTo(2);
    assertThat(r.deleted()).isEqualTo(2); // the stale heartbeat and the static entry no longer in the file
    Map<String, byte[]> out = new HashMap<>();
    for (ProducerRecord<byte[], byte[]> rec : producer.history()) out.put(new String(rec.key(), StandardCharsets.UTF_8), rec.value());
    assertThat(out).containsOnlyKeys("127.0.0.1:27960", "127.0.0.2:27015", "127.0.0.3:27960", "127.0.0.5:27960");
    assertThat(out.get("127.0.0.3:27960")).isNull();
    assertThat(out.get("127.0.0.5:27960")).isNull();
    Target a2s = Target.parseFrom(out.get("127.0.0.2:27015"));
    assertThat(a2s.getProtocol()).isEqualTo(GameProtocol.GAME_PROTOCOL_A2S);
    assertThat(a2s.getSource()).isEqualTo(TargetSource.TARGET_SOURCE_STATIC);

    // a verified heartbeat of a known server keeps its first-seen time
    producer.clear();
    catalog.registerHeartbeat(new InetSocketAddress("127.0.0.4", 27960), known);
    Target hb = Target.parseFrom(producer.history().getFirst().value());
    assertThat(hb.getFirstSeenTime().getSeconds()).isEqualTo(now.minusSeconds(60).getEpochSecond());
    assertThat(hb.getLastSeenTime().getSeconds()).isEqualTo(now.getEpochSecond());
    assertThat(hb.getSource()).isEqualTo(TargetSource.TARGET_SOURCE_QUAKE3_HEARTBEAT);
  }

  @Test
  void deniedTargetsAreNeverPublishedAndDeletedIfTheyWereAndABadEditKeepsTheList() throws Exception {
    Instant now = Instant.parse("2026-11-21T07:00:00Z");
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    Path targets = dir.resolve("targets");
    Files.writeString(targets, "q3 127.0.0.1:27960\nq3 127.0.1.9:27960\na2s 127.0.0.2:27015\n");
    Path deny = dir.resolve("deny");
    Files.writeString(deny, "127.0.1.0/24   # a whole block\n127.0.0.2:27015\n");
    TargetPublisher catalog = catalog(producer, now, targets, deny);
    Map<String, Target> known = new HashMap<>();
    known.put("127.0.1.7:27960", target("127.0.1.7:27960", TargetSource.TARGET_SOURCE_QUAKE3_HEARTBEAT, now.minusSeconds(60)));

    TargetPublisher.Result r = catalog.run(() -> known);
    Map<String, byte[]> out = new HashMap<>();
    for (ProducerRecord<byte[], byte[]> rec : producer.history()) out.put(new String(rec.key(), StandardCharsets.UTF_8), rec.value());
    assertThat(out).containsOnlyKeys("127.0.0.1:27960", "127.0.1.7:27960");
    assertThat(out.get("127.0.0.1:27960")).isNotNull();
    assertThat(out.get("127.0.1.7:27960")).as("a denied heartbeat target already in the catalog is deleted").isNull();
    assertThat(r.published()).isEqualTo(1);
    assertThat(r.deleted()).isEqualTo(1);

    producer.clear();
    catalog.registerHeartbeat(new InetSocketAddress("127.0.1.8", 27960), Map.of());
    assertThat(producer.history()).as("a denied server's heartbeat is not registered").isEmpty();
    // a follower never runs the catalog round: the deny list is read when the catalog is built
    TargetPublisher follower = catalog(producer, now, targets, deny);
    follower.registerHeartbeat(new InetSocketAddress("127.0.1.8", 27960), Map.of());
    assertThat(producer.history()).as("nor by a follower").isEmpty();
    catalog.registerHeartbeat(new InetSocketAddress("127.0.2.8", 27960), Map.of());
    assertThat(producer.history()).hasSize(1);

    // a typo keeps the last good list; a good edit takes effect in the next round
    producer.clear();
    Files.writeString(deny, "127.0.1.0/99\n");
    Files.setLastModifiedTime(deny, java.nio.file.attribute.FileTime.from(now.plusSeconds(1)));
    catalog.registerHeartbeat(new InetSocketAddress("127.0.1.8", 27960), Map.of());
    catalog.run(() -> Map.of());
    catalog.registerHeartbeat(new InetSocketAddress("127.0.1.8", 27960), Map.of());
    assertThat(producer.history()).extracting(rec -> new String(rec.key(), StandardCharsets.UTF_8))
        .doesNotContain("127.0.1.8:27960", "127.0.1.9:27960");
    Files.writeString(deny, "127.0.0.2:27015\n");
    Files.setLastModifiedTime(deny, java.nio.file.attribute.FileTime.from(now.plusSeconds(2)));
    producer.clear();
    catalog.run(() -> Map.of());
    assertThat(producer.history()).extracting(rec -> new String(rec.key(), StandardCharsets.UTF_8))
        .contains("127.0.1.9:27960").doesNotContain("127.0.0.2:27015");
  }
}
