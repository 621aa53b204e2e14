package dev.reed.coordinator.index.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinator.index.read.LandmarkNumbers;
import dev.reed.coordinator.index.read.RankedTemplate;
import dev.reed.coordinator.index.read.RankedTemplateTest;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.runtime.KafkaClients;
import dev.reed.testbed.kafka.KafkaExtension;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The index feed against a real broker: what it reads while catching up (each server's newest
 * record, decoded in parallel) and what it reads afterwards (record by record) give the same index;
 * undecodable records and NaN coordinates are counted and skipped on both paths, tombstones remove.
 */
@Tag("integration")
class IndexFeedTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  static ServerCoordinate server(int i, double x) {
    return RankedTemplateTest.server("10.1.0." + i, "lm-a", "lm-b").toBuilder().setRound(i)
        .setCoordinate(Coordinate.newBuilder().addComponents(x).addComponents(i)).build();
  }

  static String key(int i) {
    return "10.1.0." + i + ":27015";
  }

  @Test
  void catchUpAndLaterRecordsGiveTheNewestValidCoordinateOfEveryServer() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    byte[] nanCoordinate = server(98, 1).toBuilder()
        .setCoordinate(Coordinate.newBuilder().addComponents(Double.NaN).addComponents(1)).build().toByteArray();
    try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
        new ByteArraySerializer(), new ByteArraySerializer())) {
      for (int i = 0; i < 60; i++) send(p, key(i), server(i, 1).toByteArray());
      for (int i = 0; i < 60; i += 2) send(p, key(i), server(i, 2).toByteArray()); // superseded: the index holds x = 2
      send(p, key(1), null);
      send(p, key(97), new byte[] {(byte) 0xff, 0x01, 0x02});
      send(p, key(98), nanCoordinate);
      // superseded before the feed starts: only a server's newest record is decoded while catching up
      // (what compaction would leave), so this garbage is never read as a coordinate
      send(p, key(96), new byte[] {(byte) 0xff, 0x01, 0x02});
      send(p, key(96), server(96, 1).toByteArray());
      p.flush();

      try (IndexFeed feed = new IndexFeed(KafkaClients.of(bootstrap), 2, false, Clock.systemUTC(), Duration.ofMillis(50))
          .start()) {
        assertThat(feed.awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
        ServingState s = feed.current();
        assertThat(s.servers()).hasSize(60).doesNotContainKeys(key(1), key(97), key(98)).containsKey(key(96));
        assertThat(s.index().size()).isEqualTo(60);
        assertThat(feed.invalidRecords()).as("the newest records of 97 and 98").isEqualTo(2);
        for (int i = 0; i < 60; i++) {
          if (i == 1) continue;
          assertThat(s.servers().get(key(i))).as("server %d", i).isEqualTo(server(i, i % 2 == 0 ? 2 : 1));
          assertThat(s.ranked().get(key(i)).common()).isEqualTo(RankedTemplate.of(server(i, i % 2 == 0 ? 2 : 1),
              new LandmarkNumbers()).common());
        }

        send(p, key(3), server(3, 5).toByteArray());
        send(p, key(4), null);
        send(p, key(97), new byte[] {(byte) 0xff, 0x01, 0x02});
        send(p, key(98), nanCoordinate);
        send(p, key(99), server(99, 1).toByteArray());
        p.flush();
        await().atMost(Duration.ofSeconds(30)).until(() -> feed.current().servers().containsKey(key(99)));
        ServingState after = feed.current();
        assertThat(after.servers()).hasSize(60).doesNotContainKeys(key(1), key(4), key(97), key(98));
        assertThat(after.servers().get(key(3))).isEqualTo(server(3, 5));
        assertThat(after.index().size()).isEqualTo(60);
        assertThat(feed.invalidRecords()).isEqualTo(4);
      }
    }
  }

  private static void send(KafkaProducer<byte[], byte[]> p, String key, byte[] value) throws Exception {
    p.send(new ProducerRecord<>(Topic.COORDINATES.name(), key.getBytes(StandardCharsets.UTF_8), value)).get();
  }
}
