package dev.reed.terraform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.agent.AgentConfig;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * What a VM receives: the cloud-config rendered from the module's template (exactly as
 * templatefile would, see CloudInitTemplate) parses as YAML and installs the JRE, the verified
 * distribution, the agent's configuration and the systemd unit; it carries no secret. The
 * credentials helper is run for real by bash, with the cloud CLIs replaced by scripts that answer
 * like them, and its output is read by the real Kafka client configuration.
 */
@Tag("integration")
class CloudInitTest {

  static final Path MODULE = TerraformModulesTest.MODULE;
  static final String ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:reed/kafka-agent-password-AbCdEf";

  @TempDir Path tmp;

  @Test
  void renderedUserDataConfiguresAndStartsTheAgent() throws IOException {
    String rendered = CloudInitTemplate.read(MODULE).render(values("aws", ARN));
    assertThat(rendered).startsWith("#cloud-config\n");
    Map<String, Object> config = yaml(rendered);

    // exactly these: a "curl" package conflicts with Amazon Linux 2023's curl-minimal and fails the install
    assertThat(config.get("packages")).asList().containsExactly("java-21-amazon-corretto-headless", "jq");
    Map<String, String> files = writeFiles(config);
    assertThat(files).containsKeys("/etc/reed/agent.env", "/etc/reed/credentials.env", "/etc/reed/kafka-ca.crt",
        "/opt/reed/bin/reed-kafka-credentials", "/etc/systemd/system/reed-agent.service");

    Properties env = properties(files.get("/etc/reed/agent.env"));
    assertThat(env).containsEntry("REED_AGENT_ID", "eu-dublin")
        .containsEntry("REED_AGENT_REGION", "eu-west-1")
        .containsEntry("REED_AGENT_LOCATION", "53.35,-6.26")
        .containsEntry("REED_AGENT_KAFKA", "kafka.example.net:9094")
        .containsEntry("REED_AGENT_KAFKA_CONFIG", "/run/reed/kafka-client.properties")
        .containsEntry("REED_AGENT_BEACON", "0.0.0.0:27960")
        .containsEntry("REED_AGENT_BEACON_ADVERTISE", "203.0.113.7:27960")
        .containsEntry("REED_AGENT_WS_BEACON", "0.0.0.0:27961")
        .containsEntry("REED_AGENT_WS_ADVERTISE", "203.0.113.7:27961")
        .containsEntry("REED_AGENT_METRICS_PORT", "9465")
        .containsEntry("REED_AGENT_INTERVAL", "5m")
        .containsEntry("REED_AGENT_SPOOL_DIR", "/var/lib/reed/spool")
        .containsEntry("REED_AGENT_DENY", "/etc/reed/deny.txt");
    // the agent's own parser reads the location it announces ...
    assertThat(AgentConfig.location(env.getProperty("REED_AGENT_LOCATION"))).isEqualTo(AgentConfig.location(53.35, -6.26));
    // ... and the deny file the VM gets
    dev.reed.runtime.DenyList deny = dev.reed.runtime.DenyList.parse("deny.txt", files.get("/etc/reed/deny.txt").lines().toList());
    assertThat(deny.size()).isEqualTo(2);
    assertThat(deny.denies(dev.reed.proto.Endpoints.parse("198.51.100.70:27960"))).isTrue();
    assertThat(deny.denies(dev.reed.proto.Endpoints.parse("198.51.100.8:27960"))).isFalse();
    assertThat(files.get("/etc/reed/kafka-ca.crt")).startsWith("-----BEGIN CERTIFICATE-----");
    assertThat(files.get("/opt/reed/bin/reed-kafka-credentials"))
        .isEqualTo(Files.readString(MODULE.resolve("templates/reed-kafka-credentials.sh")));
    assertThat(properties(files.get("/etc/reed/credentials.env")))
        .containsEntry("SECRET_STORE", "aws").containsEntry("KAFKA_PASSWORD_SECRET", ARN);

    // the unit runs the agent's own jar (not the ./reed distribution) as the unprivileged user with that env file
    Map<String, List<String>> unit = systemdUnit(files.get("/etc/systemd/system/reed-agent.service"));
    assertThat(unit.get("User")).containsExactly("reed");
    assertThat(unit.get("EnvironmentFile")).containsExactly("/etc/reed/agent.env");
    assertThat(unit.get("ExecStartPre")).containsExactly("+/opt/reed/bin/reed-kafka-credentials");
    assertThat(unit.get("ExecStart").get(0)).startsWith("/usr/bin/java ").endsWith("-jar /opt/reed/reed-landmark-agent.jar");
    assertThat(unit.get("RuntimeDirectory")).containsExactly("reed");
    assertThat(unit.get("StateDirectory").get(0).split(" ")).contains("reed/spool");
    assertThat(unit.get("Restart")).containsExactly("always");
    assertThat(unit.get("ProtectSystem")).containsExactly("strict");
    assertThat(systemdUnit(files.get("/etc/systemd/system/reed-agent.service.d/do-not-probe.conf")).get("IPAddressDeny"))
        .containsExactly("198.51.100.7/32 198.51.100.64/26");

    // runcmd: verify the download before unpacking, then start the service
    List<String> runcmd = new ArrayList<>();
    for (Object c : (List<?>) config.get("runcmd")) runcmd.add(String.join(" ", ((List<?>) c).stream().map(String::valueOf).toList()));
    int verify = indexOf(runcmd, "sha256sum -c");
    int unpack = indexOf(runcmd, "tar -xzf");
    int start = indexOf(runcmd, "systemctl enable --now reed-agent.service");
    assertThat(verify).isLessThan(unpack);
    assertThat(unpack).isLessThan(start);
    assertThat(runcmd.get(verify)).contains("a".repeat(64));

    // no secret in user data (readable by anyone who may describe the instance)
    assertThat(rendered).doesNotContain("password=").doesNotContain("sasl.jaas.config=");
  }

  /**
   * The unit's command line, with this machine's java and the built agent jar set in place of
   * /opt/reed, answers --help: the agent's own jar and lib/ (what the tarball carries) run alone.
   */
  @Test
  void theUnitsCommandRunsOnTheAgentsOwnJarSet() throws Exception {
    Map<String, String> files = writeFiles(yaml(CloudInitTemplate.read(MODULE).render(values("aws", ARN))));
    String execStart = systemdUnit(files.get("/etc/systemd/system/reed-agent.service")).get("ExecStart").get(0);
    Path target = TerraformModulesTest.ROOT.getParent().resolve("landmark-agent/target");
    assumeTrue(Files.isRegularFile(target.resolve("reed-landmark-agent.jar")) && Files.isDirectory(target.resolve("lib")),
        "the landmark-agent jar set is not built (./mvnw -B -q -Dmaven.test.skip=true -pl landmark-agent -am package): skipping");
    List<String> cmd = new ArrayList<>(List.of(execStart.split("\\s+")));
    cmd.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.replaceAll(a -> a.startsWith("/opt/reed/") ? target.resolve(a.substring("/opt/reed/".length())).toString() : a);
    cmd.add("--help");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("--kafka").contains("--beacon");
  }

  @Test
  void gcpAgentsGetTheDebianJreAndTheSecretManagerReference() throws IOException {
    String rendered = CloudInitTemplate.read(MODULE)
        .render(values("gcp", "projects/my-reed-project/secrets/reed-kafka-agent-password"));
    Map<String, Object> config = yaml(rendered);
    assertThat(config.get("packages")).asList().contains("openjdk-21-jre-headless");
    // no location stated: an empty variable, which the agent's environment defaults treat as unset
    assertThat(properties(writeFiles(config).get("/etc/reed/agent.env"))).containsEntry("REED_AGENT_LOCATION", "");
    assertThat(properties(writeFiles(config).get("/etc/reed/credentials.env")))
        .containsEntry("SECRET_STORE", "gcp")
        .containsEntry("KAFKA_PASSWORD_SECRET", "projects/my-reed-project/secrets/reed-kafka-agent-password");
  }

  @Test
  void credentialsHelperWritesKafkaClientSettingsFromAwsSecretsManager() throws Exception {
    Path bin = stub("aws", """
        #!/bin/bash
        echo "$@" > "%s/aws.args"
        echo 'Sc7amPassw0rd'
        """.formatted(tmp));
    Run run = runHelper("aws", ARN, bin);
    assertThat(run.exit()).as(run.output()).isZero();
    assertThat(Files.readString(tmp.resolve("aws.args")).strip())
        .isEqualTo("secretsmanager get-secret-value --region eu-west-1 --secret-id " + ARN + " --query SecretString --output text");

    Path written = tmp.resolve("run/kafka-client.properties");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written))).isEqualTo("rw-------");
    // the agent's --kafka-config reader accepts it (no key the agent owns) ...
    assertThat(dev.reed.runtime.KafkaClientProperties.read(written, AgentConfig.KAFKA_OWNED_KEYS, "agent")).containsEntry("security.protocol", "SASL_SSL");
    // ... and the Kafka client accepts what it passes on
    ProducerConfig kafka = new ProducerConfig(producer(properties(Files.readString(written))));
    assertThat(kafka.getString("security.protocol")).isEqualTo("SASL_SSL");
    assertThat(kafka.getString("sasl.mechanism")).isEqualTo("SCRAM-SHA-512");
    assertThat(kafka.getPassword("sasl.jaas.config").value())
        .isEqualTo("org.apache.kafka.common.security.scram.ScramLoginModule required username=\"reed-agent\" password=\"Sc7amPassw0rd\";");
    assertThat(kafka.getString("ssl.truststore.type")).isEqualTo("PEM");
  }

  @Test
  void credentialsHelperReadsGcpSecretManagerWithTheMetadataToken() throws Exception {
    assumeTrue(onPath("jq"), "jq is not installed: skipping the GCP helper run");
    String secret = "projects/p/secrets/reed-kafka";
    String payload = Base64.getEncoder().encodeToString("GcpPassw0rd".getBytes(StandardCharsets.UTF_8));
    Path bin = stub("curl", """
        #!/bin/bash
        url="${@: -1}"
        case "$url" in
          http://metadata.google.internal/*/token) echo '{"access_token":"tok-123","expires_in":3599}' ;;
          https://secretmanager.googleapis.com/v1/%s/versions/latest:access)
            [[ "$*" == *"Authorization: Bearer tok-123"* ]] || exit 22
            echo '{"name":"x","payload":{"data":"%s"}}' ;;
          *) exit 22 ;;
        esac
        """.formatted(secret, payload));
    Run run = runHelper("gcp", secret, bin);
    assertThat(run.exit()).as(run.output()).isZero();
    assertThat(Files.readString(tmp.resolve("run/kafka-client.properties"))).contains("password=\"GcpPassw0rd\";");
  }

  @Test
  void credentialsHelperRefusesAnEmptyOrUnquotablePasswordAndWritesNothing() throws Exception {
    for (String answer : List.of("", "pa\"ss")) {
      Path bin = stub("aws", "#!/bin/bash\nprintf '%s\\n' '" + answer.replace("'", "'\\''") + "'\n");
      Run run = runHelper("aws", ARN, bin);
      assertThat(run.exit()).as("password %s: %s", answer, run.output()).isNotZero();
      assertThat(tmp.resolve("run/kafka-client.properties")).doesNotExist();
    }
    Run unknown = runHelper("azure", "x", stub("aws", "#!/bin/bash\necho never\n"));
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.output()).contains("unknown SECRET_STORE");
  }

  private record Run(int exit, String output) {}

  private Run runHelper(String store, String secret, Path stubDir) throws IOException, InterruptedException {
    Path credentials = tmp.resolve("credentials.env");
    Files.writeString(credentials, "SECRET_STORE=" + store + "\nKAFKA_PASSWORD_SECRET=" + secret
        + "\nKAFKA_USERNAME=reed-agent\nKAFKA_CA_FILE=/etc/reed/kafka-ca.crt\n");
    ProcessBuilder pb = new ProcessBuilder("bash", MODULE.resolve("templates/reed-kafka-credentials.sh").toString())
        .redirectErrorStream(true);
    pb.environment().put("PATH", stubDir + ":" + System.getenv("PATH"));
    pb.environment().put("CREDENTIALS_ENV", credentials.toString());
    pb.environment().put("REED_RUNTIME_DIR", tmp.resolve("run").toString());
    pb.environment().put("REED_USER", currentUser());
    Process p = pb.start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) throw new AssertionError("credentials helper hung");
      return new Run(p.exitValue(), out);
    } finally {
      p.destroyForcibly();
    }
  }

  private Path stub(String name, String script) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("bin-" + name + "-" + System.nanoTime()));
    Path f = dir.resolve(name);
    Files.writeString(f, script);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwx------"));
    return dir;
  }

  private static String currentUser() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("id", "-un").start();
    String user = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    p.waitFor(10, TimeUnit.SECONDS);
    return user;
  }

  private static boolean onPath(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) return true;
    }
    return false;
  }

  /** Values as main.tf passes them to templatefile for one agent. */
  static Map<String, String> values(String cloud, String secretRef) throws IOException {
    Map<String, String> v = new HashMap<>();
    v.put("agent_id", cloud.equals("aws") ? "eu-dublin" : "eu-paris");
    v.put("region", cloud.equals("aws") ? "eu-west-1" : "europe-west9");
    v.put("location", cloud.equals("aws") ? "53.35,-6.26" : "");
    v.put("jre_package", cloud.equals("aws") ? "java-21-amazon-corretto-headless" : "openjdk-21-jre-headless");
    v.put("kafka_bootstrap", "kafka.example.net:9094");
    v.put("kafka_username", "reed-agent");
    v.put("kafka_ca_certificate_b64", b64("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"));
    v.put("secret_store", cloud);
    v.put("secret_ref", secretRef);
    v.put("credentials_script_b64", b64(Files.readString(MODULE.resolve("templates/reed-kafka-credentials.sh"))));
    v.put("systemd_unit_b64", b64(Files.readString(MODULE.resolve("templates/reed-agent.service"))));
    v.put("distribution_url", "https://downloads.example.net/reed/reed-landmark-agent-0.1.0.tar.gz");
    v.put("distribution_sha256", "a".repeat(64));
    v.put("beacon_port", "27960");
    v.put("beacon_advertise", "203.0.113.7:27960");
    v.put("ws_beacon_port", "27961");
    v.put("ws_advertise", "203.0.113.7:27961");
    v.put("metrics_port", "9465");
    v.put("probe_interval", "5m");
    v.put("probe_rate", "140");
    v.put("do_not_probe", "198.51.100.7/32 198.51.100.64/26");
    v.put("deny_file_b64", b64("# do_not_probe_cidrs: game servers that asked not to be probed\n198.51.100.7/32\n198.51.100.64/26\n"));
    return v;
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> yaml(String text) {
    return (Map<String, Object>) new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> writeFiles(Map<String, Object> config) {
    Map<String, String> files = new LinkedHashMap<>();
    for (Map<String, Object> f : (List<Map<String, Object>>) config.get("write_files")) {
      String content = String.valueOf(f.get("content"));
      if ("b64".equals(f.get("encoding"))) content = new String(Base64.getDecoder().decode(content.strip()), StandardCharsets.UTF_8);
      files.put((String) f.get("path"), content);
    }
    return files;
  }

  private static Properties properties(String text) throws IOException {
    Properties p = new Properties();
    p.load(new StringReader(text));
    return p;
  }

  private static Map<String, List<String>> systemdUnit(String text) {
    Map<String, List<String>> entries = new HashMap<>();
    for (String line : text.split("\n")) {
      line = line.strip();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith("[")) continue;
      int eq = line.indexOf('=');
      entries.computeIfAbsent(line.substring(0, eq), k -> new ArrayList<>()).add(line.substring(eq + 1));
    }
    return entries;
  }

  private static Map<String, Object> producer(Properties props) {
    Map<String, Object> map = new HashMap<>();
    props.forEach((k, v) -> map.put((String) k, v));
    map.put("bootstrap.servers", "kafka.example.net:9094");
    map.put("key.serializer", ByteArraySerializer.class);
    map.put("value.serializer", ByteArraySerializer.class);
    return map;
  }

  private static int indexOf(List<String> commands, String fragment) {
    for (int i = 0; i < commands.size(); i++) if (commands.get(i).contains(fragment)) return i;
    throw new AssertionError("no runcmd containing '" + fragment + "' in " + commands);
  }
}
