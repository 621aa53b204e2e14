package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The optional serving replicas (k8s/components/serving-replicas): the coordinator's own command line,
 * reading the rendered configuration as its environment, runs them with {@code --serve-only} and the
 * same TLS certificate, API keys, report key and location databases as the ingesting replicas; they
 * have their own Service, budget and NetworkPolicy, and no Lease or API token. Rendered with
 * tls, api-keys, report-key and geo listed after the component (src/test/resources/with-serving-replicas).
 */
@Tag("integration")
class ServingReplicasTest {

  private static ManifestSet render() throws Exception {
    return Kustomize.require().build(Checkout.k8s().resolve(Kustomize.WITH_SERVING));
  }

  private static Object option(Map<String, String> env, String name) {
    return CoordinatorOptions.value(env, name);
  }

  @Test
  void theServingReplicasServeOnlyWithTheIngestingReplicasCertificateKeysAndDatabases() throws Exception {
    ManifestSet set = render();
    Workload serving = new Workload(set.one("Deployment", "reed-serving"));
    Workload ingesting = new Workload(set.one("Deployment", "reed-coordinator"));
    Map<String, String> servingEnv = serving.env(set);
    Map<String, String> ingestingEnv = ingesting.env(set);

    assertThat(option(servingEnv, "--serve-only")).isEqualTo(true);
    assertThat(option(ingestingEnv, "--serve-only")).isEqualTo(false);
    for (String name : List.of("--tls-cert", "--api-keys", "--report-key-file", "--geoip")) {
      Object value = option(servingEnv, name);
      assertThat(value).as("%s set for the serving replicas", name).isNotNull();
      assertThat(value).as(name).isEqualTo(option(ingestingEnv, name));
    }
    // each file the configuration names comes from the same volume source in both
    for (Map.Entry<String, String> e : servingEnv.entrySet()) {
      if (!e.getValue().startsWith("/etc/")) continue;
      for (String file : e.getValue().split(",")) {
        Map<String, Object> mount = serving.mountFor(file).orElseThrow(() -> new AssertionError("nothing mounted at " + file));
        assertThat(mount.get("readOnly")).as("%s read-only", file).isEqualTo(true);
        Map<String, Object> theirs = ingesting.mountFor(file).orElseThrow();
        Map<String, Object> volume = new java.util.HashMap<>(serving.volume((String) mount.get("name")));
        Map<String, Object> theirVolume = new java.util.HashMap<>(ingesting.volume((String) theirs.get("name")));
        volume.remove("name");
        theirVolume.remove("name");
        assertThat(volume).as("%s=%s from the same source as the ingesting replicas'", e.getKey(), file).isEqualTo(theirVolume);
      }
    }
    // without the Lease no identity beyond the pod's name, no Kubernetes API
    assertThat(servingEnv).doesNotContainKey("REED_COORDINATOR_LEASE");
    assertThat(serving.podSpec().get("automountServiceAccountToken")).isEqualTo(false);
    String account = (String) serving.podSpec().get("serviceAccountName");
    assertThat(set.one("ServiceAccount", account).map("metadata")).isNotEmpty();
    assertThat(set.ofKind("RoleBinding")).as("nothing grants %s a Role", account)
        .noneMatch(b -> Manifest.maps(b.at("subjects")).stream().anyMatch(s -> account.equals(s.get("name"))));
    // no master front end: its UDP ports stay with the ingesting replicas
    assertThat(serving.ports()).extracting(Workload.Port::protocol).containsOnly("TCP");
  }

  @Test
  void theirServiceBudgetAndNetworkPolicyReachThemAndOnlyThem() throws Exception {
    ManifestSet set = render();
    Workload serving = new Workload(set.one("Deployment", "reed-serving"));
    Workload ingesting = new Workload(set.one("Deployment", "reed-coordinator"));

    Manifest service = set.one("Service", "reed-serving");
    assertThat(serving.selectedBy(service.map("spec.selector"))).isTrue();
    assertThat(ingesting.selectedBy(service.map("spec.selector"))).isFalse();
    for (Map<String, Object> p : Manifest.maps(service.at("spec.ports"))) {
      assertThat(serving.resolve(p.get("targetPort"), (String) p.getOrDefault("protocol", "TCP")))
          .as("reed-serving port %s", p.get("name")).isPresent();
    }
    assertThat(Manifest.maps(service.at("spec.ports"))).extracting(p -> p.get("name")).contains("grpc", "http");
    for (String other : List.of("reed-coordinator", "reed-catalog")) {
      assertThat(serving.selectedBy(set.one("Service", other).map("spec.selector"))).as("%s leaves them out", other).isFalse();
    }

    Manifest pdb = set.one("PodDisruptionBudget", "reed-serving");
    assertThat(serving.selectedBy(pdb.map("spec.selector.matchLabels"))).isTrue();
    assertThat((Integer) pdb.at("spec.maxUnavailable")).isGreaterThanOrEqualTo(1).isLessThan(serving.replicas());

    List<Manifest> policies = set.ofKind("NetworkPolicy").stream()
        .filter(n -> serving.selectedBy(n.map("spec.podSelector.matchLabels"))).toList();
    assertThat(policies).hasSize(1);
    Manifest policy = policies.getFirst();
    for (Workload.Port port : serving.ports()) {
      assertThat(OverlayWiringTest.allows(policy, "ingress", port.number(), port.protocol())).as("admits %s", port).isTrue();
    }
    assertThat(OverlayWiringTest.allows(policy, "ingress", 27950, "UDP")).as("no master port").isFalse();
    int kafkaPort = dev.reed.proto.Endpoints.hostPort(serving.env(set).get("REED_COORDINATOR_KAFKA"), -1).port();
    assertThat(OverlayWiringTest.allows(policy, "egress", kafkaPort, "TCP")).as("egress to Kafka").isTrue();
    assertThat(OverlayWiringTest.allows(policy, "egress", 53, "UDP")).as("DNS").isTrue();
    assertThat(OverlayWiringTest.allows(policy, "egress", 6443, "TCP") || OverlayWiringTest.allows(policy, "egress", 443, "TCP"))
        .as("no Kubernetes API").isFalse();
  }

  @Test
  void theyAreAutoscaledOnCpuWithinTheDocumentedBounds() throws Exception {
    ManifestSet set = render();
    Workload serving = new Workload(set.one("Deployment", "reed-serving"));
    Manifest hpa = set.one("HorizontalPodAutoscaler", "reed-serving");
    assertThat(hpa.string("spec.scaleTargetRef.name")).isEqualTo("reed-serving");
    int min = (Integer) hpa.at("spec.minReplicas");
    int max = (Integer) hpa.at("spec.maxReplicas");
    assertThat(serving.replicas()).isBetween(min, max);
    assertThat(Manifest.maps(hpa.at("spec.metrics"))).singleElement()
        .satisfies(m -> assertThat(Manifest.at(m, "resource.name")).isEqualTo("cpu"));
    String bounds = "HorizontalPodAutoscaler `reed-serving` (" + min + "-" + max + " replicas";
    assertThat(Files.readString(Checkout.root().resolve("docs/operations.md"))).as("the guide states the bounds").contains(bounds);
    assertThat(Files.readString(Checkout.k8s().resolve("README.md"))).as("the k8s README states the bounds").contains(bounds);
  }

  @Test
  void theBaseAndTheOverlaysHaveNone() throws Exception {
    for (String root : Kustomize.ROOTS) {
      ManifestSet set = Kustomize.require().build(Checkout.k8s().resolve(root));
      assertThat(set.ofKind("Deployment")).as(root).extracting(Manifest::name).doesNotContain("reed-serving");
    }
  }
}
