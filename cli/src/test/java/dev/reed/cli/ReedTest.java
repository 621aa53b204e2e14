package dev.reed.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

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
}
