package dev.reed.cli;

import dev.reed.agent.AgentCommand;
import dev.reed.cli.browse.BrowseCommand;
import dev.reed.cli.demo.DemoCommand;
import dev.reed.cli.scale.ScaleCommand;
import dev.reed.cli.snapshot.SnapshotCommand;
import dev.reed.coordinator.CoordinatorCommand;
import dev.reed.eval.EvalCommand;
import dev.reed.testbed.kafka.KafkaCommand;
import dev.reed.testbed.world.WorldCommand;
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
    footer = {"", "  test   Runs the full test suite (./mvnw verify; handled by the launcher).",
        "", "Run './reed COMMAND --help' for a command's options."})
public final class Reed implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command tree, for main and for tests. */
  static CommandLine commandLine() {
    return new CommandLine(new Reed()).setCaseInsensitiveEnumValuesAllowed(true);
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
