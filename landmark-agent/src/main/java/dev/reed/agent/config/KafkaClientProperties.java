package dev.reed.agent.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The agent's {@code --kafka-config FILE}: Kafka client settings (TLS, SASL) for the agent's
 * producer and consumers, read by {@link dev.reed.proto.KafkaClientProperties}. The keys the agent's
 * guarantees rest on (acks, idempotence, serializers, the bootstrap servers, which come from
 * {@code --kafka}) are the agent's and a file setting one is rejected with the key named.
 */
public final class KafkaClientProperties {
  /** Keys the agent owns. */
  public static final Set<String> RESERVED = Set.of("bootstrap.servers", "acks", "enable.idempotence",
      "max.in.flight.requests.per.connection", "retries", "transactional.id", "key.serializer", "value.serializer",
      "key.deserializer", "value.deserializer", "enable.auto.commit", "group.id", "isolation.level");

  private KafkaClientProperties() {}

  /**
   * @throws IllegalArgumentException the file cannot be read or sets a reserved key
   */
  public static Map<String, String> read(Path file) {
    return dev.reed.proto.KafkaClientProperties.read(file, RESERVED, "agent");
  }
}
