package dev.reed.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Every Kafka client of a service, made in one place: the operator's client settings
 * ({@code --kafka-config}, read by {@link KafkaClientProperties}) first, then the bootstrap
 * servers ({@code --kafka}) and the client's id, then the settings the caller's guarantees rest on
 * (acks, offsets, timeouts), which win. Values are byte arrays; consumers choose their key type.
 *
 * @param bootstrap {@code bootstrap.servers}
 * @param properties the operator's settings (TLS, SASL)
 */
public record KafkaClients(String bootstrap, Map<String, String> properties) {

  public KafkaClients {
    Objects.requireNonNull(bootstrap, "bootstrap");
    properties = properties == null ? Map.of() : Map.copyOf(properties);
  }

  /** Only a broker address: what tests and tools use. */
  public static KafkaClients of(String bootstrap) {
    return new KafkaClients(bootstrap, Map.of());
  }

  /**
   * The settings of one client.
   *
   * @param clientId {@code client.id}; null = Kafka's own
   * @param own the caller's settings, applied last
   */
  public Map<String, Object> settings(String clientId, Map<String, ?> own) {
    Map<String, Object> p = new HashMap<>(properties);
    p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    if (clientId != null) p.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
    p.putAll(own);
    return p;
  }

  /** A producer of byte-array keys and values. */
  public KafkaProducer<byte[], byte[]> producer(String clientId, Map<String, ?> own) {
    return new KafkaProducer<>(settings(clientId, own), new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** A consumer of byte-array keys and values. */
  public KafkaConsumer<byte[], byte[]> consumer(String clientId, Map<String, ?> own) {
    return consumer(clientId, own, new ByteArrayDeserializer());
  }

  /** A consumer of byte-array values with keys read by {@code keys}. */
  public <K> KafkaConsumer<K, byte[]> consumer(String clientId, Map<String, ?> own, Deserializer<K> keys) {
    return new KafkaConsumer<>(settings(clientId, own), keys, new ByteArrayDeserializer());
  }

  /** An admin client. */
  public Admin admin(String clientId, Map<String, ?> own) {
    return Admin.create(settings(clientId, own));
  }
}
