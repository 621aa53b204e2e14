package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Builds the base and every overlay with {@code kubectl kustomize} and checks the rendered objects
 * fit together the way the cluster will use them: Services, probes, NetworkPolicy and configuration
 * agree on ports; selectors select; the Role covers leader election; mounted files exist where the
 * configuration points; workloads run non-root, read-only, without capabilities, with limits.
 */
@Tag("integration")
class OverlayWiringTest {

  /** Secrets that are created outside these manifests, and who creates them. */
  private static final Map<String, String> EXTERNAL_SECRETS = Map.of(
      "reed-kafka-cluster-ca-cert", "Strimzi Cluster Operator (Kafka reed-kafka)",
      "reed-coordinator-tls", "cert-manager or kubectl create secret tls (docs/operations.md)",
      "reed-coordinator-api-keys", "kubectl create secret generic (docs/operations.md)",
      "reed-coordinator-report-key", "kubectl create secret generic (docs/operations.md, client reports)",
      "reed-coordinator-web-tls", "cert-manager or kubectl create secret tls (docs/operations.md, web clients)");

  /** PersistentVolumeClaims that are created outside these manifests, and who creates and fills them. */
  private static final Map<String, String> EXTERNAL_CLAIMS = Map.of(
      "reed-geo", "the operator, filled with the location databases (k8s/README.md, \"Location databases\")");

  @ParameterizedTest
  @MethodSource("dev.reed.k8s.Kustomize#rendered")
  void coordinatorPortsAgreeEverywhere(String root) throws Exception {
    ManifestSet set = render(root);
    Workload coordinator = coordinator(set);
    Map<String, String> env = coordinator.env(set);

    assertThat(coordinator.port("grpc")).isEqualTo(new Workload.Port("grpc", port(env, "REED_COORDINATOR_GRPC_PORT"), "TCP"));
    assertThat(coordinator.port("metrics")).isEqualTo(new Workload.Port("metrics", port(env, "REED_COORDINATOR_METRICS_PORT"), "TCP"));
    assertThat(coordinator.port("q3-master")).isEqualTo(new Workload.Port("q3-master", port(env, "REED_COORDINATOR_Q3_MASTER_PORT"), "UDP"));
    assertThat(coordinator.port("valve-master")).isEqualTo(new Workload.Port("valve-master", port(env, "REED_COORDINATOR_VALVE_MASTER_PORT"), "UDP"));
    // the HTTP face listens on every address of the pod, or no Service reaches it
    Endpoints.HostPort http = Endpoints.hostPort(env.get("REED_COORDINATOR_HTTP"), -1);
    assertThat(http.host()).as("%s: REED_COORDINATOR_HTTP on the wildcard address", root).isIn("0.0.0.0", "::", "[::]");
    assertThat(coordinator.port("http")).isEqualTo(new Workload.Port("http", http.port(), "TCP"));

    List<Manifest> services = set.ofKind("Service").stream()
        .filter(s -> coordinator.selectedBy(s.map("spec.selector"))).toList();
    assertThat(services).extracting(Manifest::name).contains("reed-coordinator", "reed-catalog");
    assertThat(Manifest.maps(set.one("Service", "reed-coordinator").at("spec.ports")))
        .as("%s: the in-cluster Service carries the HTTP face", root)
        .anyMatch(p -> coordinator.resolve(p.get("targetPort"), "TCP").equals(Optional.of(coordinator.port("http"))));
    for (Manifest service : services) {
      for (Map<String, Object> p : Manifest.maps(service.at("spec.ports"))) {
        String protocol = (String) p.getOrDefault("protocol", "TCP");
        assertThat(coordinator.resolve(p.get("targetPort"), protocol))
            .as("%s port %s -> a %s container port", service.id(), p.get("name"), protocol).isPresent();
      }
    }
    assertThat(set.ofKind("Service").stream().filter(s -> s.name().startsWith("reed-coordinator") || s.name().startsWith("reed-catalog")))
        .as("every coordinator Service selects the coordinator pods")
        .allMatch(s -> coordinator.selectedBy(s.map("spec.selector")));
  }

  @ParameterizedTest
  @MethodSource("dev.reed.k8s.Kustomize#rendered")
  void probesAskTheHealthEndpointsOnTheRightPorts(String root) throws Exception {
    ManifestSet set = render(root);
    Workload coordinator = coordinator(set);
    boolean tls = coordinator.env(set).containsKey("REED_COORDINATOR_TLS_CERT");
    for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
      Map<String, Object> p = Manifest.asMap(coordinator.container().get(probe), probe);
      assertThat(p).as("%s %s", root, probe).isNotEmpty();
      Set<String> handlers = Set.copyOf(p.keySet().stream().filter(Set.of("grpc", "httpGet", "tcpSocket", "exec")::contains).toList());
      assertThat(handlers).as("%s %s has exactly one handler", root, probe).hasSize(1);
      if (probe.equals("livenessProbe")) {
        // liveness must also see a dead round loop: /healthz, not the gRPC serving status
        assertThat(handlers).as("%s %s", root, probe).containsExactly("httpGet");
      } else if (tls) {
        // the kubelet's gRPC probe has no TLS: with TLS on the API port, /healthz on the metrics port
        assertThat(handlers).as("%s %s with TLS", root, probe).containsExactly("httpGet");
      } else {
        assertThat(handlers).as("%s %s: gRPC health service", root, probe).containsExactly("grpc");
      }
      if (handlers.contains("grpc")) {
        Object port = Manifest.at(p, "grpc.port");
        assertThat(port).as("gRPC probes need a port number, not a name").isInstanceOf(Integer.class);
        assertThat(coordinator.resolve(port, "TCP")).contains(coordinator.port("grpc"));
      } else {
        assertThat(coordinator.resolve(Manifest.at(p, "httpGet.port"), "TCP")).contains(coordinator.port("metrics"));
        assertThat(Manifest.at(p, "httpGet.path")).isEqualTo("/healthz");
      }
    }
    if (tls) {
      assertThat(coordinator.env(set)).containsKey("REED_COORDINATOR_TLS_KEY");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.reed.k8s.Kustomize#rendered")
  void networkPolicyAdmitsEveryServedPortAndReachesKafka(String root) throws Exception {
    ManifestSet set = render(root);
    Workload coordinator = coordinator(set);
    Manifest policy = set.ofKind("NetworkPolicy").stream()
        .filter(n -> coordinator.selectedBy(n.map("spec.podSelector.matchLabels"))).findFirst()
        .orElseThrow(() -> new AssertionError(root + ": no NetworkPolicy selects the coordinator"));
    assertThat(policy.list("spec.policyTypes")).containsExactlyInAnyOrder("Ingress", "Egress");

    for (Workload.Port port : coordinator.ports()) {
      assertThat(allows(policy, "ingress", port.number(), port.protocol()))
          .as("%s: NetworkPolicy admits %s %d/%s", root, port.name(), port.number(), port.protocol()).isTrue();
    }
    assertThat(allows(policy, "ingress", 1234, "TCP")).as("an unused port stays closed").isFalse();

    // Kafka: the configured bootstrap is the Strimzi bootstrap Service of a listener whose
    // authentication matches the coordinator's KafkaUser and client.properties.
    Endpoints.HostPort bootstrap = Endpoints.hostPort(coordinator.env(set).get("REED_COORDINATOR_KAFKA"), -1);
    Manifest kafka = set.one("Kafka", "reed-kafka");
    assertThat(bootstrap.host()).isEqualTo(kafka.name() + "-kafka-bootstrap");
    int kafkaPort = bootstrap.port();
    Map<String, Object> listener = Manifest.maps(kafka.at("spec.kafka.listeners")).stream()
        .filter(l -> l.get("port").equals(kafkaPort)).findFirst()
        .orElseThrow(() -> new AssertionError(root + ": no Kafka listener on " + kafkaPort));
    assertThat(listener.get("type")).as("the coordinator uses an in-cluster listener").isEqualTo("internal");
    assertThat(Manifest.at(listener, "authentication.type"))
        .isEqualTo(set.one("KafkaUser", "reed-coordinator").string("spec.authentication.type"));
    String properties = (String) set.one("ConfigMap", "reed-coordinator-kafka-client").map("data").get("client.properties");
    assertThat(properties).contains(Boolean.TRUE.equals(listener.get("tls")) ? "security.protocol=SSL" : "security.protocol=PLAINTEXT");
    assertThat(allows(policy, "egress", kafkaPort, "TCP")).as("%s: egress to Kafka %d", root, kafkaPort).isTrue();
    assertThat(allows(policy, "egress", 53, "UDP")).as("DNS").isTrue();
    assertThat(allows(policy, "egress", 443, "TCP") || allows(policy, "egress", 6443, "TCP")).as("Kubernetes API (Lease)").isTrue();
  }

  @ParameterizedTest
  @MethodSource("dev.reed.k8s.Kustomize#rendered")
  void leaderElectionHasItsIdentityAndTheRightsItNeeds(String root) throws Exception {
    ManifestSet set = render(root);
    Workload coordinator = coordinator(set);
    assertThat(coordinator.fieldRefs())
        .containsEntry("POD_NAME", "metadata.name")
        .containsEntry("NAMESPACE", "metadata.namespace");
    // --lease NAMESPACE/NAME: the pod's namespace (dependent env var), where the Role grants leases
    assertThat(coordinator.env(set).get("REED_COORDINATOR_LEASE")).startsWith("$(NAMESPACE)/");

    String account = (String) coordinator.podSpec().get("serviceAccountName");
    set.one("ServiceAccount", account);
    assertThat(coordinator.podSpec().get("automountServiceAccountToken")).as("the Lease needs the API token").isNotEqualTo(false);

    Manifest binding = set.ofKind("RoleBinding").stream()
        .filter(b -> Manifest.maps(b.at("subjects")).stream()
            .anyMatch(s -> "ServiceAccount".equals(s.get("kind")) && account.equals(s.get("name"))))
        .findFirst().orElseThrow(() -> new AssertionError(root + ": no RoleBinding for " + account));
    assertThat(binding.string("roleRef.kind")).isEqualTo("Role");
    Manifest role = set.one("Role", binding.string("roleRef.name"));
    assertThat(role.string("metadata.namespace")).isEqualTo(binding.string("metadata.namespace"));

    // LeaderElector + LeaseLock: get the Lease, create it when missing, replace (update) it to renew.
    boolean covered = Manifest.maps(role.at("rules")).stream().anyMatch(rule ->
        ((List<?>) rule.get("apiGroups")).contains("coordination.k8s.io")
            && ((List<?>) rule.get("resources")).contains("leases")
            && ((List<?>) rule.get("verbs")).containsAll(List.of("get", "create", "update")));
    assertThat(covered).as("%s: Role %s covers get/create/update on leases", root, role.name()).isTrue();
    assertThat(Manifest.maps(role.at("rules"))).as("nothing beyond leases")
        .allMatch(rule -> rule.get("resources").equals(List.of("leases")));
  }

  @ParameterizedTest
  @MethodSource("dev.reed.k8s.Kustomize#rendered")
  void workloadsAreLockedDownAndBounded(String root) throws Exception {
    ManifestSet set = render(root);
    for (Workload w : workloads(set)) {
      String id = root + " " + w.manifest().id();
      assertThat(Manifest.at(w.podSpec(), "securityContext.runAsNonRoot")).as(id).isEqualTo(true);
      assertThat(Manifest.at(w.podSpec(), "securityContext.seccompProfile.type")).as(id).isEqualTo("RuntimeDefault");
      Map<String, Object> c = w.container();
      assertThat(Manifest.at(c, "securityContext.readOnlyRootFilesystem")).as(id).isEqualTo(true);
      assertThat(Manifest.at(c, "securityContext.allowPrivilegeEscalation")).as(id).isEqualTo(false);
      assertThat(Manifest.at(c, "securityContext.capabilities.drop")).as(id).isEqualTo(List.of("ALL"));
      for (String r : List.of("requests.cpu", "requests.memory", "limits.memory", "limits.cpu")) {
        assertThat(Manifest.at(c, "resources." + r)).as("%s resources.%s", id, r).isNotNull();
      }
      assertThat(Workload.bytes(Manifest.at(c, "resources.limits.memory")))
          .as("%s: memory limit >= request", id).isGreaterThanOrEqualTo(Workload.bytes(Manifest.at(c, "resources.requests.memory")));
      assertThat(w.selectedBy(w.manifest().map("spec.selector.matchLabels"))).as("%s selector selects its pods", id).isTrue();
      assertThat(String.valueOf(c.get("image"))).as("%s: overlays pin the image (base and the test kustomizations are no overlays)", id)
          .matches(root.equals("base") || root.startsWith("src/test/") ? ".+" : ".+/.+:[\\w.-]+");

      // Every mount has a volume; every volume has a source these manifests or a known operator create.
      for (Map<String, Object> mount : w.volumeMounts()) w.volume((String) mount.get("name"));
      for (Map<String, Object> v : w.volumes()) {
        String cm = (String) Manifest.at(v, "configMap.name");
        if (cm != null) set.one("ConfigMap", cm);
        String secret = (String) Manifest.at(v, "secret.secretName");
        if (secret != null) {
          boolean fromKafkaUser = set.ofKind("KafkaUser").stream().anyMatch(u -> u.name().equals(secret));
          assertThat(fromKafkaUser || EXTERNAL_SECRETS.containsKey(secret))
              .as("%s: Secret %s is written by a KafkaUser or documented", id, secret).isTrue();
        }
        String claim = (String) Manifest.at(v, "persistentVolumeClaim.claimName");
        if (claim != null) {
          boolean inManifests = set.ofKind("PersistentVolumeClaim").stream().anyMatch(p -> p.name().equals(claim));
          assertThat(inManifests || EXTERNAL_CLAIMS.containsKey(claim))
              .as("%s: PersistentVolumeClaim %s is in the manifests or documented", id, claim).isTrue();
        }
      }
      // The read-only root needs writable volumes wherever the process writes.
      Map<String, String> env = w.env(set);
      List<String> writable = new ArrayList<>(List.of("/tmp"));
      env.forEach((k, v) -> {
        if (k.endsWith("_DIR")) writable.add(v);
        if (k.endsWith("_CHECKPOINT")) writable.add(java.nio.file.Path.of(v).getParent().toString());
      });
      for (String dir : writable) {
        Map<String, Object> mount = w.mountFor(dir).orElseThrow(() -> new AssertionError(id + ": nothing mounted at " + dir));
        assertThat(mount.get("readOnly")).as("%s: %s writable", id, dir).isNotEqualTo(true);
        Map<String, Object> volume = w.volume((String) mount.get("name"));
        assertThat(volume.containsKey("emptyDir") || volume.containsKey("persistentVolumeClaim"))
            .as("%s: %s on a writable volume (emptyDir or PVC): %s", id, dir, volume).isTrue();
      }
      // Files the configuration points to are mounted.
      env.forEach((k, v) -> {
        if (v.startsWith("/etc/")) {
          assertThat(w.mountFor(v)).as("%s: %s=%s is mounted", id, k, v).isPresent();
        }
      });
    }
  }

  @ParameterizedTest
  @MethodSource("dev.reed.k8s.Kustomize#rendered")
  void disruptionBudgetAndAutoscalerFitTheDeployment(String root) throws Exception {
    ManifestSet set = render(root);
    Workload coordinator = coordinator(set);
    Manifest pdb = set.one("PodDisruptionBudget", "reed-coordinator");
    assertThat(coordinator.selectedBy(pdb.map("spec.selector.matchLabels"))).isTrue();
    // a budget must never block every drain: with N replicas, at least one may go
    Object maxUnavailable = pdb.at("spec.maxUnavailable");
    Object minAvailable = pdb.at("spec.minAvailable");
    if (maxUnavailable != null) assertThat((Integer) maxUnavailable).isGreaterThanOrEqualTo(1);
    else assertThat((Integer) minAvailable).isLessThan(coordinator.replicas());

    for (Manifest hpa : set.ofKind("HorizontalPodAutoscaler")) {
      assertThat(hpa.string("spec.scaleTargetRef.kind")).isEqualTo("Deployment");
      Workload target = new Workload(set.one("Deployment", hpa.string("spec.scaleTargetRef.name")));
      int min = (Integer) hpa.at("spec.minReplicas");
      int max = (Integer) hpa.at("spec.maxReplicas");
      assertThat(min).as(hpa.id()).isGreaterThanOrEqualTo(2).isLessThanOrEqualTo(max).isLessThanOrEqualTo(target.replicas());
      assertThat(Manifest.maps(hpa.at("spec.metrics"))).as("%s scales on CPU", hpa.id())
          .anyMatch(m -> "cpu".equals(Manifest.at(m, "resource.name")));
      assertThat(Manifest.at(target.container(), "resources.requests.cpu")).as("%s: CPU utilisation needs a request", hpa.id()).isNotNull();
      if (target.manifest() == coordinator.manifest()) {
        assertThat(max).as("more replicas than reed.samples partitions would idle").isLessThanOrEqualTo(Topic.SAMPLES.partitions());
      }
      // every autoscaled workload has a budget that lets a drain take one pod
      assertThat(set.ofKind("PodDisruptionBudget")).as("%s has a budget", hpa.id())
          .anyMatch(b -> target.selectedBy(b.map("spec.selector.matchLabels")) && Integer.valueOf(1).equals(b.at("spec.maxUnavailable")));
    }
  }

  @ParameterizedTest
  @MethodSource("dev.reed.k8s.Kustomize#rendered")
  void ingressesReachTheHttpFaceThroughAService(String root) throws Exception {
    ManifestSet set = render(root);
    Workload coordinator = coordinator(set);
    for (Manifest ingress : set.ofKind("Ingress")) {
      List<Map<String, Object>> backends = new ArrayList<>();
      Object defaultBackend = ingress.at("spec.defaultBackend");
      if (defaultBackend != null) backends.add(Manifest.asMap(defaultBackend, "defaultBackend"));
      for (Map<String, Object> rule : Manifest.maps(ingress.at("spec.rules"))) {
        for (Map<String, Object> path : Manifest.maps(Manifest.at(rule, "http.paths"))) {
          backends.add(Manifest.asMap(path.get("backend"), "backend"));
        }
      }
      assertThat(backends).as("%s: %s has backends", root, ingress.id()).isNotEmpty();
      for (Map<String, Object> backend : backends) {
        Manifest service = set.one("Service", (String) Manifest.at(backend, "service.name"));
        assertThat(coordinator.selectedBy(service.map("spec.selector"))).as("%s selects the coordinator", service.id()).isTrue();
        Object name = Manifest.at(backend, "service.port.name");
        Object number = Manifest.at(backend, "service.port.number");
        Map<String, Object> servicePort = Manifest.maps(service.at("spec.ports")).stream()
            .filter(p -> name != null ? name.equals(p.get("name")) : number.equals(p.get("port")))
            .findFirst().orElseThrow(() -> new AssertionError(ingress.id() + ": " + service.id() + " has no port " + (name != null ? name : number)));
        // Ingress controllers speak HTTP to the backend: only the HTTP face understands it
        // (the gRPC port wants HTTP/2 with TLS from components/tls)
        assertThat(coordinator.resolve(servicePort.get("targetPort"), "TCP"))
            .as("%s: backend %s -> the coordinator's http port", root, servicePort).contains(coordinator.port("http"));
      }
      for (Map<String, Object> tls : Manifest.maps(ingress.at("spec.tls"))) {
        assertThat(EXTERNAL_SECRETS).as("%s: TLS Secret of %s is documented", root, ingress.id())
            .containsKey((String) tls.get("secretName"));
      }
    }
  }

  /**
   * The anonymous limit and the location prior count a client by its address: a client behind an
   * Ingress is known only through X-Forwarded-For from a trusted proxy, one behind a LoadBalancer
   * Service only when the Service keeps source addresses.
   */
  @ParameterizedTest
  @MethodSource("dev.reed.k8s.Kustomize#rendered")
  void publicEntrancesKeepTheClientsAddresses(String root) throws Exception {
    ManifestSet set = render(root);
    Workload coordinator = coordinator(set);
    if (!set.ofKind("Ingress").isEmpty()) {
      assertThat(coordinator.env(set)).as("%s: an Ingress in front, so the coordinator trusts its X-Forwarded-For", root)
          .hasEntrySatisfying("REED_COORDINATOR_TRUSTED_PROXIES", v -> assertThat(v).isNotBlank());
    }
    for (Manifest service : set.ofKind("Service")) {
      if (!"LoadBalancer".equals(service.at("spec.type")) || !coordinator.selectedBy(service.map("spec.selector"))) continue;
      assertThat(service.at("spec.externalTrafficPolicy")).as("%s: %s keeps source addresses", root, service.id())
          .isEqualTo("Local");
    }
  }

  @Test
  void prodServesWebPagesOverTlsThroughAnIngress() throws Exception {
    ManifestSet set = render("overlays/prod");
    Manifest ingress = set.one("Ingress", "reed-coordinator-web");
    assertThat(Manifest.maps(ingress.at("spec.tls"))).as("pages on HTTPS refuse plain http:// API calls").isNotEmpty();
    List<Map<String, Object>> paths = Manifest.maps(ingress.at("spec.rules")).stream()
        .flatMap(r -> Manifest.maps(Manifest.at(r, "http.paths")).stream()).toList();
    assertThat(paths).as("the page at / and every method path below it").anyMatch(p -> "/".equals(p.get("path")) && "Prefix".equals(p.get("pathType")));
    assertThat(render("overlays/dev").ofKind("Ingress")).as("dev reaches the HTTP face with port-forward").isEmpty();
  }

  @Test
  void baseRunsTwoCoordinatorsWithoutAgents() throws Exception {
    ManifestSet set = render("base");
    assertThat(coordinator(set).replicas()).isGreaterThanOrEqualTo(2);
    assertThat(set.ofKind("DaemonSet")).isEmpty();
  }

  @Test
  void devIsOneSmallReplicaOnOneKafkaNodeWithAgents() throws Exception {
    ManifestSet set = render("overlays/dev");
    Workload coordinator = coordinator(set);
    assertThat(coordinator.replicas()).isEqualTo(1);
    assertThat(Workload.bytes(Manifest.at(coordinator.container(), "resources.limits.memory"))).as("smaller than the base's")
        .isLessThan(Workload.bytes(Manifest.at(coordinator(render("base")).container(), "resources.limits.memory")));
    assertThat(set.ofKind("HorizontalPodAutoscaler")).isEmpty();
    assertThat(set.one("KafkaNodePool", "reed-kafka-pool").at("spec.replicas")).isEqualTo(1);
    assertThat(set.ofKind("DaemonSet")).hasSize(1);
  }

  @Test
  void prodRunsThreeSpreadReplicasWithAutoscalingTlsAndApiKeys() throws Exception {
    ManifestSet set = render("overlays/prod");
    Workload coordinator = coordinator(set);
    assertThat(coordinator.replicas()).isEqualTo(3);
    Manifest hpa = set.one("HorizontalPodAutoscaler", "reed-coordinator");
    assertThat((Integer) hpa.at("spec.minReplicas")).isGreaterThanOrEqualTo(3);

    Map<String, Object> antiAffinity = Manifest.asMap(Manifest.at(coordinator.podSpec(), "affinity.podAntiAffinity"), "podAntiAffinity");
    List<Map<String, Object>> terms = new ArrayList<>();
    Manifest.maps(antiAffinity.get("requiredDuringSchedulingIgnoredDuringExecution")).forEach(terms::add);
    Manifest.maps(antiAffinity.get("preferredDuringSchedulingIgnoredDuringExecution"))
        .forEach(t -> terms.add(Manifest.asMap(t.get("podAffinityTerm"), "podAffinityTerm")));
    assertThat(terms).as("anti-affinity terms").isNotEmpty();
    Predicate<Map<String, Object>> selectsCoordinators = t ->
        coordinator.selectedBy(Manifest.asMap(Manifest.at(t, "labelSelector.matchLabels"), "matchLabels"));
    assertThat(terms).allMatch(selectsCoordinators);
    assertThat(terms).extracting(t -> t.get("topologyKey")).contains("kubernetes.io/hostname");

    Map<String, String> env = coordinator.env(set);
    assertThat(env).containsKeys("REED_COORDINATOR_TLS_CERT", "REED_COORDINATOR_TLS_KEY", "REED_COORDINATOR_API_KEYS");
    assertThat(set.one("KafkaNodePool", "reed-kafka-pool").at("spec.replicas")).isEqualTo(3);
    assertThat(set.one("Service", "reed-catalog-public").string("spec.externalTrafficPolicy"))
        .as("the Quake3 master verifies heartbeats by their source address").isEqualTo("Local");
  }

  @Test
  void inClusterAgentsUseTheHostNetworkAndTheirOwnPorts() throws Exception {
    ManifestSet set = render("overlays/dev");
    Workload agent = new Workload(set.one("DaemonSet", "reed-landmark-agent"));
    Map<String, Object> pod = agent.podSpec();
    assertThat(pod.get("hostNetwork")).isEqualTo(true);
    assertThat(pod.get("dnsPolicy")).as("Service DNS names on the host network").isEqualTo("ClusterFirstWithHostNet");
    assertThat(pod.get("automountServiceAccountToken")).isEqualTo(false);
    Map<String, String> env = agent.env(set);
    assertThat(agent.fieldRefs()).containsEntry("REED_AGENT_ID", "spec.nodeName");
    assertThat(agent.port("metrics")).isEqualTo(new Workload.Port("metrics", port(env, "REED_AGENT_METRICS_PORT"), "TCP"));
    String beacon = env.get("REED_AGENT_BEACON");
    assertThat(agent.port("beacon")).isEqualTo(new Workload.Port("beacon",
        Endpoints.hostPort(beacon, -1).port(), "UDP"));
    // the WebSocket beacon for web pages: TCP, on the node like the UDP one
    Endpoints.HostPort wsBeacon = Endpoints.hostPort(env.get("REED_AGENT_WS_BEACON"), -1);
    assertThat(wsBeacon.host()).isEqualTo("0.0.0.0");
    assertThat(agent.port("ws-beacon")).isEqualTo(new Workload.Port("ws-beacon", wsBeacon.port(), "TCP"));
    assertThat(agent.ports()).extracting(Workload.Port::number).doesNotHaveDuplicates();
    for (Map<String, Object> p : Manifest.maps(agent.container().get("ports"))) {
      assertThat(p.get("hostPort")).as("with hostNetwork hostPort = containerPort").isEqualTo(p.get("containerPort"));
    }
    for (String probe : List.of("readinessProbe", "livenessProbe")) {
      assertThat(agent.resolve(Manifest.at(agent.container(), probe + ".httpGet.port"), "TCP")).contains(agent.port("metrics"));
    }
    Endpoints.HostPort bootstrap = Endpoints.hostPort(env.get("REED_AGENT_KAFKA"), -1);
    Manifest kafka = set.one("Kafka", "reed-kafka");
    assertThat(bootstrap.host()).isEqualTo(kafka.name() + "-kafka-bootstrap");
    Map<String, Object> listener = Manifest.maps(kafka.at("spec.kafka.listeners")).stream()
        .filter(l -> l.get("port").equals(bootstrap.port())).findFirst().orElseThrow();
    assertThat(Manifest.at(listener, "authentication.type"))
        .isEqualTo(set.one("KafkaUser", "reed-landmark-agent").string("spec.authentication.type"));
    // hostNetwork is outside the restricted and baseline Pod Security levels
    assertThat(set.one("Namespace", "reed").map("metadata.labels"))
        .containsEntry("pod-security.kubernetes.io/enforce", "privileged")
        .containsEntry("pod-security.kubernetes.io/warn", "restricted");
    assertThat(render("overlays/prod").one("Namespace", "reed").map("metadata.labels"))
        .containsEntry("pod-security.kubernetes.io/enforce", "restricted");
  }

  private static ManifestSet render(String root) throws Exception {
    return Kustomize.require().build(Checkout.k8s().resolve(root));
  }

  private static Workload coordinator(ManifestSet set) {
    return new Workload(set.one("Deployment", "reed-coordinator"));
  }

  private static List<Workload> workloads(ManifestSet set) {
    List<Workload> all = new ArrayList<>();
    set.ofKind("Deployment").forEach(m -> all.add(new Workload(m)));
    set.ofKind("DaemonSet").forEach(m -> all.add(new Workload(m)));
    return all;
  }

  private static int port(Map<String, String> env, String key) {
    String v = env.get(key);
    assertThat(v).as(key).isNotNull();
    return Integer.parseInt(v);
  }

  /** Whether some rule of a NetworkPolicy direction lets this port/protocol through (peers aside). */
  static boolean allows(Manifest policy, String direction, int port, String protocol) {
    for (Map<String, Object> rule : Manifest.maps(policy.at("spec." + direction))) {
      List<Map<String, Object>> ports = Manifest.maps(rule.get("ports"));
      if (ports.isEmpty()) return true;
      for (Map<String, Object> p : ports) {
        boolean protocolMatches = protocol.equals(p.getOrDefault("protocol", "TCP"));
        Object number = p.get("port");
        Object end = p.get("endPort");
        boolean portMatches = number == null
            || (number instanceof Integer n && (end instanceof Integer e ? port >= n && port <= e : port == n));
        if (protocolMatches && portMatches) return true;
      }
    }
    return false;
  }
}
