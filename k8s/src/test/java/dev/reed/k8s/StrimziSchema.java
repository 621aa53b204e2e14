package dev.reed.k8s;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A structural check of the Strimzi custom resources reed uses (Kafka, KafkaNodePool, KafkaTopic,
 * KafkaUser, apiVersion kafka.strimzi.io/v1beta2). The Kubernetes Java client has no model for them,
 * so this lists, per kind, the fields Strimzi's CRDs define at the levels reed writes and the ones
 * reed requires; anything else is reported, as the strict loader does for built-in kinds.
 */
final class StrimziSchema {

  static final String API_VERSION = "kafka.strimzi.io/v1beta2";

  private static final Set<String> KAFKA_SPEC = Set.of("kafka", "entityOperator", "clusterCa", "clientsCa",
      "cruiseControl", "kafkaExporter", "maintenanceTimeWindows");
  private static final Set<String> KAFKA_KAFKA = Set.of("version", "metadataVersion", "image", "listeners",
      "config", "authorization", "rack", "brokerRackInitImage", "livenessProbe", "readinessProbe",
      "jvmOptions", "jmxOptions", "resources", "metricsConfig", "logging", "template", "tieredStorage", "quotas");
  private static final Set<String> LISTENER = Set.of("name", "port", "type", "tls", "authentication",
      "configuration", "networkPolicyPeers");
  private static final Set<String> LISTENER_TYPES = Set.of("internal", "route", "loadbalancer", "nodeport",
      "ingress", "cluster-ip");
  private static final Set<String> ENTITY_OPERATOR = Set.of("topicOperator", "userOperator", "tlsSidecar", "template");
  private static final Set<String> NODE_POOL_SPEC = Set.of("replicas", "storage", "roles", "resources",
      "jvmOptions", "template");
  private static final Set<String> STORAGE = Set.of("type", "volumes", "size", "class", "deleteClaim",
      "selector", "kraftMetadata", "sizeLimit", "id", "overrides");
  private static final Set<String> TOPIC_SPEC = Set.of("topicName", "partitions", "replicas", "config");
  private static final Set<String> USER_SPEC = Set.of("authentication", "authorization", "quotas", "template");
  private static final Set<String> ACL_RULE = Set.of("type", "resource", "host", "operation", "operations");
  private static final Set<String> ACL_RESOURCE = Set.of("type", "name", "patternType");
  static final Set<String> ACL_OPERATIONS = Set.of("Read", "Write", "Create", "Delete", "Alter", "Describe",
      "ClusterAction", "AlterConfigs", "DescribeConfigs", "IdempotentWrite", "All");
  private static final Set<String> USER_AUTH = Set.of("tls", "tls-external", "scram-sha-512");
  /** Broker options Strimzi manages itself and rejects in spec.kafka.config. */
  private static final List<String> FORBIDDEN_CONFIG_PREFIXES = List.of("listeners", "advertised.", "broker.",
      "listener.", "host.name", "port", "inter.broker.listener.name", "sasl.", "ssl.", "security.", "password.",
      "log.dir", "zookeeper.", "authorizer.", "super.user", "node.id", "process.roles", "controller.",
      "metadata.log.dir", "cruise.control.metrics.reporter.bootstrap.servers");

  private StrimziSchema() {}

  /** Problems found in one Strimzi resource; empty when it is well-formed. */
  static List<String> problems(Manifest m) {
    List<String> p = new ArrayList<>();
    if (!API_VERSION.equals(m.apiVersion())) p.add("apiVersion must be " + API_VERSION + ", is " + m.apiVersion());
    if (m.name() == null || !m.name().matches("[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) p.add("metadata.name is not a DNS name: " + m.name());
    switch (m.kind()) {
      case "Kafka" -> kafka(m, p);
      case "KafkaNodePool" -> nodePool(m, p);
      case "KafkaTopic" -> topic(m, p);
      case "KafkaUser" -> user(m, p);
      default -> p.add("unexpected Strimzi kind " + m.kind());
    }
    return p.stream().map(s -> m.id() + ": " + s).toList();
  }

  private static void kafka(Manifest m, List<String> p) {
    onlyKeys(m.map("spec"), KAFKA_SPEC, "spec", p);
    onlyKeys(m.map("spec.kafka"), KAFKA_KAFKA, "spec.kafka", p);
    Map<String, Object> annotations = m.map("metadata.annotations");
    if (!"enabled".equals(annotations.get("strimzi.io/kraft"))) p.add("KRaft needs annotation strimzi.io/kraft: enabled");
    if (!"enabled".equals(annotations.get("strimzi.io/node-pools"))) p.add("node pools need annotation strimzi.io/node-pools: enabled");
    if (m.at("spec.zookeeper") != null) p.add("spec.zookeeper: reed runs KRaft, no ZooKeeper");
    List<Map<String, Object>> listeners = Manifest.maps(m.at("spec.kafka.listeners"));
    if (listeners.isEmpty()) p.add("spec.kafka.listeners is required");
    for (Map<String, Object> l : listeners) {
      onlyKeys(l, LISTENER, "listener " + l.get("name"), p);
      if (!(l.get("name") instanceof String n) || !n.matches("[a-z0-9]{1,11}")) p.add("listener name must be 1-11 lowercase alphanumerics: " + l.get("name"));
      if (!(l.get("port") instanceof Integer port) || port < 9092 || port == 9404) p.add("listener port must be an integer >= 9092, not 9404: " + l.get("port"));
      if (!LISTENER_TYPES.contains(String.valueOf(l.get("type")))) p.add("listener type unknown: " + l.get("type"));
      if (!(l.get("tls") instanceof Boolean)) p.add("listener " + l.get("name") + ": tls (boolean) is required");
    }
    if (!"simple".equals(m.string("spec.kafka.authorization.type"))) p.add("spec.kafka.authorization.type must be simple (ACLs)");
    for (String key : m.map("spec.kafka.config").keySet()) {
      if (FORBIDDEN_CONFIG_PREFIXES.stream().anyMatch(key::startsWith)) p.add("spec.kafka.config: Strimzi manages " + key);
    }
    onlyKeys(m.map("spec.entityOperator"), ENTITY_OPERATOR, "spec.entityOperator", p);
    if (m.at("spec.entityOperator.topicOperator") == null) p.add("the Topic Operator is needed for the KafkaTopics");
    if (m.at("spec.entityOperator.userOperator") == null) p.add("the User Operator is needed for the KafkaUsers");
  }

  private static void nodePool(Manifest m, List<String> p) {
    onlyKeys(m.map("spec"), NODE_POOL_SPEC, "spec", p);
    clusterLabel(m, p);
    if (!(m.at("spec.replicas") instanceof Integer r) || r < 1) p.add("spec.replicas must be a positive integer");
    List<Object> roles = m.list("spec.roles");
    if (roles.isEmpty() || !Set.of("controller", "broker").containsAll(roles)) p.add("spec.roles must be controller and/or broker: " + roles);
    Map<String, Object> storage = m.map("spec.storage");
    onlyKeys(storage, STORAGE, "spec.storage", p);
    if (!Set.of("jbod", "persistent-claim", "ephemeral").contains(String.valueOf(storage.get("type")))) p.add("spec.storage.type unknown: " + storage.get("type"));
    for (Map<String, Object> v : Manifest.maps(storage.get("volumes"))) {
      onlyKeys(v, STORAGE, "spec.storage.volumes[]", p);
      if (!(v.get("id") instanceof Integer)) p.add("jbod volume needs an integer id");
    }
  }

  private static void topic(Manifest m, List<String> p) {
    onlyKeys(m.map("spec"), TOPIC_SPEC, "spec", p);
    clusterLabel(m, p);
    if (!(m.at("spec.partitions") instanceof Integer n) || n < 1) p.add("spec.partitions must be a positive integer");
    if (!(m.at("spec.replicas") instanceof Integer n) || n < 1) p.add("spec.replicas must be a positive integer");
    if (m.string("spec.topicName") == null) p.add("spec.topicName is required (Kafka names contain dots)");
  }

  private static void user(Manifest m, List<String> p) {
    onlyKeys(m.map("spec"), USER_SPEC, "spec", p);
    clusterLabel(m, p);
    if (!USER_AUTH.contains(m.string("spec.authentication.type"))) p.add("spec.authentication.type unknown: " + m.string("spec.authentication.type"));
    if (!"simple".equals(m.string("spec.authorization.type"))) p.add("spec.authorization.type must be simple");
    List<Map<String, Object>> acls = Manifest.maps(m.at("spec.authorization.acls"));
    if (acls.isEmpty()) p.add("spec.authorization.acls is empty: the user could do nothing");
    for (Map<String, Object> acl : acls) {
      onlyKeys(acl, ACL_RULE, "acl", p);
      Map<String, Object> res = Manifest.asMap(acl.get("resource"), "acl.resource");
      onlyKeys(res, ACL_RESOURCE, "acl.resource", p);
      if (!Set.of("topic", "group", "cluster", "transactionalId").contains(String.valueOf(res.get("type")))) p.add("acl resource type unknown: " + res.get("type"));
      if (!Set.of("literal", "prefix").contains(String.valueOf(res.getOrDefault("patternType", "literal")))) p.add("acl patternType unknown: " + res.get("patternType"));
      List<Object> ops = acl.get("operations") instanceof List<?> l ? List.copyOf(l) : List.of();
      if (ops.isEmpty() || !ACL_OPERATIONS.containsAll(ops)) p.add("acl operations must be non-empty Kafka operations: " + ops);
    }
  }

  private static void clusterLabel(Manifest m, List<String> p) {
    if (m.map("metadata.labels").get("strimzi.io/cluster") == null) {
      p.add("metadata.labels strimzi.io/cluster is required");
    }
  }

  private static void onlyKeys(Map<String, Object> node, Set<String> allowed, String where, List<String> p) {
    for (String key : node.keySet()) {
      if (!allowed.contains(key)) p.add(where + ": unknown field " + key);
    }
  }
}
