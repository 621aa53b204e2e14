package dev.reed.k8s;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The metric names the agent and coordinator register with Micrometer, read from their sources
 * (string literals "reed.x.y" or "reed_x_y"), in Prometheus form (dots as underscores). What the
 * runbook and the alert rules name is checked against this.
 */
record RegisteredMetrics(Set<String> names) {

  private static final Pattern LITERAL = Pattern.compile("\"(reed[._][a-z0-9._]+)\"");
  private static final Pattern PROMETHEUS_NAME = Pattern.compile("\\breed_[a-z0-9_]+");

  static RegisteredMetrics fromSources() throws IOException {
    Path repo = Checkout.root();
    Set<String> names = new TreeSet<>();
    for (String module : new String[] {"landmark-agent", "coordinator"}) {
      Path src = repo.resolve(module).resolve("src/main/java");
      assumeTrue(Files.isDirectory(src), module + " sources are not in this checkout: skipping the metric cross-check");
      try (Stream<Path> files = Files.walk(src)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          Matcher m = LITERAL.matcher(Files.readString(f));
          while (m.find()) names.add(m.group(1).replace('.', '_'));
        }
      }
    }
    return new RegisteredMetrics(Set.copyOf(names));
  }

  /** Whether an exported name is registered; counters are exported with a _total suffix. */
  boolean has(String exported) {
    String base = exported.endsWith("_total") ? exported.substring(0, exported.length() - "_total".length()) : exported;
    return names.contains(base);
  }

  /** The reed_* metric names a PromQL expression uses. */
  static Set<String> usedIn(String promql) {
    Set<String> used = new TreeSet<>();
    Matcher m = PROMETHEUS_NAME.matcher(promql);
    while (m.find()) used.add(m.group());
    return used;
  }
}
