package dev.reed.coordinator.index.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinator.index.read.RankedTemplateTest;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.runtime.KafkaClients;
import dev.reed.testbed.kafka.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restarted index feed with a local checkpoint, against a real broker: it reads only the
 * coordinate records written after the checkpoint and ends with the same index as a feed that read
 * the whole topic; a damaged checkpoint is ignored (the whole topic is read).
 */
@Tag("integration")
class IndexFeedCheckpointTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  private static final int SERVERS = 300;

  @TempDir Path dir;

  @Test
  void aRestartedFeedReadsOnlyTheRecordsWrittenAfterItsCheckpoint() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    Path file = dir.resolve("replica/index.checkpoint");
    keepEveryRecord();
    IndexFeed.Checkpoints often = new IndexFeed.Checkpoints(file, Duration.ofMillis(100), Duration.ofMinutes(10));
    try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      for (int round = 1; round <= 2; round++) {
        for (int i = 0; i < SERVERS; i++) send(p, key(i), server(i, round).toByteArray());
      }
      p.flush();
      try (IndexFeed first = feed(bootstrap, often)) {
        assertThat(first.awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
        assertThat(first.recordsRead()).isEqualTo(2 * SERVERS);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(file)
            && new IndexCheckpoint(file).read(n -> n, a -> a).orElseThrow().offsets().values().stream().mapToLong(o -> o).sum() == 2 * SERVERS);
      }
      IndexCheckpoint.Contents written = new IndexCheckpoint(file).read(n -> n, a -> a).orElseThrow();
      assertThat(written.servers()).hasSize(SERVERS);
      assertThat(written.dimensions()).isEqualTo(2);
      byte[] beforeTheTail = Files.readAllBytes(file); // the restarted feed writes a newer one

      // written while the replica was down
      send(p, key(3), server(3, 5).toByteArray());
      send(p, key(4), null);
      send(p, key(400), server(400, 1).toByteArray());
      p.flush();
      int tail = 3;

      ServingState whole;
      try (IndexFeed reference = feed(bootstrap, IndexFeed.Checkpoints.NONE)) {
        assertThat(reference.awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
        assertThat(reference.recordsRead()).isEqualTo(2 * SERVERS + tail);
        whole = reference.current();
      }
      assertThat(whole.servers()).hasSize(SERVERS).containsKey(key(400)).doesNotContainKey(key(4));

      try (IndexFeed restarted = feed(bootstrap, often)) {
        assertThat(restarted.awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> restarted.current().servers().containsKey(key(400))
            && !restarted.current().servers().containsKey(key(4)));
        assertThat(restarted.recordsRead()).as("only the records after the checkpoint").isEqualTo(tail);
        assertSameServers(restarted.current(), whole);
      }

      // a checkpoint older than serve-within: the catch-up reads the newer records before serving
      Files.write(file, beforeTheTail);
      try (IndexFeed stale = feed(bootstrap, new IndexFeed.Checkpoints(file, Duration.ofMinutes(1), Duration.ZERO))) {
        assertThat(stale.awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
        assertThat(stale.recordsRead()).isEqualTo(tail);
        assertThat(stale.current().servers()).containsKey(key(400)).doesNotContainKey(key(4));
        assertSameServers(stale.current(), whole);
      }

      byte[] bytes = beforeTheTail.clone();
      bytes[bytes.length / 2] ^= 0x40;
      Files.write(file, bytes);
      try (IndexFeed damaged = feed(bootstrap, new IndexFeed.Checkpoints(file, Duration.ofMinutes(1), Duration.ofMinutes(10)))) {
        assertThat(damaged.awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
        assertThat(damaged.recordsRead()).as("the whole topic").isEqualTo(2 * SERVERS + tail);
        assertThat(damaged.invalidRecords()).isZero();
        assertSameServers(damaged.current(), whole);
      }
    }
  }

  /**
   * The test counts the records each feed reads, so the cleaner must not compact the topic under it:
   * the topic rolls a segment a minute (Topic.config), which a slow run crosses.
   */
  private static void keepEveryRecord() throws Exception {
    try (Admin admin = KAFKA.broker().admin()) {
      admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, Topic.COORDINATES.name()),
          List.of(new AlterConfigOp(new ConfigEntry("segment.ms", Long.toString(Duration.ofHours(1).toMillis())),
              AlterConfigOp.OpType.SET)))).all().get();
    }
  }

  private static void assertSameServers(ServingState actual, ServingState expected) {
    assertThat(actual.servers().keySet()).isEqualTo(expected.servers().keySet());
    for (Map.Entry<String, ServerCoordinate> e : expected.servers().entrySet()) {
      assertThat(actual.servers().get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(actual.ranked().get(e.getKey()).common()).isEqualTo(expected.ranked().get(e.getKey()).common());
    }
    assertThat(actual.index().size()).isEqualTo(expected.index().size());
  }

  private static IndexFeed feed(String bootstrap, IndexFeed.Checkpoints checkpoints) {
    return new IndexFeed(KafkaClients.of(bootstrap), 2, false, Clock.systemUTC(), Duration.ofMillis(50), checkpoints).start();
  }

  private static ServerCoordinate server(int i, double x) {
    return RankedTemplateTest.server(ip(i), "lm-a", "lm-b").toBuilder().setRound((long) x)
        .setCoordinate(Coordinate.newBuilder().addComponents(x).addComponents(i)).build();
  }

  private static String ip(int i) {
    return "10.1." + i / 250 + "." + i % 250;
  }

  private static String key(int i) {
    return ip(i) + ":27015";
  }

  private static void send(KafkaProducer<byte[], byte[]> p, String key, byte[] value) throws Exception {
    p.send(new ProducerRecord<>(Topic.COORDINATES.name(), key.getBytes(StandardCharsets.UTF_8), value)).get();
  }
}
