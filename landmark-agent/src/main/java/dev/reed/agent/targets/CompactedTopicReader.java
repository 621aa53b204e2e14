package dev.reed.agent.targets;

import dev.reed.runtime.KafkaClients;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a compacted topic from its beginning to its current end and returns the latest value per
 * key, tombstones applied. The agent reads {@code reed.targets} and {@code reed.landmarks} in full
 * at the start of every round: both are small (one record per server or landmark), so a full read
 * is simpler and more robust than tracking offsets, and a tombstone removes a target at the next
 * round. No consumer group: nothing is committed.
 *
 * <p>Not thread-safe: the round thread owns it.
 */
public final class CompactedTopicReader implements AutoCloseable {
  private final KafkaConsumer<String, byte[]> consumer;
  private final Duration timeout;

  /** @param kafka the broker and the operator's Kafka settings (TLS, SASL) */
  public CompactedTopicReader(KafkaClients kafka, String clientId, Duration timeout) {
    this.consumer = kafka.consumer(clientId, Map.of(
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis(),
        ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1_000, timeout.toMillis() / 2),
        ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1_000), new StringDeserializer());
    this.timeout = timeout;
  }

  /**
   * Latest value per key, in first-seen order.
   *
   * @throws org.apache.kafka.common.KafkaException if the broker cannot be read within the timeout
   */
  public Map<String, byte[]> readAll(String topic) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<TopicPartition> tps = consumer.partitionsFor(topic, timeout).stream()
        .map(p -> new TopicPartition(topic, p.partition())).toList();
    consumer.assign(tps);
    consumer.seekToBeginning(tps);
    Map<TopicPartition, Long> end = consumer.endOffsets(tps, timeout);
    Map<String, byte[]> latest = new LinkedHashMap<>();
    while (tps.stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
      if (System.nanoTime() > deadline) {
        throw new org.apache.kafka.common.errors.TimeoutException("reading " + topic + " took longer than " + timeout);
      }
      for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        if (r.key() == null) continue;
        if (r.value() == null) latest.remove(r.key());
        else latest.put(r.key(), r.value());
      }
    }
    return latest;
  }

  @Override
  public void close() {
    consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(2)));
  }
}
