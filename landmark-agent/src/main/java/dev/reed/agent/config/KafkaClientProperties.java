package dev.reed.agent.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kafka client settings from an operator's properties file ({@code --kafka-config FILE}): TLS and
 * SASL for production listeners ({@code security.protocol}, {@code sasl.mechanism},
 * {@code sasl.jaas.config}, {@code ssl.truststore.location}, ...), applied to the agent's producer
 * and consumers. Settings the agent's guarantees rest on (acks, idempotence, serializers, the
 * bootstrap servers, which come from {@code --kafka}) cannot be overridden: such a file is
 * rejected with the key named.
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
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read Kafka client properties " + file + ": " + e.getMessage());
    }
    Map<String, String> out = new TreeMap<>();
    for (String key : p.stringPropertyNames()) {
      if (RESERVED.contains(key)) {
        throw new IllegalArgumentException(file + ": '" + key + "' is set by the agent and cannot be overridden"
            + (key.equals("bootstrap.servers") ? " (use --kafka)" : ""));
      }
      out.put(key, p.getProperty(key).strip());
    }
    return Map.copyOf(out);
  }
}
