package dev.reed.k8s;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One Kubernetes object as the plain maps and lists SnakeYAML produces, with path navigation for
 * assertions ("spec.template.spec.containers"). Used for everything the strict typed loader cannot
 * read (Strimzi custom resources) and for cross-object wiring checks on rendered overlays.
 */
record Manifest(Map<String, Object> root, String source) {

  Manifest {
    Objects.requireNonNull(root, "root");
  }

  String apiVersion() {
    return string("apiVersion");
  }

  String kind() {
    return string("kind");
  }

  String name() {
    return string("metadata.name");
  }

  String id() {
    return kind() + "/" + name() + " (" + source + ")";
  }

  boolean isStrimzi() {
    String v = apiVersion();
    return v != null && v.startsWith("kafka.strimzi.io/");
  }

  /** A kind from an operator's CRD (Strimzi, Prometheus Operator), unknown to the Kubernetes client's model. */
  boolean isCustomResource() {
    String v = apiVersion();
    return isStrimzi() || (v != null && v.startsWith("monitoring.coreos.com/"));
  }

  /** The value at a dotted path, or null when any step is missing. */
  Object at(String path) {
    return at(root, path);
  }

  String string(String path) {
    Object v = at(path);
    return v == null ? null : v.toString();
  }

  Map<String, Object> map(String path) {
    return asMap(at(path), path);
  }

  List<Object> list(String path) {
    Object v = at(path);
    if (v == null) return List.of();
    if (!(v instanceof List<?> l)) throw new AssertionError(id() + ": " + path + " is not a list: " + v);
    return new ArrayList<>(l);
  }

  static Object at(Object node, String path) {
    Object cur = node;
    for (String step : path.split("\\.")) {
      if (!(cur instanceof Map<?, ?> m)) return null;
      cur = m.get(step);
    }
    return cur;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Object v, String what) {
    if (v == null) return Map.of();
    if (!(v instanceof Map<?, ?>)) throw new AssertionError(what + " is not a map: " + v);
    return (Map<String, Object>) v;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> maps(Object v) {
    if (v == null) return List.of();
    if (!(v instanceof List<?> l)) throw new AssertionError("not a list: " + v);
    return (List<Map<String, Object>>) l;
  }
}
