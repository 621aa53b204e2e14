package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.agent.AgentConfig;
import dev.reed.coordinator.CoordinatorConfig;
import java.io.StringReader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Kafka client settings the pods mount (client.properties in a ConfigMap) resolve with the real
 * kafka-clients: the keystore password comes from the file the Strimzi User Operator writes, through
 * DirectoryConfigProvider, allowed by the JVM option the workload sets (Kafka only runs listed
 * config providers when that system property is set). Paths are moved into a temporary directory
 * laid out like the pod's mounts.
 */
class KafkaClientPropertiesTest {

  private static final String ALLOWLIST = "org.apache.kafka.automatic.config.providers";

  @TempDir Path root;

  @ParameterizedTest
  @CsvSource({
      "base/coordinator/configmap.yaml, reed-coordinator-kafka-client, base/coordinator/deployment.yaml",
      "components/landmark-agents/configmap.yaml, reed-landmark-agent-kafka-client, components/landmark-agents/daemonset.yaml"})
  void keystorePasswordResolvesFromTheStrimziSecretFile(String file, String configMap, String workloadFile) throws Exception {
    Properties props = mountedProperties(file, configMap);
    Workload workload = new Workload(ManifestSet.read(Checkout.k8s().resolve(workloadFile)).manifests().get(0));
    String allowed = allowlistFrom(workload, ManifestSet.read(Checkout.k8s().resolve(file)));

    String previous = System.getProperty(ALLOWLIST);
    System.setProperty(ALLOWLIST, allowed);
    try {
      ProducerConfig config = new ProducerConfig(producer(props));
      assertThat(config.getPassword("ssl.keystore.password").value()).isEqualTo("from-strimzi-secret");
      assertThat(config.getString("security.protocol")).isEqualTo("SSL");
      assertThat(config.getString("ssl.keystore.location")).isEqualTo(root.resolve("user/user.p12").toString());
      assertThat(config.getString("ssl.truststore.type")).isEqualTo("PEM");

      // and the allowlist matters: a provider that is not listed is refused
      System.setProperty(ALLOWLIST, "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
      assertThatThrownBy(() -> new ProducerConfig(producer(props))).hasMessageContaining("DirectoryConfigProvider");
    } finally {
      if (previous == null) System.clearProperty(ALLOWLIST);
      else System.setProperty(ALLOWLIST, previous);
    }
  }

  @Test
  void theAgentAcceptsItsMountedFileAsKafkaConfig() throws Exception {
    Path file = written(mountedProperties("components/landmark-agents/configmap.yaml", "reed-landmark-agent-kafka-client"));
    // the agent's --kafka-config reader: rejects keys the agent owns, passes the rest to its clients
    Map<String, String> read = dev.reed.runtime.KafkaClientProperties.read(file, AgentConfig.KAFKA_OWNED_KEYS, "agent");
    assertThat(read).containsEntry("security.protocol", "SSL")
        .containsEntry("ssl.keystore.password", "${dir:" + root.resolve("user") + ":user.password}");
  }

  @Test
  void theCoordinatorAcceptsItsMountedFileAsKafkaConfig() throws Exception {
    Path file = written(mountedProperties("base/coordinator/configmap.yaml", "reed-coordinator-kafka-client"));
    // what CoordinatorCommand does with --kafka-config: the shared reader with the coordinator's own keys
    Map<String, String> read = dev.reed.runtime.KafkaClientProperties.read(file, CoordinatorConfig.KAFKA_OWNED_KEYS, "coordinator");
    assertThat(read).containsEntry("security.protocol", "SSL").containsKey("config.providers");
  }

  private Path written(Properties properties) throws Exception {
    Path file = root.resolve("client.properties");
    try (Writer out = Files.newBufferedWriter(file)) {
      properties.store(out, null);
    }
    return file;
  }

  private Properties mountedProperties(String file, String configMap) throws Exception {
    String text = (String) ManifestSet.read(Checkout.k8s().resolve(file)).one("ConfigMap", configMap)
        .map("data").get("client.properties");
    Files.createDirectories(root.resolve("user"));
    Files.createDirectories(root.resolve("cluster-ca"));
    Files.writeString(root.resolve("user/user.password"), "from-strimzi-secret");
    Properties props = new Properties();
    props.load(new StringReader(text.replace("/etc/reed/kafka/", root + "/")));
    return props;
  }

  private static Map<String, Object> producer(Properties props) {
    Map<String, Object> map = new HashMap<>();
    props.forEach((k, v) -> map.put((String) k, v));
    map.put("bootstrap.servers", "reed-kafka-kafka-bootstrap:9093");
    map.put("key.serializer", ByteArraySerializer.class);
    map.put("value.serializer", ByteArraySerializer.class);
    return map;
  }

  private static String allowlistFrom(Workload workload, ManifestSet config) {
    String options = workload.env(config).get("JAVA_TOOL_OPTIONS");
    assertThat(options).as("JAVA_TOOL_OPTIONS of " + workload.manifest().id()).contains("-D" + ALLOWLIST + "=");
    return options.substring(options.indexOf("-D" + ALLOWLIST + "=") + ALLOWLIST.length() + 3).split("\\s+")[0];
  }
}
