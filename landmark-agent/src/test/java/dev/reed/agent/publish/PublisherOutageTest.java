package dev.reed.agent.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.agent.TopicDump;
import dev.reed.agent.spool.Spool;
import dev.reed.agent.spool.SpooledRecord;
import dev.reed.proto.Topic;
import dev.reed.runtime.KafkaClients;
import dev.reed.testbed.kafka.EmbeddedKafka;
import dev.reed.testbed.kafka.KafkaExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The publisher against a real broker that goes away and comes back. */
@Timeout(180)
@Tag("integration")
class PublisherOutageTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path spoolDir;

  static List<SpooledRecord> batch(String topic, int b, int n) {
    List<SpooledRecord> out = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int i = 0; i < n; i++) {
      String key = "127.0.0." + (i % 250 + 1) + ":" + (27000 + b);
      out.add(new SpooledRecord(topic, now, "test/" + b + "/s/" + key, key.getBytes(StandardCharsets.UTF_8),
          ("value " + b + "/" + i).getBytes(StandardCharsets.UTF_8)));
    }
    return out;
  }

  static Map<String, Long> idsOnTopic(String bootstrap, String topic) {
    return TopicDump.idCounts(bootstrap, topic);
  }

  @Test
  void brokerStoppedMidStreamThenRestartedEveryRecordArrivesExactlyOnce() throws Exception {
    var registry = new SimpleMeterRegistry();
    String topic = Topic.SAMPLES.name();
    int batches = 40;
    int perBatch = 25;
    // a broker of its own: the class's other tests make new producers, and a producer made after a
    // restart of a single-node broker can be handed an idempotent producer id the broker still holds
    // sequences for; its records then wait out the delivery timeout
    try (EmbeddedKafka broker = EmbeddedKafka.temporary().start();
        Spool spool = Spool.open(spoolDir, 64 << 20, 1 << 20, true)) {
      Publisher publisher = new Publisher(spool, KafkaClients.of(broker.bootstrapServers()), "test-agent",
          Duration.ofSeconds(3), registry).start();
      for (int b = 0; b < batches; b++) {
        spool.append(batch(topic, b, perBatch));
        if (b == 10) broker.stop();   // mid-stream: some batches in flight, later ones spool up
        if (b == 30) {
          // The outage must outlast the producer's delivery timeout, or the failure-and-replay path
          // this test is about never runs (on a fast machine the producer's own retries would do).
          try {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> registry.get("reed.agent.publish.failures").counter().count() > 0);
          } finally {
            broker.start();
          }
        }
        Thread.sleep(100);
      }
      assertThat(spool.awaitEmpty(Duration.ofSeconds(90))).as("spool drained after the broker came back").isTrue();
      publisher.close();
      Map<String, Long> ids = idsOnTopic(broker.bootstrapServers(), topic);
      assertThat(ids).hasSize(batches * perBatch);
      assertThat(ids.values()).allMatch(n -> n == 1L);
    }
  }

  @Test
  void headBatchOfARestartedAgentIsNotDuplicated() throws Exception {
    // A batch that was acknowledged but not yet removed from the spool when the agent died.
    String topic = Topic.MESH_SAMPLES.name();
    List<SpooledRecord> first = batch(topic, 900, 5);
    try (Spool spool = Spool.open(spoolDir, 1 << 20, 1 << 20, true)) {
      spool.append(first);
      spool.append(batch(topic, 901, 5));
    }
    // deliver the head batch by other means, as the dead agent did
    try (Spool other = Spool.open(spoolDir.resolve("other"), 1 << 20, 1 << 20, true)) {
      other.append(first);
      Publisher p = new Publisher(other, KafkaClients.of(KAFKA.broker().bootstrapServers()), "other", Duration.ofSeconds(10),
          new SimpleMeterRegistry()).start();
      assertThat(other.awaitEmpty(Duration.ofSeconds(30))).isTrue();
      p.close();
    }
    var registry = new SimpleMeterRegistry();
    try (Spool spool = Spool.open(spoolDir, 1 << 20, 1 << 20, true)) {
      Publisher p = new Publisher(spool, KafkaClients.of(KAFKA.broker().bootstrapServers()), "restarted", Duration.ofSeconds(10), registry).start();
      assertThat(spool.awaitEmpty(Duration.ofSeconds(30))).isTrue();
      p.close();
    }
    assertThat(registry.get("reed.agent.publish.replay.skipped").counter().count()).isEqualTo(5);
    Map<String, Long> ids = idsOnTopic(KAFKA.broker().bootstrapServers(), topic);
    assertThat(ids).hasSize(10);
    assertThat(ids.values()).allMatch(n -> n == 1L);
  }

  @Test
  void aRecordTheBrokerRefusesIsSetAsideAndDoesNotBlockTheSpool() throws Exception {
    String topic = Topic.DEAD_LETTER.name(); // a topic this test may reconfigure: 1 KiB records at most
    try (var admin = KAFKA.broker().admin()) {
      var resource = new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic);
      admin.incrementalAlterConfigs(Map.of(resource, List.of(new org.apache.kafka.clients.admin.AlterConfigOp(
          new org.apache.kafka.clients.admin.ConfigEntry("max.message.bytes", "1024"),
          org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET)))).all().get();
    }
    byte[] big = new byte[8192];
    new java.util.SplittableRandom(1).nextBytes(big); // incompressible
    var registry = new SimpleMeterRegistry();
    try (Spool spool = Spool.open(spoolDir.resolve("refused"), 1 << 20, 1 << 20, true)) {
      long now = System.currentTimeMillis();
      spool.append(List.of(new SpooledRecord(topic, now, "t/1/big", "k1".getBytes(StandardCharsets.UTF_8), big)));
      spool.append(List.of(new SpooledRecord(topic, now, "t/1/small", "k2".getBytes(StandardCharsets.UTF_8), new byte[] {1})));
      Publisher p = new Publisher(spool, KafkaClients.of(KAFKA.broker().bootstrapServers()), "refused", Duration.ofSeconds(10), registry).start();
      assertThat(spool.awaitEmpty(Duration.ofSeconds(60))).isTrue();
      p.close();
    }
    assertThat(registry.get("reed.agent.publish.rejected").counter().count()).isEqualTo(1);
    assertThat(idsOnTopic(KAFKA.broker().bootstrapServers(), topic)).containsOnlyKeys("t/1/small");
  }
}
