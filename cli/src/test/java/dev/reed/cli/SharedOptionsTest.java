package dev.reed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.runtime.options.ClientAddressLogging;
import dev.reed.runtime.options.DimensionsOption;
import dev.reed.runtime.options.DiscoveryModelOption;
import dev.reed.runtime.options.GeoDatabaseOptions;
import dev.reed.runtime.options.KafkaOptions;
import dev.reed.runtime.options.MetricsPortOption;
import dev.reed.runtime.options.NCloseOption;
import dev.reed.runtime.options.SettingsFileOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options several commands share are the runtime's mixins, so each has one name and one
 * meaning everywhere: every command that takes one of their names takes it from the mixin, and its
 * --help lists it once, with the mixin's description.
 */
class SharedOptionsTest {
  /** Each mixin and the commands that take it. */
  private static final Map<Object, List<String>> MIXINS = Map.of(
      new DimensionsOption(), List.of("coordinator", "demo", "eval"),
      new KafkaOptions(), List.of("agent", "coordinator"),
      new GeoDatabaseOptions(), List.of("browse", "coordinator"),
      new ClientAddressLogging(), List.of("agent", "coordinator"),
      new MetricsPortOption(), List.of("agent", "coordinator"),
      new NCloseOption(1), List.of("browse", "demo", "eval"),
      new DiscoveryModelOption(), List.of("browse", "demo", "eval"),
      new SettingsFileOptions(), List.of("coordinator", "eval"));

  @Test
  void everyCommandTakesASharedOptionFromItsMixinAndListsItOnceWithItsDescription() {
    Map<String, CommandLine> commands = Reed.commandLine().getSubcommands();
    for (Map.Entry<Object, List<String>> mixin : MIXINS.entrySet()) {
      CommandSpec shared = CommandSpec.forAnnotatedObject(mixin.getKey());
      String type = mixin.getKey().getClass().getSimpleName();
      assertThat(shared.options()).as(type).isNotEmpty();
      TreeSet<String> takers = new TreeSet<>();
      for (Map.Entry<String, CommandLine> command : commands.entrySet()) {
        CommandSpec spec = command.getValue().getCommandSpec();
        boolean mixedIn = spec.mixins().values().stream().anyMatch(m -> m.userObject().getClass() == mixin.getKey().getClass());
        for (OptionSpec option : shared.options()) {
          OptionSpec own = spec.findOption(option.longestName());
          if (own == null) continue;
          takers.add(command.getKey());
          assertThat(mixedIn).as("%s %s comes from %s", command.getKey(), option.longestName(), type).isTrue();
          assertThat(template(own)).as("%s %s", command.getKey(), option.longestName()).isEqualTo(template(option));
          String help = command.getValue().getUsageMessage(CommandLine.Help.Ansi.OFF);
          assertThat(Pattern.compile("^\\s+" + Pattern.quote(option.longestName()) + "[=\\s]", Pattern.MULTILINE)
              .matcher(help).results().count()).as("%s --help lists %s", command.getKey(), option.longestName()).isOne();
          String firstWords = String.join(" ", Arrays.asList(option.description()[0].split("\\s+")).subList(0, 3));
          assertThat(help.replaceAll("\\s+", " ")).as("%s --help describes %s", command.getKey(), option.longestName())
              .contains(firstWords);
        }
      }
      assertThat(takers).as("the commands that take %s", type).containsExactlyElementsOf(mixin.getValue());
    }
  }

  /** An option's description with its default value left out: commands may give a shared option their own default. */
  private static String template(OptionSpec option) {
    return String.join(" ", option.description()).replaceAll("default: [^),;]*", "default: D");
  }

  /**
   * The old names, which meant different things on different commands or took research knobs, are
   * gone: the stop rules' tunables and N_calib are keys of the --model file.
   */
  @Test
  void theOldSpellingsAreGone() {
    Map<String, TreeSet<String>> byName = new TreeMap<>();
    for (Map.Entry<String, CommandLine> command : Reed.commandLine().getSubcommands().entrySet()) {
      for (OptionSpec o : command.getValue().getCommandSpec().options()) {
        for (String name : o.names()) byName.computeIfAbsent(name, k -> new TreeSet<>()).add(command.getKey());
      }
    }
    assertThat(byName).doesNotContainKeys("--dims", "--window", "--report-param", "--integrity-param", "--calib",
        "--near-calibration", "--calibration", "--intelligent-window", "--window-margin", "--rtt-window", "--delta");
  }
}
