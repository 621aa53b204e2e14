package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CoordinatorCommandTest {
  static CoordinatorCommand parse(String... args) {
    CoordinatorCommand c = new CoordinatorCommand();
    new CommandLine(c).parseArgs(args);
    return c;
  }

  @Test
  void optionsMapToTheConfiguration() {
    CoordinatorConfig c = parse("--kafka", "127.0.0.1:9092", "--grpc-port", "0", "--dims", "3", "--snapshot-dir", "/tmp/s",
        "--snapshot-every", "90s", "--targets", "t.txt", "--q3-master-port", "-1", "--valve-master-port", "27012",
        "--round-interval", "500ms", "--crawl", "q3:10.0.0.1:27950,valve:10.0.0.2:27011", "--lease", "games/leader")
        .config();
    assertThat(c.kafkaBootstrap()).isEqualTo("127.0.0.1:9092");
    assertThat(c.grpcPort()).isZero();
    assertThat(c.dimensions()).isEqualTo(3);
    assertThat(c.snapshotDir()).isEqualTo(Path.of("/tmp/s"));
    assertThat(c.snapshotEvery()).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.quake3MasterPort()).isEqualTo(-1);
    assertThat(c.valveMasterPort()).isEqualTo(27012);
    assertThat(c.roundInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.crawlMasters()).containsExactly("q3:10.0.0.1:27950", "valve:10.0.0.2:27011");
    assertThat(c.leaseNamespace()).isEqualTo("games");
    CoordinatorConfig d = parse("--kafka", "k:1").config();
    assertThat(d.grpcPort()).isEqualTo(50051);
    assertThat(d.dimensions()).isEqualTo(4);
    assertThat(d.snapshotEvery()).isEqualTo(Duration.ofMinutes(5));
    assertThat(d.quake3MasterPort()).isEqualTo(27950);
    assertThat(d.valveMasterPort()).isEqualTo(27011);
  }

  @Test
  void environmentStyleVariablesAreDefaults() {
    // picocli resolves ${REED_COORDINATOR_...} from system properties first, then the environment
    System.setProperty("REED_COORDINATOR_KAFKA", "10.1.1.1:9092");
    System.setProperty("REED_COORDINATOR_DIMS", "5");
    try {
      CoordinatorConfig c = parse().config();
      assertThat(c.kafkaBootstrap()).isEqualTo("10.1.1.1:9092");
      assertThat(c.dimensions()).isEqualTo(5);
      assertThat(parse("--dims", "2").config().dimensions()).as("the command line wins").isEqualTo(2);
    } finally {
      System.clearProperty("REED_COORDINATOR_KAFKA");
      System.clearProperty("REED_COORDINATOR_DIMS");
    }
  }

  @Test
  void kafkaConfigFileBecomesClientPropertiesAndOwnedKeysAreRefused(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("client.properties");
    Files.writeString(file, "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
        + "ssl.truststore.location=/etc/reed/ca.p12\n");
    CoordinatorConfig c = parse("--kafka", "k:1", "--kafka-config", file.toString()).config();
    assertThat(c.kafkaProperties()).containsOnly(Map.entry("security.protocol", "SASL_SSL"),
        Map.entry("sasl.mechanism", "SCRAM-SHA-512"), Map.entry("ssl.truststore.location", "/etc/reed/ca.p12"));
    assertThat(parse("--kafka", "k:1").config().kafkaProperties()).isEmpty();
    System.setProperty("REED_COORDINATOR_KAFKA_CONFIG", file.toString());
    try {
      assertThat(parse("--kafka", "k:1").config().kafkaProperties()).containsEntry("security.protocol", "SASL_SSL");
    } finally {
      System.clearProperty("REED_COORDINATOR_KAFKA_CONFIG");
    }

    Path bad = dir.resolve("bad.properties");
    Files.writeString(bad, "security.protocol=SSL\ngroup.id=mine\n");
    PrintStream realErr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit;
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exit = new CommandLine(new CoordinatorCommand()).execute("--kafka", "127.0.0.1:1", "--kafka-config", bad.toString());
    } finally {
      System.setErr(realErr);
    }
    assertThat(exit).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("coordinator: " + bad + ": 'group.id' is set by the coordinator and cannot be overridden");
    assertThatThrownBy(() -> parse("--kafka", "k:1", "--kafka-config", dir.resolve("missing").toString()).config())
        .hasMessageContaining("cannot read Kafka client properties");
    assertThatThrownBy(() -> CoordinatorConfig.builder("k:1").kafkaProperties(Map.of("bootstrap.servers", "x:1")).build())
        .hasMessage("Kafka setting 'bootstrap.servers' is set by the coordinator and cannot be overridden");
  }

  @Test
  void badInputSaysWhatIsWrong() {
    StringWriter err = new StringWriter();
    int code = new CommandLine(new CoordinatorCommand()).setErr(new PrintWriter(err)).execute("--dims", "4");
    assertThat(code).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> parse("--kafka", "k:1", "--dims", "7").config()))
        .hasMessageContaining("dimensions must be one of");
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> parse("--kafka", "k:1", "--snapshot-every", "soon").config()))
        .hasMessageContaining("--snapshot-every: expected a duration");
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> parse("--kafka", "k:1", "--tls-cert", "c.pem").config()))
        .hasMessageContaining("--tls-cert and --tls-key go together");
    java.io.PrintStream realErr = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    try {
      Path bad = java.nio.file.Files.createTempFile("targets", ".txt");
      java.nio.file.Files.writeString(bad, "q3 127.0.0.1:27960\nquake 1.2.3.4:5\n");
      System.setErr(new java.io.PrintStream(captured, true));
      int exit = new CommandLine(new CoordinatorCommand()).execute("--kafka", "127.0.0.1:1", "--targets", bad.toString());
      assertThat(exit).isEqualTo(1);
      assertThat(captured.toString()).contains(":2: unknown protocol 'quake'");
      java.nio.file.Files.delete(bad);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } finally {
      System.setErr(realErr);
    }
    StringWriter out = new StringWriter();
    assertThat(new CommandLine(new CoordinatorCommand()).setOut(new PrintWriter(out)).execute("--help")).isZero();
    assertThat(out.toString()).contains("--kafka").contains("REED_COORDINATOR_");
  }
}
