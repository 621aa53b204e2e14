package dev.reed.agent;

import dev.reed.agent.publish.Publisher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads a whole topic back, as the tests' independent view of what reached the broker. */
public final class TopicDump {
  /** One record as stored. */
  public record Rec(String key, byte[] value, String id, int partition, long timestamp) {}

  private TopicDump() {}

  public static List<Rec> read(String bootstrap, String topic) {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    List<Rec> out = new ArrayList<>();
    try (var c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> tps = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
      c.assign(tps);
      c.seekToBeginning(tps);
      Map<TopicPartition, Long> end = c.endOffsets(tps);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) throw new IllegalStateException("reading " + topic + " took over 60 s");
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          Header h = r.headers().lastHeader(Publisher.ID_HEADER);
          out.add(new Rec(r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8), r.value(),
              h == null ? null : new String(h.value(), StandardCharsets.UTF_8), r.partition(), r.timestamp()));
        }
      }
    }
    return out;
  }

  /** Record id -> how often it occurs on the topic. */
  public static Map<String, Long> idCounts(String bootstrap, String topic) {
    return read(bootstrap, topic).stream().collect(Collectors.groupingBy(Rec::id, Collectors.counting()));
  }

  /** Convenience for tests: group by an arbitrary function. */
  public static <K> Map<K, Long> counts(List<Rec> recs, Function<Rec, K> f) {
    return recs.stream().collect(Collectors.groupingBy(f, Collectors.counting()));
  }
}
