package dev.reed.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.v1.GeoPoint;
import dev.reed.runtime.EnvironmentDefaults;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AgentCommandTest {
  record Run(int exit, String out, String err, AgentCommand command) {}

  /** Parses only (no agent is started): validation happens in config(). */
  static AgentConfig parse(Map<String, String> env, String... args) {
    AgentCommand cmd = new AgentCommand();
    CommandLine cl = new CommandLine(cmd).setDefaultValueProvider(new EnvironmentDefaults(env));
    cl.parseArgs(args);
    return cmd.config();
  }

  static Run execute(Map<String, String> env, String... args) {
    AgentCommand cmd = new AgentCommand();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(cmd).setDefaultValueProvider(new EnvironmentDefaults(env))
        .setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString(), cmd);
  }

  @Test
  void everyOptionComesFromFlagsWithDefaults() {
    AgentConfig c = parse(Map.of(), "--id", "eu-1", "--kafka", "127.0.0.1:9092", "--region", "Europe/Frankfurt",
        "--bind", "127.0.0.2", "--beacon", "127.0.0.3:28000", "--interval", "30s", "--rate", "50", "--spool-dir", "/tmp/s",
        "--metrics-port", "9400", "--targets", "t.txt");
    assertThat(c.id()).isEqualTo("eu-1");
    assertThat(c.kafkaBootstrap()).isEqualTo("127.0.0.1:9092");
    assertThat(c.region()).isEqualTo("Europe/Frankfurt");
    assertThat(c.bind()).isEqualTo(new InetSocketAddress("127.0.0.2", 0));
    assertThat(c.beacon()).isEqualTo(new InetSocketAddress("127.0.0.3", 28000));
    assertThat(c.interval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.rate()).isEqualTo(50);
    assertThat(c.spoolDir()).isEqualTo(Path.of("/tmp/s"));
    assertThat(c.metricsPort()).isEqualTo(9400);
    assertThat(c.targetsFile()).isEqualTo(Path.of("t.txt"));
    assertThat(c.location()).isNull();

    AgentConfig d = parse(Map.of(), "--id", "x", "--kafka", "k:9092");
    assertThat(d.interval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(d.rate()).isEqualTo(140);
    assertThat(d.beacon().getPort()).isEqualTo(27960);
    assertThat(d.metricsPort()).as("off").isEqualTo(-1);
    assertThat(parse(Map.of(), "--id", "x", "--kafka", "k:9092", "--metrics-port", "0").metricsPort()).as("any free port").isZero();
    assertThat(parse(Map.of(), "--id", "x", "--kafka", "k:9092", "--metrics-port", "off").metricsPort()).isEqualTo(-1);
    assertThatThrownBy(() -> parse(Map.of(), "--id", "x", "--kafka", "k:9092", "--metrics-port", "70000"))
        .hasMessageContaining("not a port: 1-65535, 0 (any free port) or off");
    assertThat(d.deliveryTimeout()).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void environmentVariablesConfigureContainersAndFlagsWin() {
    Map<String, String> env = Map.of("REED_AGENT_ID", "ap-2", "REED_AGENT_KAFKA", "kafka:9092", "REED_AGENT_INTERVAL", "1m",
        "REED_AGENT_SPOOL_DIR", "/var/spool/reed", "REED_AGENT_METRICS_PORT", "9500", "REED_AGENT_RATE", "70",
        "REED_AGENT_BEACON_ADVERTISE", "203.0.113.9:27960");
    AgentConfig c = parse(env);
    assertThat(c.id()).isEqualTo("ap-2");
    assertThat(c.kafkaBootstrap()).isEqualTo("kafka:9092");
    assertThat(c.interval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(c.spoolDir()).isEqualTo(Path.of("/var/spool/reed"));
    assertThat(c.metricsPort()).isEqualTo(9500);
    assertThat(c.rate()).isEqualTo(70);
    assertThat(c.beaconAdvertise()).isEqualTo(new InetSocketAddress("203.0.113.9", 27960));
    assertThat(parse(env, "--rate", "10", "--id", "ap-3").rate()).isEqualTo(10);
    assertThat(parse(env, "--id", "ap-3").id()).isEqualTo("ap-3");
    assertThat(EnvironmentDefaults.variable("agent", "--spool-max-mb")).isEqualTo("REED_AGENT_SPOOL_MAX_MB");
  }

  @Test
  void badInputGetsAClearErrorAndExitCode2() {
    Run r = execute(Map.of(), "--kafka", "k:1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--id is required (or REED_AGENT_ID)");

    r = execute(Map.of(), "--id", "a", "--kafka", "k:1", "--interval", "5x");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--interval: invalid duration '5x'");

    r = execute(Map.of("REED_AGENT_INTERVAL", "soon"), "--id", "a", "--kafka", "k:1");
    assertThat(r.err()).contains("--interval: invalid duration 'soon'");

    r = execute(Map.of(), "--id", "has space", "--kafka", "k:1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("landmark id must be");

    r = execute(Map.of(), "--id", "a", "--kafka", "k:1", "--beacon", "127.0.0.1:99999");
    assertThat(r.err()).contains("--beacon: port out of range");

    r = execute(Map.of(), "--id", "a", "--kafka", "k:1", "--rate", "0");
    assertThat(r.err()).contains("rate must be > 0");

    for (String[] bad : new String[][] {{"50.11", "expected LAT,LON"}, {"50.11,8.68,3", "expected LAT,LON"},
        {"north,east", "expected LAT,LON"}, {"91,0", "latitude must be in -90..90"},
        {"-90.5,0", "latitude must be in -90..90"}, {"0,180.01", "longitude must be in -180..180"},
        {"NaN,0", "latitude must be in -90..90"}, {"0,Infinity", "longitude must be in -180..180"}}) {
      r = execute(Map.of(), "--id", "a", "--kafka", "k:1", "--location", bad[0]);
      assertThat(r.exit()).as(bad[0]).isEqualTo(2);
      assertThat(r.err()).as(bad[0]).contains("--location: " + bad[1]);
    }
  }

  @Test
  void locationIsLatitudeCommaLongitudeInDegrees() {
    AgentConfig c = parse(Map.of(), "--id", "a", "--kafka", "k:1", "--location", "-33.87, 151.21");
    assertThat(c.location().getLatitudeDeg()).isEqualTo(-33.87);
    assertThat(c.location().getLongitudeDeg()).isEqualTo(151.21);
    AgentConfig e = parse(Map.of("REED_AGENT_LOCATION", "50.11,8.68"), "--id", "a", "--kafka", "k:1");
    assertThat(e.location()).isEqualTo(AgentConfig.location(50.11, 8.68));
    assertThat(parse(Map.of(), "--id", "a", "--kafka", "k:1", "--location", "90,-180").location().getLongitudeDeg())
        .isEqualTo(-180);
    assertThatThrownBy(() -> AgentConfig.builder("a", "k:1").location(GeoPoint.newBuilder().setLatitudeDeg(100).build())
        .build()).hasMessageContaining("latitude must be in -90..90");
  }

  @Test
  void helpListsOptionsAndEnvironment() {
    Run r = execute(Map.of(), "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("--id", "--kafka", "--targets", "--interval", "--once", "--spool-dir", "--metrics-port",
        "REED_AGENT_KAFKA", "q3 HOST:PORT");
    assertThat(r.out()).as("defaults shown from AgentConfig").contains("(default 5m,", "(default 0.0.0.0:27960)",
        "(default 1s)", "(default 2m)", "(default 256)", "(default reed-agent-spool)");
  }

  @Test
  void kafkaClientPropertiesComeFromAFileAndCannotOverrideTheAgentsGuarantees(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path good = dir.resolve("client.properties");
    java.nio.file.Files.writeString(good, "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n");
    AgentConfig c = parse(Map.of("REED_AGENT_KAFKA_CONFIG", good.toString()), "--id", "a", "--kafka", "k:9093");
    assertThat(c.kafkaProperties()).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512");

    Path bad = dir.resolve("bad.properties");
    java.nio.file.Files.writeString(bad, "acks=1\n");
    Run r = execute(Map.of(), "--id", "a", "--kafka", "k:1", "--kafka-config", bad.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("'acks' is set by the agent and cannot be overridden");

    r = execute(Map.of(), "--id", "a", "--kafka", "k:1", "--kafka-config", dir.resolve("missing").toString());
    assertThat(r.err()).contains("cannot read Kafka client properties");
  }
}
