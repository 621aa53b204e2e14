package dev.reed.runtime;

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
 * {@code sasl.jaas.config}, {@code ssl.truststore.location}, ...), applied to every Kafka client a
 * service creates. Settings a service's guarantees rest on (the bootstrap servers, which come from
 * {@code --kafka}, serializers, acks, consumer groups, ...) are named by that service and cannot be
 * overridden: a file setting one is rejected with the key named. The landmark agent and the
 * coordinator both read their files here.
 */
public final class KafkaClientProperties {
  private KafkaClientProperties() {}

  /**
   * @param owned keys the service sets itself
   * @param service the service's name for error messages ("agent", "coordinator")
   * @throws IllegalArgumentException the file cannot be read or sets an owned key
   */
  public static Map<String, String> read(Path file, Set<String> owned, String service) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read Kafka client properties " + file + ": " + e.getMessage());
    }
    Map<String, String> out = new TreeMap<>();
    for (String key : p.stringPropertyNames()) {
      if (owned.contains(key)) {
        throw new IllegalArgumentException(file + ": '" + key + "' is set by the " + service + " and cannot be overridden"
            + (key.equals("bootstrap.servers") ? " (use --kafka)" : ""));
      }
      out.put(key, p.getProperty(key).strip());
    }
    return Map.copyOf(out);
  }
}
