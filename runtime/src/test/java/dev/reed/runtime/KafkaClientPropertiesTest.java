package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientPropertiesTest {
  private static final Set<String> OWNED = Set.of("bootstrap.servers", "group.id");

  @Test
  void readsPropertiesAndStripsValues(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("client.properties");
    Files.writeString(f, """
        # Strimzi TLS listener
        security.protocol=SSL
        ssl.truststore.location = /etc/reed/ca.p12   \s
        sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\
            username="reed" password="x";
        """);
    Map<String, String> p = KafkaClientProperties.read(f, OWNED, "coordinator");
    assertThat(p).containsEntry("security.protocol", "SSL").containsEntry("ssl.truststore.location", "/etc/reed/ca.p12")
        .containsEntry("sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"reed\" password=\"x\";")
        .hasSize(3);
  }

  @Test
  void ownedKeysAndUnreadableFilesAreRejectedWithTheReason(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.properties");
    Files.writeString(f, "security.protocol=SSL\ngroup.id=mine\n");
    assertThatThrownBy(() -> KafkaClientProperties.read(f, OWNED, "coordinator"))
        .hasMessage(f + ": 'group.id' is set by the coordinator and cannot be overridden");
    Files.writeString(f, "bootstrap.servers=k:9092\n");
    assertThatThrownBy(() -> KafkaClientProperties.read(f, OWNED, "agent"))
        .hasMessage(f + ": 'bootstrap.servers' is set by the agent and cannot be overridden (use --kafka)");
    assertThatThrownBy(() -> KafkaClientProperties.read(dir.resolve("missing"), OWNED, "agent"))
        .hasMessageStartingWith("cannot read Kafka client properties " + dir.resolve("missing"));
  }
}
