package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

class EnvironmentDefaultsTest {
  @Command(name = "svc", mixinStandardHelpOptions = true)
  static final class Svc {
    @Option(names = "--spool-dir", defaultValue = "spool") String spoolDir;
    @Option(names = "--port") int port;
  }

  static Svc parse(Map<String, String> env, String... args) {
    Svc s = new Svc();
    new CommandLine(s).setDefaultValueProvider(new EnvironmentDefaults(env)).parseArgs(args);
    return s;
  }

  @Test
  void theVariableIsNamedAfterCommandAndOption() {
    assertThat(EnvironmentDefaults.variable("agent", "--spool-max-mb")).isEqualTo("REED_AGENT_SPOOL_MAX_MB");
    assertThat(EnvironmentDefaults.variable("coordinator", "--q3-master-port")).isEqualTo("REED_COORDINATOR_Q3_MASTER_PORT");
  }

  @Test
  void aVariableReplacesTheAnnotationDefaultAndTheCommandLineWins() {
    assertThat(parse(Map.of()).spoolDir).isEqualTo("spool");
    assertThat(parse(Map.of("REED_SVC_SPOOL_DIR", " /var/spool ", "REED_SVC_PORT", "7")).spoolDir).isEqualTo("/var/spool");
    assertThat(parse(Map.of("REED_SVC_PORT", "7")).port).isEqualTo(7);
    assertThat(parse(Map.of("REED_SVC_PORT", "7"), "--port", "8").port).isEqualTo(8);
    assertThat(parse(Map.of("REED_SVC_SPOOL_DIR", "  ")).spoolDir).as("a blank variable is unset").isEqualTo("spool");
    assertThat(parse(Map.of("REED_OTHER_PORT", "7")).port).as("another command's variable").isZero();
  }
}
