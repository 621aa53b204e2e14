package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.Topic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Strimzi resources: well-formed (StrimziSchema), one KafkaTopic per {@link Topic} with the
 * same partitions and cleanup configuration, replication that the node pool can hold, and
 * KafkaUsers whose ACLs give each client exactly what docs/design.md section 2 says it needs.
 */
@Tag("integration")
class StrimziResourcesTest {

  @Test
  void everyStrimziResourceIsWellFormed() throws Exception {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (Path file : ManifestSet.sourceFiles(Checkout.k8s())) {
      for (Manifest m : ManifestSet.read(file).manifests()) {
        // overlay patches are partial by design; the rendered overlays are checked in full below
        if (!m.isStrimzi() || file.toString().contains("/overlays/")) continue;
        problems.addAll(StrimziSchema.problems(m));
        checked++;
      }
    }
    assertThat(checked).as("Strimzi resources in k8s/").isGreaterThanOrEqualTo(2 + Topic.ALL.size() + 2);
    assertThat(problems).isEmpty();
  }

  @Test
  void aWrongResourceIsReported() {
    Manifest wrong = ManifestSet.parse("""
        apiVersion: kafka.strimzi.io/v1beta1
        kind: KafkaTopic
        metadata:
          name: reed-samples
        spec:
          partition: 12
          replicas: 3
        """, "test").manifests().get(0);
    assertThat(String.join("\n", StrimziSchema.problems(wrong)))
        .contains("apiVersion must be kafka.strimzi.io/v1beta2")
        .contains("unknown field partition")
        .contains("spec.partitions must be a positive integer")
        .contains("strimzi.io/cluster is required")
        .contains("spec.topicName is required");
  }

  @Test
  void brokerOptionsStrimziManagesAreRejected() {
    Manifest kafka = ManifestSet.parse("""
        apiVersion: kafka.strimzi.io/v1beta2
        kind: Kafka
        metadata:
          name: reed-kafka
          annotations: {strimzi.io/kraft: enabled, strimzi.io/node-pools: enabled}
        spec:
          kafka:
            listeners: [{name: tls, port: 9093, type: internal, tls: true}]
            authorization: {type: simple}
            config: {ssl.client.auth: required, advertised.listeners: x, min.insync.replicas: 2}
          entityOperator: {topicOperator: {}, userOperator: {}}
        """, "test").manifests().get(0);
    assertThat(StrimziSchema.problems(kafka)).hasSize(2)
        .anyMatch(p -> p.contains("Strimzi manages ssl.client.auth"))
        .anyMatch(p -> p.contains("Strimzi manages advertised.listeners"));
  }

  @Test
  void renderedOverlaysAreWellFormedAndReplicationFitsTheNodePool() throws Exception {
    Kustomize kustomize = Kustomize.require();
    for (String root : Kustomize.ROOTS) {
      ManifestSet set = kustomize.build(Checkout.k8s().resolve(root));
      List<String> problems = new ArrayList<>();
      set.manifests().stream().filter(Manifest::isStrimzi).forEach(m -> problems.addAll(StrimziSchema.problems(m)));
      assertThat(problems).as(root).isEmpty();

      Manifest kafka = set.one("Kafka", "reed-kafka");
      int brokers = set.ofKind("KafkaNodePool").stream()
          .filter(p -> "reed-kafka".equals(p.map("metadata.labels").get("strimzi.io/cluster")))
          .filter(p -> p.list("spec.roles").contains("broker"))
          .mapToInt(p -> (Integer) p.at("spec.replicas")).sum();
      int controllers = set.ofKind("KafkaNodePool").stream()
          .filter(p -> p.list("spec.roles").contains("controller"))
          .mapToInt(p -> (Integer) p.at("spec.replicas")).sum();
      assertThat(controllers % 2).as("%s: a KRaft quorum needs an odd number of controllers", root).isEqualTo(1);

      Map<String, Object> config = kafka.map("spec.kafka.config");
      int minIsr = ((Number) config.get("min.insync.replicas")).intValue();
      for (String key : List.of("default.replication.factor", "offsets.topic.replication.factor",
          "transaction.state.log.replication.factor")) {
        assertThat(((Number) config.get(key)).intValue()).as("%s: %s <= brokers", root, key).isBetween(1, brokers);
      }
      for (Manifest topic : set.ofKind("KafkaTopic")) {
        int replicas = (Integer) topic.at("spec.replicas");
        assertThat(replicas).as("%s: %s replicas <= %d brokers", root, topic.name(), brokers).isBetween(1, brokers);
        assertThat(minIsr).as("%s: %s min.insync.replicas <= replicas", root, topic.name()).isLessThanOrEqualTo(replicas);
        if (brokers >= 3) {
          assertThat(replicas).as("%s: %s survives one broker loss with acks=all", root, topic.name())
              .isGreaterThan(minIsr);
        }
      }
    }
  }

  @Test
  void kafkaTopicsMatchTheTopicDefinitions() throws Exception {
    ManifestSet topics = ManifestSet.read(Checkout.k8s().resolve("base/kafka/kafkatopics.yaml"));
    Map<String, Manifest> byName = new TreeMap<>();
    for (Manifest t : topics.ofKind("KafkaTopic")) {
      assertThat(byName.put(t.string("spec.topicName"), t)).as("duplicate topic %s", t.string("spec.topicName")).isNull();
    }
    Set<String> expected = new TreeSet<>();
    for (Topic topic : Topic.ALL) {
      expected.add(topic.name());
      Manifest t = byName.get(topic.name());
      assertThat(t).as("KafkaTopic for %s", topic.name()).isNotNull();
      assertThat(t.at("spec.partitions")).as("%s partitions", topic.name()).isEqualTo(topic.partitions());
      Map<String, String> config = new TreeMap<>();
      t.map("spec.config").forEach((k, v) -> config.put(k, String.valueOf(v)));
      assertThat(config).as("%s config", topic.name()).isEqualTo(new TreeMap<>(topic.configs()));
      assertThat(t.name()).as("metadata.name of %s", topic.name()).isEqualTo(topic.name().replace('.', '-'));
    }
    assertThat(byName.keySet()).as("no KafkaTopic without a Topic definition").isEqualTo(expected);
  }

  @Test
  void agentsMayOnlyPublishMeasurementsAndReadTheCatalogAndTheirOwnOutput() throws Exception {
    List<Manifest> agents = new ArrayList<>();
    agents.add(ManifestSet.read(Checkout.k8s().resolve("base/kafka/kafkausers.yaml")).one("KafkaUser", "reed-agent"));
    agents.add(ManifestSet.read(Checkout.k8s().resolve("components/landmark-agents/kafkauser.yaml"))
        .one("KafkaUser", "reed-landmark-agent"));
    for (Manifest agent : agents) {
      Acls acls = Acls.of(agent);
      assertThat(acls.topicsWith("Write")).as(agent.id())
          .containsExactlyInAnyOrder(Topic.SAMPLES.name(), Topic.MESH_SAMPLES.name(), Topic.LANDMARKS.name());
      // the catalog and directory (targets, landmarks), and read-back of its own output before a
      // replay (samples, mesh samples): nothing the coordinator produces
      assertThat(acls.topicsWith("Read")).as(agent.id()).containsExactlyInAnyOrder(Topic.TARGETS.name(),
          Topic.LANDMARKS.name(), Topic.SAMPLES.name(), Topic.MESH_SAMPLES.name());
      assertThat(acls.topicsWith("Describe")).as(agent.id()).doesNotContain(Topic.COORDINATES.name(),
          Topic.LANDMARK_COORDINATES.name(), Topic.DEAD_LETTER.name());
      assertThat(acls.operations()).as(agent.id()).isSubsetOf(Set.of("Read", "Write", "Describe"));
      assertThat(acls.topicPatterns()).as("%s: topic ACLs name topics exactly", agent.id()).containsOnly("literal");
      assertThat(acls.resourceTypes()).as("%s: no consumer groups (assign only)", agent.id()).containsOnly("topic");
    }
  }

  @Test
  void coordinatorReadsSamplesAndWritesCoordinatesButCannotForgeSamples() throws Exception {
    Acls acls = Acls.of(ManifestSet.read(Checkout.k8s().resolve("base/kafka/kafkausers.yaml"))
        .one("KafkaUser", "reed-coordinator"));
    assertThat(acls.topicsWith("Read")).contains(Topic.SAMPLES.name(), Topic.MESH_SAMPLES.name(),
        Topic.TARGETS.name(), Topic.LANDMARKS.name(), Topic.COORDINATES.name(), Topic.LANDMARK_COORDINATES.name(),
        Topic.CLIENT_REPORTS.name());
    assertThat(acls.topicsWith("Write")).containsExactlyInAnyOrder(Topic.COORDINATES.name(),
        Topic.LANDMARK_COORDINATES.name(), Topic.TARGETS.name(), Topic.DEAD_LETTER.name(),
        Topic.CLIENT_REPORTS.name());
    assertThat(acls.operations()).isSubsetOf(Set.of("Read", "Write", "Describe"));
    assertThat(acls.resourceTypes()).isSubsetOf(Set.of("topic", "group"));
    assertThat(acls.topicPatterns()).containsOnly("literal");
  }

  /** The ACL rules of one KafkaUser, flattened. */
  private record Acls(List<Map<String, Object>> rules) {
    static Acls of(Manifest user) {
      return new Acls(Manifest.maps(user.at("spec.authorization.acls")));
    }

    Set<String> topicsWith(String operation) {
      Set<String> topics = new TreeSet<>();
      for (Map<String, Object> r : rules) {
        Map<String, Object> res = Manifest.asMap(r.get("resource"), "resource");
        if ("topic".equals(res.get("type")) && ((List<?>) r.get("operations")).contains(operation)) {
          topics.add((String) res.get("name"));
        }
      }
      return topics;
    }

    Set<Object> operations() {
      Set<Object> ops = new TreeSet<>();
      rules.forEach(r -> ops.addAll((List<?>) r.get("operations")));
      return ops;
    }

    Set<Object> resourceTypes() {
      Set<Object> types = new TreeSet<>();
      rules.forEach(r -> types.add(Manifest.asMap(r.get("resource"), "resource").get("type")));
      return types;
    }

    Set<Object> topicPatterns() {
      Set<Object> patterns = new TreeSet<>();
      for (Map<String, Object> r : rules) {
        Map<String, Object> res = Manifest.asMap(r.get("resource"), "resource");
        if ("topic".equals(res.get("type"))) patterns.add(res.getOrDefault("patternType", "literal"));
      }
      return patterns;
    }
  }
}
