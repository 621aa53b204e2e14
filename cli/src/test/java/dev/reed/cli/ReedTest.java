package dev.reed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.runtime.options.OptionHeadings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.Comparator;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class ReedTest {

  @Test
  void everyCommandHasHelpAndAOneLineDescription() {
    CommandLine reed = Reed.commandLine();
    assertThat(reed.getSubcommands()).isNotEmpty();
    for (var e : reed.getSubcommands().entrySet()) {
      CommandLine sub = e.getValue();
      assertThat(sub.getCommandSpec().mixinStandardHelpOptions()).as(e.getKey() + " has --help").isTrue();
      assertThat(sub.getCommandSpec().usageMessage().description()).as(e.getKey() + " description").isNotEmpty();
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CommandLine root = Reed.commandLine();
      root.setOut(new PrintWriter(out));
      root.setErr(new PrintWriter(err));
      assertThat(root.execute(e.getKey(), "--help")).as("%s --help: %s", e.getKey(), err).isZero();
      assertThat(out.toString()).contains("Usage: reed " + e.getKey());
    }
  }

  @Test
  void topLevelHelpListsEveryCommandAndTheLaunchersTestCommand() {
    StringWriter out = new StringWriter();
    CommandLine reed = Reed.commandLine();
    reed.setOut(new PrintWriter(out));
    assertThat(reed.execute("--help")).isZero();
    for (String name : reed.getSubcommands().keySet()) assertThat(out.toString()).contains("  " + name + " ");
    assertThat(out.toString()).contains("  test ").contains("  bench ");
    assertThat(out.toString()).containsSubsequence("Run a deployment:", "  agent ", "Try it on one machine:", "  demo ",
        "Measure:", "  eval ", "Test:", "  test ");
  }

  @Test
  void everyCommandIsInExactlyOneHelpGroup() {
    java.util.List<String> grouped = Reed.GROUPS.values().stream().flatMap(java.util.List::stream).toList();
    assertThat(grouped).doesNotHaveDuplicates();
    assertThat(grouped).containsAll(Reed.commandLine().getSubcommands().keySet());
  }

  @Test
  void anUnknownOptionIsAUsageErrorNotACrash() {
    CommandLine reed = Reed.commandLine();
    reed.setErr(new PrintWriter(new StringWriter()));
    assertThat(reed.execute("kafka", "--no-such-option")).isEqualTo(2);
  }

  /**
   * Every command's --help reads by topic: every option is printed once, after the heading that
   * lists it and before the next one; --help and --version last, under Help.
   */
  @Test
  void everyOptionOfEveryCommandIsUnderAHeading() {
    for (var e : Reed.commandLine().getSubcommands().entrySet()) {
      Object command = e.getValue().getCommand();
      assertThat(command).as(e.getKey()).isInstanceOf(OptionHeadings.Sectioned.class);
      OptionHeadings headings = ((OptionHeadings.Sectioned) command).optionHeadings();
      assertThat(headings.problems(e.getValue().getCommandSpec())).as(e.getKey()).isEmpty();
      String help = e.getValue().getUsageMessage(CommandLine.Help.Ansi.OFF);
      for (OptionSpec o : e.getValue().getCommandSpec().options()) {
        if (o.hidden()) continue;
        String heading = o.usageHelp() || o.versionHelp() ? OptionHeadings.HELP : headings.heading(o);
        assertThat(heading).as("%s %s has a heading", e.getKey(), o.longestName()).isNotNull();
        String printed = Arrays.stream(o.names()).filter(n -> n.startsWith("--"))
            .min(Comparator.comparingInt(String::length)).orElseThrow();
        var line = Pattern.compile("^  (-\\w, | {4})" + Pattern.quote(o.negatable() ? "--[no-]" + printed.substring(2) : printed)
            + "(?=[=\\s,])", Pattern.MULTILINE).matcher(help);
        assertThat(line.find()).as("%s --help lists %s", e.getKey(), o.longestName()).isTrue();
        int at = line.start();
        assertThat(line.find()).as("%s --help lists %s once", e.getKey(), o.longestName()).isFalse();
        String before = help.substring(0, at);
        int headingAt = before.lastIndexOf("\n" + heading + ":\n");
        assertThat(headingAt).as("%s %s is under %s", e.getKey(), o.longestName(), heading).isNotNegative();
        assertThat(before.substring(headingAt + 1).lines().skip(1).noneMatch(l -> l.matches("\\S.*:")))
            .as("%s %s: no other heading between %s and it", e.getKey(), o.longestName(), heading).isTrue();
      }
    }
  }

  /** The check above can fail: an option left out, a name that is no option, an option under two headings. */
  @Test
  void headingsThatMissAnOptionOrNameAnUnknownOneAreReported() {
    CommandLine kafka = Reed.commandLine().getSubcommands().get("kafka");
    OptionHeadings partial = OptionHeadings.of(OptionHeadings.section("Broker", "--port"));
    assertThat(partial.problems(kafka.getCommandSpec())).singleElement().asString().contains("--data-dir");
    partial.install(kafka);
    assertThat(kafka.getUsageMessage(CommandLine.Help.Ansi.OFF)).containsSubsequence("Broker:", "--port", "Other:", "--data-dir");
    OptionHeadings extra = OptionHeadings.of(OptionHeadings.section("Broker", "--port", "--data-dir", "--no-such"));
    assertThat(extra.problems(kafka.getCommandSpec())).singleElement().asString().contains("--no-such");
    assertThatThrownBy(() -> OptionHeadings.of(OptionHeadings.section("A", "--port"), OptionHeadings.section("B", "--port")))
        .hasMessageContaining("--port is under two headings");
  }
}
