package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The operations guide and the runbook (docs/operations.md, docs/runbook.md) tell operators which
 * metrics to watch; every metric they name must be one the agent or coordinator registers, or they
 * send people to look at nothing.
 */
class OperationsGuideMetricsTest {

  private static final Pattern DOC_METRIC = Pattern.compile("`(reed_[a-z0-9_]+)`");

  @Test
  void everyMetricTheGuideAndRunbookNameIsRegistered() throws IOException {
    RegisteredMetrics registered = RegisteredMetrics.fromSources();
    for (String doc : List.of("docs/operations.md", "docs/runbook.md")) {
      Set<String> named = new TreeSet<>();
      Matcher m = DOC_METRIC.matcher(Files.readString(Checkout.root().resolve(doc)));
      while (m.find()) named.add(m.group(1));
      assertThat(named).as("metrics %s names", doc).hasSizeGreaterThanOrEqualTo(3);
      for (String metric : named) {
        assertThat(registered.has(metric)).as("%s names %s, registered: %s", doc, metric, registered.names()).isTrue();
      }
    }
  }
}
