package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The runbook in docs/operations.md tells operators which metrics to watch; every metric it names
 * must be one the agent or coordinator registers, or the runbook sends people to look at nothing.
 */
class OperationsGuideMetricsTest {

  private static final Pattern DOC_METRIC = Pattern.compile("`(reed_[a-z0-9_]+)`");

  @Test
  void everyMetricTheRunbookNamesIsRegistered() throws IOException {
    RegisteredMetrics registered = RegisteredMetrics.fromSources();
    Set<String> named = new TreeSet<>();
    Matcher m = DOC_METRIC.matcher(Files.readString(Checkout.root().resolve("docs/operations.md")));
    while (m.find()) named.add(m.group(1));
    assertThat(named).as("metrics the guide names").hasSizeGreaterThanOrEqualTo(8);
    for (String metric : named) {
      assertThat(registered.has(metric)).as("docs/operations.md names %s, registered: %s", metric, registered.names()).isTrue();
    }
  }
}
