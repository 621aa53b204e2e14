package dev.reed.coordinator.ingest;

import dev.reed.proto.Topic;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sets refused records aside on {@code reed.dead-letter}, bytes unchanged, with the reason and
 * the record's origin in headers ({@code reed.reason}, {@code reed.source-topic},
 * {@code reed.source-partition}, {@code reed.source-offset}): nothing is lost silently and nothing
 * invalid reaches the embedding (docs/design.md section 6).
 */
public final class DeadLetters {
  private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);
  public static final String REASON_HEADER = "reed.reason";

  private final Producer<byte[], byte[]> producer;
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong sendFailures = new AtomicLong();

  public DeadLetters(Producer<byte[], byte[]> producer) {
    this.producer = producer;
  }

  public void send(ConsumerRecord<byte[], byte[]> r, String reason) {
    long n = count.incrementAndGet();
    if (n <= 10 || Long.bitCount(n) == 1) {
      log.warn("dead-lettered {}-{}@{} ({} so far): {}", r.topic(), r.partition(), r.offset(), n, reason);
    }
    RecordHeaders h = new RecordHeaders();
    h.add(REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8));
    h.add("reed.source-topic", r.topic().getBytes(StandardCharsets.UTF_8));
    h.add("reed.source-partition", Integer.toString(r.partition()).getBytes(StandardCharsets.UTF_8));
    h.add("reed.source-offset", Long.toString(r.offset()).getBytes(StandardCharsets.UTF_8));
    producer.send(new ProducerRecord<>(Topic.DEAD_LETTER.name(), null, r.key(), r.value(), h), (md, e) -> {
      if (e != null) {
        sendFailures.incrementAndGet();
        log.warn("could not write dead letter for {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.toString());
      }
    });
  }

  public long count() {
    return count.get();
  }

  public long sendFailures() {
    return sendFailures.get();
  }
}
