package dev.reed.k8s;

import dev.reed.coordinator.CoordinatorCommand;
import dev.reed.runtime.EnvironmentDefaults;
import java.util.Map;
import picocli.CommandLine;

/** What the coordinator's own command line makes of a rendered container's environment. */
final class CoordinatorOptions {
  private CoordinatorOptions() {}

  /** The option's value as {@code ./reed coordinator} parses it from {@code env}, null when unset. */
  @SuppressWarnings("unchecked")
  static <T> T value(Map<String, String> env, String name) {
    CommandLine cl = new CommandLine(new CoordinatorCommand()).setDefaultValueProvider(new EnvironmentDefaults(env));
    cl.parseArgs();
    return (T) cl.getCommandSpec().findOption(name).getValue();
  }
}
