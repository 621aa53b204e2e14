package dev.reed.agent.config;

import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Takes each option's default from an environment variable named after it, for containers:
 * {@code --spool-dir} reads {@code REED_AGENT_SPOOL_DIR}. A flag on the command line wins; an
 * option without its variable keeps its built-in default.
 */
public final class EnvironmentDefaults implements IDefaultValueProvider {
  private final String prefix;
  private final Map<String, String> env;

  /** Reads the process environment, prefix {@code REED_AGENT_}. */
  public EnvironmentDefaults() {
    this("REED_AGENT_", System.getenv());
  }

  public EnvironmentDefaults(String prefix, Map<String, String> env) {
    this.prefix = prefix;
    this.env = Map.copyOf(env);
  }

  /** The variable that sets an option, e.g. {@code --spool-dir} -> {@code REED_AGENT_SPOOL_DIR}. */
  public String variable(String longName) {
    return prefix + longName.replaceFirst("^-+", "").replace('-', '_').toUpperCase(Locale.ROOT);
  }

  @Override
  public String defaultValue(ArgSpec arg) {
    if (!(arg instanceof OptionSpec o) || o.usageHelp() || o.versionHelp()) return null;
    String v = env.get(variable(o.longestName()));
    return v == null || v.isBlank() ? null : v.strip();
  }
}
