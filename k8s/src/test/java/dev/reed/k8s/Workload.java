package dev.reed.k8s;

import io.kubernetes.client.custom.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A Deployment or DaemonSet seen through its pod template, for wiring assertions. */
record Workload(Manifest manifest) {

  /** A container port: number and protocol, as Services, probes and NetworkPolicies refer to it. */
  record Port(String name, int number, String protocol) {}

  Map<String, Object> podLabels() {
    return manifest.map("spec.template.metadata.labels");
  }

  Map<String, Object> podSpec() {
    return manifest.map("spec.template.spec");
  }

  Map<String, Object> container() {
    List<Map<String, Object>> containers = Manifest.maps(podSpec().get("containers"));
    if (containers.size() != 1) throw new AssertionError(manifest.id() + ": expected one container, found " + containers.size());
    return containers.get(0);
  }

  List<Port> ports() {
    return Manifest.maps(container().get("ports")).stream()
        .map(p -> new Port((String) p.get("name"), (Integer) p.get("containerPort"),
            (String) p.getOrDefault("protocol", "TCP")))
        .toList();
  }

  Port port(String name) {
    return ports().stream().filter(p -> name.equals(p.name())).findFirst()
        .orElseThrow(() -> new AssertionError(manifest.id() + ": no container port named " + name));
  }

  /** A port reference (name or number, as in targetPort or a probe) resolved to a container port. */
  Optional<Port> resolve(Object ref, String protocol) {
    return ports().stream()
        .filter(p -> p.protocol().equals(protocol))
        .filter(p -> ref instanceof Integer n ? p.number() == n : p.name().equals(String.valueOf(ref)))
        .findFirst();
  }

  /** Whether a label selector's matchLabels all appear on the pods. */
  boolean selectedBy(Map<String, Object> matchLabels) {
    return !matchLabels.isEmpty() && podLabels().entrySet().containsAll(matchLabels.entrySet());
  }

  /** Environment variables set by value or from the downward API (fieldRef path). */
  Map<String, String> fieldRefs() {
    Map<String, String> refs = new HashMap<>();
    for (Map<String, Object> e : Manifest.maps(container().get("env"))) {
      Object path = Manifest.at(e, "valueFrom.fieldRef.fieldPath");
      if (path != null) refs.put((String) e.get("name"), (String) path);
    }
    return refs;
  }

  Map<String, String> env(ManifestSet set) {
    Map<String, String> env = new HashMap<>();
    for (Map<String, Object> from : Manifest.maps(container().get("envFrom"))) {
      String cm = (String) Manifest.at(from, "configMapRef.name");
      set.one("ConfigMap", cm).map("data").forEach((k, v) -> env.put(k, String.valueOf(v)));
    }
    for (Map<String, Object> e : Manifest.maps(container().get("env"))) {
      if (e.get("value") != null) env.put((String) e.get("name"), String.valueOf(e.get("value")));
    }
    return env;
  }

  List<Map<String, Object>> volumes() {
    return Manifest.maps(podSpec().get("volumes"));
  }

  List<Map<String, Object>> volumeMounts() {
    return Manifest.maps(container().get("volumeMounts"));
  }

  /** The mount whose path is the longest prefix of a file or directory path, if any. */
  Optional<Map<String, Object>> mountFor(String path) {
    return volumeMounts().stream()
        .filter(m -> path.equals(m.get("mountPath")) || path.startsWith(m.get("mountPath") + "/"))
        .max((a, b) -> Integer.compare(((String) a.get("mountPath")).length(), ((String) b.get("mountPath")).length()));
  }

  Map<String, Object> volume(String name) {
    return volumes().stream().filter(v -> name.equals(v.get("name"))).findFirst()
        .orElseThrow(() -> new AssertionError(manifest.id() + ": no volume " + name));
  }

  static BigDecimal bytes(Object quantity) {
    return Quantity.fromString(String.valueOf(quantity)).getNumber();
  }

  int replicas() {
    return (Integer) manifest.at("spec.replicas");
  }
}
