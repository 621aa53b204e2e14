package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaClientsTest {
  @Test
  void operatorSettingsComeFirstThenBrokerAndIdThenTheCallersOwn() {
    KafkaClients k = new KafkaClients("10.0.0.1:9092", Map.of("security.protocol", "SSL", "linger.ms", "50",
        "client.id", "from-file"));
    Map<String, Object> s = k.settings("reed-x", Map.of("linger.ms", 5, "acks", "all"));
    assertThat(s).containsEntry("bootstrap.servers", "10.0.0.1:9092").containsEntry("client.id", "reed-x")
        .containsEntry("security.protocol", "SSL").containsEntry("linger.ms", 5).containsEntry("acks", "all");
    assertThat(k.settings(null, Map.of())).as("no id: the operator's or Kafka's own").containsEntry("client.id", "from-file");
    assertThat(KafkaClients.of("b:1").settings(null, Map.of())).containsOnly(Map.entry("bootstrap.servers", "b:1"));
  }
}
