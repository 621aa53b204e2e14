package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runbook in docs/operations.md tells operators which metrics to watch; every metric it names
 * must be one the agent or coordinator registers (Micrometer names from their sources, dots as
 * underscores, counters with Prometheus' {@code _total} suffix), or the runbook sends people to
 * look at nothing.
 */
class OperationsGuideMetricsTest {

  private static final Pattern DOC_METRIC = Pattern.compile("`(reed_[a-z0-9_]+)`");
  private static final Pattern REGISTERED = Pattern.compile("\"(reed[._][a-z0-9._]+)\"");

  @Test
  void everyMetricTheRunbookNamesIsRegistered() throws IOException {
    Path repo = Kustomize.k8sDir().getParent();
    Set<String> registered = new TreeSet<>();
    for (String module : new String[] {"landmark-agent", "coordinator"}) {
      Path src = repo.resolve(module).resolve("src/main/java");
      assumeTrue(Files.isDirectory(src), module + " sources are not in this checkout: skipping the metric cross-check");
      try (Stream<Path> files = Files.walk(src)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          Matcher m = REGISTERED.matcher(Files.readString(f));
          while (m.find()) registered.add(m.group(1).replace('.', '_'));
        }
      }
    }
    Set<String> named = new TreeSet<>();
    Matcher m = DOC_METRIC.matcher(Files.readString(repo.resolve("docs/operations.md")));
    while (m.find()) named.add(m.group(1));
    assertThat(named).as("metrics the guide names").hasSizeGreaterThanOrEqualTo(8);
    for (String metric : named) {
      String base = metric.endsWith("_total") ? metric.substring(0, metric.length() - "_total".length()) : metric;
      assertThat(registered).as("docs/operations.md names %s", metric).contains(base);
    }
  }
}
