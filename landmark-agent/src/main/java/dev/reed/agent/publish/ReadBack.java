package dev.reed.agent.publish;

import dev.reed.agent.spool.SpooledRecord;
import dev.reed.runtime.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * Finds which records of a batch already reached the broker, so a replay after an ambiguous
 * failure does not write them twice.
 *
 * <p>Why it is needed: the idempotent producer deduplicates its own retries (same producer id and
 * sequence numbers, kept by the broker across a restart), which covers any outage shorter than
 * the delivery timeout. When a batch expires instead, the producer cannot tell whether the broker
 * appended it before the connection died; sending it again from the spool could duplicate it. So
 * before such a replay the agent reads the batch's partitions back from the batch's own timestamp
 * ({@code offsetsForTimes}: the first offset whose timestamp is at or after it) to the end, and
 * collects the {@code reed-record-id} headers it finds. Records are timestamped when made and the
 * partition is fixed by the key, so the read is short and exact.
 */
final class ReadBack {
  private final KafkaClients kafka;
  private final Duration timeout;

  ReadBack(KafkaClients kafka, Duration timeout) {
    this.kafka = kafka;
    this.timeout = timeout;
  }

  /**
   * The ids of {@code records} found on the broker.
   *
   * @param partitionOf the partition each record is (or was) sent to
   * @throws org.apache.kafka.common.KafkaException if the broker cannot be read within the timeout
   */
  Set<String> present(List<SpooledRecord> records, java.util.function.ToIntFunction<SpooledRecord> partitionOf) {
    Map<TopicPartition, Long> from = new HashMap<>();
    Set<String> wanted = new HashSet<>();
    for (SpooledRecord r : records) {
      from.merge(new TopicPartition(r.topic(), partitionOf.applyAsInt(r)), r.timestampMillis(), Math::min);
      wanted.add(r.id());
    }
    Set<String> found = new HashSet<>();
    try (KafkaConsumer<byte[], byte[]> consumer = kafka.consumer("reed-agent-readback", Map.of(
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis(),
        ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeout.toMillis(), 30_000)))) {
      consumer.assign(from.keySet());
      Map<TopicPartition, OffsetAndTimestamp> start = consumer.offsetsForTimes(from, timeout);
      Map<TopicPartition, Long> end = consumer.endOffsets(from.keySet(), timeout);
      Map<TopicPartition, Long> remaining = new HashMap<>();
      Map<TopicPartition, Long> seekTo = new HashMap<>();
      for (TopicPartition tp : from.keySet()) {
        OffsetAndTimestamp s = start.get(tp);
        long e = end.getOrDefault(tp, 0L);
        if (s == null || s.offset() >= e) continue; // nothing at or after the batch's time
        seekTo.put(tp, s.offset());
        remaining.put(tp, e);
      }
      consumer.assign(remaining.keySet());
      seekTo.forEach(consumer::seek);
      long deadline = System.nanoTime() + timeout.toNanos();
      while (!remaining.isEmpty()) {
        if (System.nanoTime() > deadline) {
          throw new org.apache.kafka.common.errors.TimeoutException("read-back of " + remaining.keySet() + " not done in " + timeout);
        }
        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(200))) {
          Header h = rec.headers().lastHeader(Publisher.ID_HEADER);
          if (h != null) {
            String id = new String(h.value(), StandardCharsets.UTF_8);
            if (wanted.contains(id)) found.add(id);
          }
        }
        remaining.entrySet().removeIf(e -> consumer.position(e.getKey(), timeout) >= e.getValue());
      }
    }
    return found;
  }
}
