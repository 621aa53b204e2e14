package dev.reed.runtime;

import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Takes each option's default from an environment variable named after the command and the
 * option, for containers: {@code agent --spool-dir} reads {@code REED_AGENT_SPOOL_DIR},
 * {@code coordinator --grpc-port} reads {@code REED_COORDINATOR_GRPC_PORT}. A flag on the command
 * line wins; an option without its variable keeps the default of its annotation. Every service
 * command names this class as its {@code defaultValueProvider}.
 */
public final class EnvironmentDefaults implements IDefaultValueProvider {
  private final Map<String, String> env;

  /** Reads the process environment. */
  public EnvironmentDefaults() {
    this(System.getenv());
  }

  /** Reads {@code env} instead of the process environment (tests). */
  public EnvironmentDefaults(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /**
   * The variable that sets an option, e.g. ({@code agent}, {@code --spool-dir}) ->
   * {@code REED_AGENT_SPOOL_DIR}.
   */
  public static String variable(String command, String longName) {
    return ("REED_" + command + "_" + longName.replaceFirst("^-+", "")).replace('-', '_').toUpperCase(Locale.ROOT);
  }

  @Override
  public String defaultValue(ArgSpec arg) {
    if (!(arg instanceof OptionSpec o) || o.usageHelp() || o.versionHelp()) return null;
    String v = env.get(variable(o.command().name(), o.longestName()));
    return v == null || v.isBlank() ? null : v.strip();
  }
}
