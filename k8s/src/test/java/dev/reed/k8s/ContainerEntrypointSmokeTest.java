package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reed.testbed.kafka.KafkaExtension;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a container would run, run here without a container engine: the images' ENTRYPOINT (JVM
 * flags, {@code -jar reed-coordinator.jar} / {@code -jar reed-landmark-agent.jar}, each with only
 * its own {@code lib/}, exactly the jar set the image copies) with the images' ENV and the
 * Kubernetes ConfigMap's variables, against a real Kafka broker (embedded in this JVM); then the
 * images' HEALTHCHECK command, verbatim, must succeed against the running service. Ports and
 * directories are moved to free loopback ports and temporary directories; Kafka is plaintext, so
 * the TLS client settings (KafkaClientPropertiesTest) are left out.
 * Needs the service's jar set ({@code <module>/target/reed-<module>.jar} + {@code lib/}, built by
 * the reactor's package phase before this module); skips without it.
 */
@Tag("integration")
class ContainerEntrypointSmokeTest {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final String IMAGE_DIR = "/opt/reed/";

  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path tmp;
  private final List<Started> processes = new ArrayList<>();

  /** A process this test started and the file its output goes to. */
  private record Started(Process process, Path log) {}
  private String kafka;

  @BeforeEach
  void kafka() {
    kafka = KAFKA.broker().bootstrapServers();
  }

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Started s : processes.reversed()) {
      Process p = s.process();
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void coordinatorImageStartsAndPassesItsHealthCheck() throws Exception {
    Image image = image("coordinator", "base/coordinator/configmap.yaml", "reed-coordinator");
    Map<String, String> env = image.env();
    env.remove("REED_COORDINATOR_KAFKA_CONFIG");
    env.put("REED_COORDINATOR_KAFKA", kafka);
    env.put("REED_COORDINATOR_BIND", "127.0.0.1");
    env.put("REED_COORDINATOR_GRPC_PORT", Integer.toString(freeTcpPort()));
    env.put("REED_COORDINATOR_METRICS_PORT", Integer.toString(freeTcpPort()));
    env.put("REED_COORDINATOR_Q3_MASTER_PORT", Integer.toString(freeUdpPort()));
    env.put("REED_COORDINATOR_VALVE_MASTER_PORT", Integer.toString(freeUdpPort()));
    env.put("REED_COORDINATOR_SNAPSHOT_DIR", Files.createDirectories(tmp.resolve("snapshots")).toString());
    env.put("REED_COORDINATOR_INDEX_CHECKPOINT", tmp.resolve("index/index.checkpoint").toString());
    env.put("REED_COORDINATOR_LEADER_ELECTION", "standalone");
    String http = "http://127.0.0.1:" + freeTcpPort();
    env.put("REED_COORDINATOR_HTTP", http.substring("http://".length()));
    Started started = startsAndPassesItsHealthCheck(image, "coordinator");

    // The HTTP face runs on the image's jar set: Armeria, the proto3 JSON mapping and the web page
    // (module web, a classpath folder) are all in the coordinator's lib/.
    HttpClient client = HttpClient.newHttpClient();
    awaitTrue(() -> status(client, HttpRequest.newBuilder(URI.create(http + "/"))) == 200, started, "coordinator web page at /");
    HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create(http + "/")).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(page.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    HttpResponse<String> landmarks = client.send(HttpRequest.newBuilder(URI.create(http + "/reed.v1.SnapshotService/ListLandmarks"))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(landmarks.statusCode()).as("HTTP/JSON ListLandmarks: %s", landmarks.body()).isEqualTo(200);
    assertThat(landmarks.body()).startsWith("{");
  }

  @Test
  void agentImageStartsAndPassesItsHealthCheck() throws Exception {
    Image image = image("landmark-agent", "components/landmark-agents/configmap.yaml", "reed-landmark-agent");
    Map<String, String> env = image.env();
    env.remove("REED_AGENT_KAFKA_CONFIG");
    env.put("REED_AGENT_ID", "smoke-test-agent");
    env.put("REED_AGENT_KAFKA", kafka);
    env.put("REED_AGENT_BIND", "127.0.0.1");
    env.put("REED_AGENT_BEACON", "127.0.0.1:" + freeUdpPort());
    env.put("REED_AGENT_METRICS_HOST", "127.0.0.1");
    env.put("REED_AGENT_METRICS_PORT", Integer.toString(freeTcpPort()));
    env.put("REED_AGENT_SPOOL_DIR", tmp.resolve("spool").toString());
    URI wsBeacon = URI.create("ws://127.0.0.1:" + freeTcpPort() + "/");
    env.put("REED_AGENT_WS_BEACON", wsBeacon.getHost() + ":" + wsBeacon.getPort());
    Started started = startsAndPassesItsHealthCheck(image, "agent");

    // The WebSocket beacon runs on the image's jar set (Armeria in the agent's lib/) and echoes.
    HttpClient client = HttpClient.newHttpClient();
    CompletableFuture<String> echoed = new CompletableFuture<>();
    WebSocket.Listener listener = new WebSocket.Listener() {
      @Override
      public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
        echoed.complete(data.toString());
        return null;
      }
    };
    WebSocket[] socket = new WebSocket[1];
    awaitTrue(() -> {
      try {
        socket[0] = client.newWebSocketBuilder().buildAsync(wsBeacon, listener).get(10, TimeUnit.SECONDS);
        return true;
      } catch (ExecutionException e) {
        return false;
      }
    }, started, "agent WebSocket beacon at " + wsBeacon);
    socket[0].sendText("p:1:1764000000000", true);
    assertThat(echoed.get(10, TimeUnit.SECONDS)).isEqualTo("p:1:1764000000000");
    socket[0].sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
  }

  /** An image's runtime stage, its ENTRYPOINT on this machine, and its ENV with the cluster's ConfigMap over it. */
  private record Image(Dockerfile.Stage stage, List<String> entrypoint, Map<String, String> env) {}

  private Image image(String module, String configMapFile, String configMapName) throws IOException {
    Dockerfile.Stage stage = Dockerfile.parse(Checkout.docker().resolve(module + ".Dockerfile")).runtime();
    List<String> entrypoint = entrypoint(stage, module);
    Map<String, String> env = imageEnv(stage);
    env.putAll(configMap(configMapFile, configMapName));
    return new Image(stage, entrypoint, env);
  }

  /** Starts the image's entry point with its environment; its HEALTHCHECK, run verbatim, must pass. */
  private Started startsAndPassesItsHealthCheck(Image image, String name) throws Exception {
    Started started = start(image.entrypoint(), image.env(), name);
    List<String> healthcheck = healthcheck(image.stage());
    awaitTrue(() -> run(healthcheck, image.env()) == 0, started, name + " HEALTHCHECK " + healthcheck);
    assertThat(started.process().isAlive()).isTrue();
    return started;
  }

  /** The status of a GET, or -1 while nothing listens yet. */
  private static int status(HttpClient client, HttpRequest.Builder request) throws InterruptedException {
    try {
      return client.send(request.timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * ENTRYPOINT with this machine's java and the module's built jar in place of the image's
   * /opt/reed one (its manifest Class-Path reaches the sibling lib/, as in the image); skips the
   * test when the module is not packaged.
   */
  private List<String> entrypoint(Dockerfile.Stage image, String module) throws IOException {
    List<String> cmd = new ArrayList<>(new ObjectMapper().readValue(String.join("", image.args("ENTRYPOINT")),
        new TypeReference<List<String>>() {}));
    String imageJar = cmd.get(cmd.indexOf("-jar") + 1);
    Path jar = Checkout.root().resolve(module).resolve("target").resolve(imageJar.substring(IMAGE_DIR.length()));
    assumeTrue(Files.isRegularFile(jar) && Files.isDirectory(jar.resolveSibling("lib")), "the " + module
        + " jar set is not built (" + jar + " + lib/; ./mvnw -B -q -Dmaven.test.skip=true -pl " + module
        + " -am package): skipping its entrypoint smoke test");
    cmd.set(0, java());
    cmd.replaceAll(a -> a.equals(imageJar) ? jar.toString() : a.equals("-Djava.io.tmpdir=/tmp")
        ? "-Djava.io.tmpdir=" + tmp : a);
    return cmd;
  }

  private static List<String> healthcheck(Dockerfile.Stage image) throws IOException {
    String args = image.args("HEALTHCHECK").get(0);
    return new ObjectMapper().readValue(args.substring(args.indexOf("CMD [") + 4), new TypeReference<List<String>>() {});
  }

  private static Map<String, String> imageEnv(Dockerfile.Stage image) {
    Map<String, String> env = new HashMap<>(image.env());
    // a small heap for the shared test machine: the image's own JVM options (collector, pre-touch)
    // with 256 MB in place of its heap, or a small serial-collected heap when it sets none
    String options = env.get("JDK_JAVA_OPTIONS");
    if (options != null) env.put("JDK_JAVA_OPTIONS", options.replaceAll("-Xm([sx])\\S+", "-Xm$1256m"));
    else env.put("JAVA_TOOL_OPTIONS", "-Xmx256m -XX:+UseSerialGC");
    return env;
  }

  private static Map<String, String> configMap(String file, String name) throws IOException {
    Map<String, String> env = new HashMap<>();
    ManifestSet.read(Checkout.k8s().resolve(file)).one("ConfigMap", name).map("data")
        .forEach((k, v) -> env.put(k, String.valueOf(v)));
    return env;
  }

  private Started start(List<String> cmd, Map<String, String> env, String name) throws IOException {
    Path log = tmp.resolve(name + ".log");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().putAll(env);
    Started s = new Started(pb.start(), log);
    processes.add(s);
    return s;
  }

  private int run(List<String> cmd, Map<String, String> env) {
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().putAll(env);
      Process p = pb.start();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private interface Check {
    boolean ok() throws Exception;
  }

  /** Polls an external process's readiness (it runs on its own clock) until the timeout. */
  private static void awaitTrue(Check check, Started started, String what) throws Exception {
    Process process = started.process();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (check.ok()) return;
      if (!process.isAlive()) break;
      process.waitFor(500, TimeUnit.MILLISECONDS);
    }
    List<String> lines = Files.readAllLines(started.log());
    throw new AssertionError(what + " not ready within " + START_TIMEOUT.toSeconds() + " s (process "
        + (process.isAlive() ? "running" : "exited " + process.exitValue()) + "); last log lines:\n"
        + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static int freeTcpPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static int freeUdpPort() throws IOException {
    try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      return s.getLocalPort();
    }
  }
}
