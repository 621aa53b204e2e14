package dev.reed.testbed.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.proto.Topic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
class EmbeddedKafkaTest {

  @Test
  void createsTheProjectsTopicsAsDesignedAndKeepsDataAcrossARestart(@TempDir Path dir) throws Exception {
    try (EmbeddedKafka kafka = new EmbeddedKafka(0, dir.resolve("kafka"), true)) {
      kafka.start();
      try (var admin = kafka.admin()) {
        var names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        assertThat(names).containsAll(Topic.ALL.stream().map(Topic::name).toList());
        var descriptions = admin.describeTopics(List.of(Topic.SAMPLES.name())).allTopicNames().get(30, TimeUnit.SECONDS);
        assertThat(descriptions.get(Topic.SAMPLES.name()).partitions()).hasSize(Topic.SAMPLES.partitions());
        var resource = new ConfigResource(ConfigResource.Type.TOPIC, Topic.COORDINATES.name());
        var config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
        assertThat(config.get("cleanup.policy").value()).isEqualTo("compact");
      }

      // one producer through the restart, as an agent keeps its own: a producer made after a restart of
      // the single-node broker can be handed an idempotent producer id the broker still holds sequences
      // for, and its record then waits out the delivery timeout (2 min)
      try (var producer = producer(kafka)) {
        producer.send(new ProducerRecord<>(Topic.TARGETS.name(), "127.0.0.1:27960", "first")).get(30, TimeUnit.SECONDS);
        kafka.stop();
        assertThat(kafka.isRunning()).isFalse();
        kafka.start();
        producer.send(new ProducerRecord<>(Topic.TARGETS.name(), "127.0.0.1:27961", "second")).get(60, TimeUnit.SECONDS);
      }

      assertThat(readAll(kafka, Topic.TARGETS.name())).containsExactlyInAnyOrder("first", "second");
    }
  }

  @Test
  void kcatSeesTheBrokerAndItsTopics() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/kcat")), "kcat is not installed (Debian package kcat; .ci/run installs it)");
    try (EmbeddedKafka kafka = EmbeddedKafka.temporary().start()) {
      Process p = new ProcessBuilder("kcat", "-L", "-b", kafka.bootstrapServers(), "-m", "10")
          .redirectErrorStream(true).start();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("kcat finished").isTrue();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(out).isZero();
      assertThat(out).contains("1 brokers:").contains("topic \"reed.samples\" with 12 partitions");
    }
  }

  private static KafkaProducer<String, String> producer(EmbeddedKafka kafka) {
    Map<String, Object> props = Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
  }

  private static List<String> readAll(EmbeddedKafka kafka, String topic) {
    Map<String, Object> props = Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<String> values = new ArrayList<>();
    try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) values.add(r.value());
      }
    }
    return values;
  }
}
