package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every REED_AGENT_* and REED_COORDINATOR_* variable the deployment sets (k8s manifests,
 * Dockerfiles, the Terraform cloud-init) is an option the command really reads: a misspelt
 * variable would be ignored silently and the service would run on its default. The options are
 * read from the commands' sources (picocli annotations), which sit beside this module.

 */
class CommandOptionsTest {

  private static final Pattern USED = Pattern.compile("\\bREED_(?:AGENT|COORDINATOR)_[A-Z0-9_]+");
  private static final Pattern AGENT_OPTION = Pattern.compile("names\\s*=\\s*\"--([a-z][a-z0-9-]*)\"");
  private static final Pattern COORDINATOR_ENV = Pattern.compile("\\$\\{(REED_COORDINATOR_[A-Z0-9_]+)");

  @Test
  void everyVariableTheDeploymentSetsIsAnOption() throws IOException {
    Path repo = Checkout.root();
    Path agentCommand = repo.resolve("landmark-agent/src/main/java/dev/reed/agent/AgentCommand.java");
    Path coordinatorCommand = repo.resolve("coordinator/src/main/java/dev/reed/coordinator/CoordinatorCommand.java");
    assumeTrue(Files.isRegularFile(agentCommand) && Files.isRegularFile(coordinatorCommand),
        "the agent or coordinator command source is not in this checkout: skipping the option cross-check");

    Set<String> known = new TreeSet<>();
    Matcher a = AGENT_OPTION.matcher(Files.readString(agentCommand));
    while (a.find()) known.add("REED_AGENT_" + a.group(1).toUpperCase(Locale.ROOT).replace('-', '_'));
    Matcher c = COORDINATOR_ENV.matcher(Files.readString(coordinatorCommand));
    while (c.find()) known.add(c.group(1));
    assertThat(known).contains("REED_AGENT_ID", "REED_AGENT_KAFKA", "REED_COORDINATOR_KAFKA", "REED_COORDINATOR_GRPC_PORT");

    Map<String, Set<String>> usedIn = new TreeMap<>();
    for (Path dir : Set.of(repo.resolve("k8s"), repo.resolve("docker"), repo.resolve("terraform/modules"))) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.filter(Files::isRegularFile)
            .filter(f -> !f.toString().contains("/src/") && !f.toString().contains("/target/")).toList()) {
          Matcher m = USED.matcher(Files.readString(f));
          while (m.find()) usedIn.computeIfAbsent(m.group(), k -> new TreeSet<>()).add(repo.relativize(f).toString());
        }
      }
    }
    assertThat(usedIn).as("variables found").hasSizeGreaterThan(15);

    Map<String, Set<String>> unknown = new TreeMap<>(usedIn);
    unknown.keySet().removeAll(known);
    assertThat(unknown).as("variables set by the deployment that no command option reads").isEmpty();
  }
}
