package dev.reed.cli;

import dev.reed.agent.AgentCommand;
import dev.reed.cli.browse.BrowseCommand;
import dev.reed.cli.demo.DemoCommand;
import dev.reed.cli.scale.ScaleCommand;
import dev.reed.cli.snapshot.SnapshotCommand;
import dev.reed.coordinator.CoordinatorCommand;
import dev.reed.eval.EvalCommand;
import dev.reed.runtime.options.OptionHeadings;
import dev.reed.testbed.kafka.KafkaCommand;
import dev.reed.testbed.world.WorldCommand;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code ./reed COMMAND}: the one entry point of the distribution. Each module owns its command
 * class; this only gathers them. {@code ./reed test} is run by the launcher script itself (it
 * needs Maven, not this JVM) and appears here only in the help text.
 */
@Command(
    name = "reed",
    usageHelpWidth = 100,
    mixinStandardHelpOptions = true,
    versionProvider = Reed.Version.class,
    description = "REED: game-server discovery with network coordinates (landmark agents, coordinator, client).",
    subcommands = {
      DemoCommand.class,
      KafkaCommand.class,
      AgentCommand.class,
      CoordinatorCommand.class,
      BrowseCommand.class,
      EvalCommand.class,
      SnapshotCommand.class,
      ScaleCommand.class,
      WorldCommand.class
    },
    footer = {"", "Run './reed COMMAND --help' for a command's options."})
public final class Reed implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /**
   * The help's command list, by what a command is for; {@code bench} and {@code test} are the
   * launcher's. Every subcommand is in one group (ReedTest checks).
   */
  static final Map<String, List<String>> GROUPS = groups();

  private static Map<String, List<String>> groups() {
    Map<String, List<String>> g = new LinkedHashMap<>();
    g.put("Run a deployment", List.of("agent", "coordinator", "browse", "snapshot"));
    g.put("Try it on one machine", List.of("demo", "kafka"));
    g.put("Measure", List.of("eval", "scale", "world", "bench"));
    g.put("Test", List.of("test"));
    return java.util.Collections.unmodifiableMap(g);
  }

  /** Commands the launcher script runs itself (they need Maven, not this JVM), with their help line. */
  private static final Map<String, String> LAUNCHER = Map.of(
      "bench", "Run a module's benchmarks: JMH, or a load harness from its test sources (handled by the launcher).",
      "test", "Run the test suite: ./mvnw verify; --unit: the fast unit tests only, ./mvnw test (handled by the launcher).");

  /** The command tree, for main and for tests. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Reed()).setCaseInsensitiveEnumValuesAllowed(true);
    for (CommandLine sub : cl.getSubcommands().values()) {
      if (sub.getCommand() instanceof OptionHeadings.Sectioned s) s.optionHeadings().install(sub);
      // "reed coordinator [OPTIONS]": the headed list below says the rest, not 30 lines of brackets
      CommandLine.Model.UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
      if (usage.customSynopsis().length == 0) usage.abbreviateSynopsis(true);
    }
    cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST_HEADING, help -> "");
    cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, Reed::groupedCommands);
    return cl;
  }

  private static String groupedCommands(CommandLine.Help help) {
    Map<String, CommandLine.Help> subcommands = help.subcommands();
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, List<String>> group : GROUPS.entrySet()) {
      CommandLine.Help.TextTable table = CommandLine.Help.TextTable.forColumns(help.colorScheme(),
          new CommandLine.Help.Column(15, 2, CommandLine.Help.Column.Overflow.SPAN),
          new CommandLine.Help.Column(help.commandSpec().usageMessage().width() - 15, 1,
              CommandLine.Help.Column.Overflow.WRAP));
      for (String name : group.getValue()) {
        CommandLine.Help sub = subcommands.get(name);
        String[] description = sub != null ? sub.commandSpec().usageMessage().description() : null;
        String line = description != null && description.length > 0 ? firstSentence(description[0]) : LAUNCHER.getOrDefault(name, "");
        table.addRowValues(help.colorScheme().commandText(name), help.colorScheme().text(line));
      }
      out.append(String.format("%n%s:%n", group.getKey())).append(table);
    }
    return out.toString();
  }

  /** A description's first sentence, for a one-line entry (a trailing colon that introduces more goes). */
  static String firstSentence(String description) {
    int end = description.indexOf(". ");
    String s = end < 0 ? description.strip() : description.substring(0, end + 1);
    return s.endsWith(":") ? s.substring(0, s.length() - 1) : s;
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Reed.class.getPackage().getImplementationVersion();
      return new String[] {"reed " + (v == null ? "development build" : v)};
    }
  }
}
