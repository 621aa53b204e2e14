package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitoring component (Prometheus Operator PodMonitors and a PrometheusRule), rendered together
 * with the base, the in-cluster agents and the serving replicas: every PodMonitor selects one workload and scrapes a port
 * it has; every alert is well-formed, uses only metrics the services register, and links a runbook
 * section of docs/runbook.md that exists. The prod overlay includes it.
 */
@Tag("integration")
class MonitoringTest {

  @TempDir Path tmp;

  @Test
  void podMonitorsScrapeTheMetricsPortsOfTheirWorkloads() throws Exception {
    ManifestSet set = renderEverything();
    List<Workload> workloads = new ArrayList<>();
    set.ofKind("Deployment").forEach(m -> workloads.add(new Workload(m)));
    set.ofKind("DaemonSet").forEach(m -> workloads.add(new Workload(m)));
    List<Manifest> monitors = set.ofKind("PodMonitor");
    assertThat(monitors).extracting(Manifest::name).containsExactlyInAnyOrder("reed-coordinator", "reed-landmark-agent", "reed-serving");
    for (Manifest monitor : monitors) {
      assertThat(monitor.apiVersion()).isEqualTo("monitoring.coreos.com/v1");
      assertThat(monitor.map("spec").keySet()).isSubsetOf(Set.of("selector", "podMetricsEndpoints", "namespaceSelector",
          "jobLabel", "podTargetLabels", "sampleLimit"));
      List<Workload> selected = workloads.stream()
          .filter(w -> w.selectedBy(monitor.map("spec.selector.matchLabels"))).toList();
      assertThat(selected).as("%s selects one workload", monitor.id()).hasSize(1);
      for (Map<String, Object> endpoint : Manifest.maps(monitor.at("spec.podMetricsEndpoints"))) {
        assertThat(endpoint.keySet()).isSubsetOf(Set.of("port", "path", "interval", "scrapeTimeout", "scheme", "relabelings"));
        assertThat(selected.get(0).port((String) endpoint.get("port")).number())
            .isEqualTo(selected.get(0).port("metrics").number());
        assertThat(endpoint.get("path")).isEqualTo("/metrics");
      }
    }
  }

  @Test
  void alertsUseRegisteredMetricsAndLinkExistingRunbookSections() throws Exception {
    ManifestSet set = renderEverything();
    Manifest rule = set.one("PrometheusRule", "reed");
    RegisteredMetrics registered = RegisteredMetrics.fromSources();
    Set<String> anchors = anchors(Files.readString(Checkout.root().resolve("docs/runbook.md")));
    int alerts = 0;
    for (Map<String, Object> group : Manifest.maps(rule.at("spec.groups"))) {
      assertThat(group.get("name")).isNotNull();
      for (Map<String, Object> r : Manifest.maps(group.get("rules"))) {
        String name = (String) r.get("alert");
        assertThat(r.keySet()).as(name).isSubsetOf(Set.of("alert", "expr", "for", "labels", "annotations"));
        String expr = (String) r.get("expr");
        Set<String> metrics = RegisteredMetrics.usedIn(expr);
        assertThat(metrics).as("%s uses a reed metric", name).isNotEmpty();
        for (String metric : metrics) {
          assertThat(registered.has(metric)).as("%s: %s is registered by the agent or coordinator", name, metric).isTrue();
        }
        assertThat(Manifest.at(r, "labels.severity")).as(name).isIn("warning", "critical");
        assertThat((String) Manifest.at(r, "annotations.summary")).as(name).isNotBlank();
        String runbook = (String) Manifest.at(r, "annotations.runbook");
        assertThat(runbook).as(name).startsWith("docs/runbook.md#");
        assertThat(anchors).as("%s links an existing section", name).contains(runbook.substring(runbook.indexOf('#') + 1));
        alerts++;
      }
    }
    assertThat(alerts).isGreaterThanOrEqualTo(5);
  }

  @Test
  void prodIncludesMonitoring() throws Exception {
    ManifestSet prod = Kustomize.require().build(Checkout.k8s().resolve("overlays/prod"));
    assertThat(prod.ofKind("PodMonitor")).isNotEmpty();
    assertThat(prod.ofKind("PrometheusRule")).hasSize(1);
  }

  /** base + landmark agents + serving replicas + monitoring, through a temporary kustomization beside nothing else. */
  private ManifestSet renderEverything() throws Exception {
    Kustomize kustomize = Kustomize.require();
    Path k8s = Checkout.k8s();
    Files.writeString(tmp.resolve("kustomization.yaml"), """
        apiVersion: kustomize.config.k8s.io/v1beta1
        kind: Kustomization
        resources:
          - %s
        components:
          - %s
          - %s
          - %s
        """.formatted(tmp.relativize(k8s.resolve("base")), tmp.relativize(k8s.resolve("components/landmark-agents")),
        tmp.relativize(k8s.resolve("components/serving-replicas")), tmp.relativize(k8s.resolve("components/monitoring"))));
    return kustomize.build(tmp);
  }

  /** GitHub-style heading anchors of a Markdown text. */
  static Set<String> anchors(String markdown) {
    Set<String> anchors = new TreeSet<>();
    for (String line : markdown.split("\n")) {
      if (!line.startsWith("#")) continue;
      String title = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT);
      anchors.add(title.replaceAll("[^a-z0-9 _-]", "").replace(' ', '-'));
    }
    return anchors;
  }
}
