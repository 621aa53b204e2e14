package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.agent.AgentCommand;
import dev.reed.coordinator.CoordinatorCommand;
import dev.reed.runtime.EnvironmentDefaults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every REED_AGENT_* and REED_COORDINATOR_* variable the deployment sets (k8s manifests,
 * Dockerfiles, the Terraform cloud-init) is an option the command really reads: a misspelt
 * variable would be ignored silently and the service would run on its default. The variables
 * are those {@link EnvironmentDefaults}, the commands' default provider, reads for their options.
 */
class CommandOptionsTest {

  private static final Pattern USED = Pattern.compile("\\bREED_(?:AGENT|COORDINATOR)_[A-Z0-9_]+");

  @Test
  void everyVariableTheDeploymentSetsIsAnOption() throws IOException {
    Set<String> known = new TreeSet<>();
    for (Object command : new Object[] {new AgentCommand(), new CoordinatorCommand()}) {
      CommandSpec spec = new CommandLine(command).getCommandSpec();
      assertThat(spec.defaultValueProvider()).as(spec.name() + " reads its environment").isInstanceOf(EnvironmentDefaults.class);
      for (OptionSpec o : spec.options()) known.add(EnvironmentDefaults.variable(spec.name(), o.longestName()));
    }
    assertThat(known).contains("REED_AGENT_ID", "REED_AGENT_KAFKA", "REED_COORDINATOR_KAFKA", "REED_COORDINATOR_GRPC_PORT");

    Path repo = Checkout.root();
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
