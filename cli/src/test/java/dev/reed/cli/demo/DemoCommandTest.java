package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.reed.proto.Endpoints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ./reed demo} end to end, small: a real Kafka broker, the real coordinator, real landmark
 * agents and emulated servers on their own 127.x addresses, and discovery through the real client
 * SDK over real sockets. The figures must say what the REED paper says (far fewer probes, servers
 * about as close as the optimum), the JSON and the plots must be usable, and nothing the demo
 * started may outlive it.
 */
@Tag("integration")
class DemoCommandTest {
  /** First-phase calibration probes with the demo's 4 dimensions and 6 landmarks: D+2 beacons. */
  private static final int SPREAD_BEACONS = 6;
  private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @Test
  void smallDemoGivesThePapersPictureWritesJsonAndPlotsAndStopsEverything(@TempDir Path dir) throws Exception {
    Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
    Path json = dir.resolve("out/demo.json");
    Path markdown = dir.resolve("out/demo.md");
    Path plots = dir.resolve("plots");
    Run run = run("--servers", "600", "--landmarks", "6", "--max-rounds", "2", "--agent-rate", "500",
        "--out", plots.toString(), "--json", json.toString(), "--markdown", markdown.toString());
    System.out.print(run.out);   // the demo's own progress and table, in the surefire report
    assertThat(run.rc).as("exit code; stderr: %s; stdout: %s", run.err, run.out).isZero();

    // progress: one line per phase, then the table
    assertThat(run.out).contains("Kafka broker", "emulated game servers", "coordinator up", "landmark agents up",
        "landmark mesh", "catalog: 600 targets", "round 1:", "REED vs traditional discovery", "REED first",
        "REED intelligent", "REED + reports first", "REED + reports int.", "reports: the coordinator learned", "geo distance first", "geo distance intell.", "reed 0-probe first", "reed 0-probe intell.",
        "traditional", "target (locations)",
        "stopped everything");
    assertThat(run.out).contains("locations: database of ", "the world's location database");

    JsonObject root = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
    assertThat(root.get("servers").getAsInt()).isEqualTo(600);
    assertThat(root.get("landmarks").getAsInt()).isEqualTo(6);
    assertThat(root.getAsJsonArray("rounds")).isNotEmpty();
    JsonArray clients = root.getAsJsonArray("clients");
    assertThat(root.get("geo").getAsString()).startsWith("location database of ");
    assertThat(clients).as("REED first and intelligent, REED + reports, geo distance and zero-probe first and intelligent, "
        + "traditional").hasSize(3 * 9);
    Map<String, Map<String, JsonObject>> byClient = new HashMap<>();
    for (JsonElement e : clients) {
      JsonObject c = e.getAsJsonObject();
      for (String field : List.of("client", "region", "method", "probes", "seconds", "mean_rtt_ms", "median_rtt_ms",
          "optimal_mean_rtt_ms")) {
        assertThat(c.has(field) && !c.get(field).isJsonNull()).as("%s has %s", c, field).isTrue();
      }
      byClient.computeIfAbsent(c.get("client").getAsString(), k -> new HashMap<>()).put(c.get("method").getAsString(), c);
    }
    assertThat(byClient).hasSize(3);
    assertThat(byClient.values().stream().map(m -> m.get("first").get("region").getAsString()))
        .containsExactlyInAnyOrder("EU", "NA", "AS");
    for (Map.Entry<String, Map<String, JsonObject>> e : byClient.entrySet()) {
      String who = e.getKey();
      JsonObject first = e.getValue().get("first");
      JsonObject intelligent = e.getValue().get("intelligent");
      JsonObject traditional = e.getValue().get("traditional");
      double optimal = traditional.get("optimal_mean_rtt_ms").getAsDouble();
      // traditional probes the whole list and so finds the true nearest: its mean is the optimum plus jitter
      assertThat(traditional.get("probes").getAsInt()).as(who).isEqualTo(600);
      assertThat(traditional.get("nearest_found").getAsInt()).as(who).isGreaterThanOrEqualTo(38);
      assertThat(traditional.get("mean_rtt_ms").getAsDouble()).as(who).isCloseTo(optimal, within(0.1 * optimal + 3));
      // the time at 140 probes/s is at least the probe count over 140
      assertThat(traditional.get("seconds").getAsDouble()).as(who).isGreaterThanOrEqualTo(600 / 140.0);
      for (JsonObject reed : List.of(first, intelligent)) {
        assertThat(reed.get("optimal_mean_rtt_ms").getAsDouble()).isEqualTo(optimal);
        assertThat(reed.get("calibration_probes").getAsInt()).as(who).isPositive();
        // the second calibration phase may probe game servers, and their replies count as found; the
        // first phase probes D+2 = 6 landmark beacons, which never do: so at least 40 + 6 probes in all
        assertThat(reed.get("probes").getAsInt()).as(who).isGreaterThanOrEqualTo(40 + SPREAD_BEACONS)
            .isGreaterThan(reed.get("calibration_probes").getAsInt());
        assertThat(reed.get("servers_found").getAsInt()).as(who).isGreaterThanOrEqualTo(40);
        assertThat(reed.get("seconds").getAsDouble()).as(who).isPositive()
            .isLessThan(traditional.get("seconds").getAsDouble());
        assertThat(reed.get("median_rtt_ms").getAsDouble()).as(who).isPositive();
        assertThat(reed.get("mean_rtt_ms").getAsDouble()).as(who).isGreaterThanOrEqualTo(optimal * 0.97);
        assertThat(reed.get("probe_reduction_percent").getAsDouble()).as(who).isPositive();
      }
      // REED needs far fewer probes than the whole list; Intelligent N_close finds servers close to the optimum
      assertThat(first.get("probes").getAsInt()).as(who).isLessThan(240);
      assertThat(intelligent.get("probes").getAsInt()).as(who).isLessThan(450);
      assertThat(intelligent.get("mean_rtt_ms").getAsDouble()).as(who).isLessThan(optimal * 1.3 + 5);
      assertThat(intelligent.get("mean_rtt_ms").getAsDouble()).as(who)
          .isLessThanOrEqualTo(first.get("mean_rtt_ms").getAsDouble() + 1);

      // geo distance (the list by distance from the client's city) and the coordinator's zero-probe ranking
      // (from the city the client states): no calibration, scored by the same stop rules
      for (String order : List.of("geo", "zero")) {
        checkOrderedRows(who, optimal, e.getValue().get(order + "-first"), e.getValue().get(order + "-intelligent"));
      }
      // client reports: a new player in the client's city, after the first round reported: its own address and optimum
      for (String method : List.of("reports-first", "reports-intelligent")) {
        JsonObject row = e.getValue().get(method);
        assertThat(row).as("%s %s", who, method).isNotNull();
        assertThat(row.get("address").getAsString()).as(who).isNotEqualTo(first.get("address").getAsString());
        assertThat(row.get("calibration_probes").getAsInt()).as(who).isPositive();
        assertThat(row.get("servers_found").getAsInt()).as(who).isGreaterThanOrEqualTo(40);
        assertThat(row.get("mean_rtt_ms").getAsDouble()).as(who).isGreaterThanOrEqualTo(row.get("optimal_mean_rtt_ms").getAsDouble() * 0.97);
      }
      for (JsonElement reply : e.getValue().get("zero-first").getAsJsonArray("replies")) {
        assertThat(reply.getAsJsonObject().get("predicted_ms").getAsDouble()).as("%s: the coordinator's prediction", who).isPositive();
      }
    }

    // the locations target per client, from REED first's figures
    JsonObject target = root.getAsJsonObject("target");
    assertThat(target.get("min_nearest_found").getAsInt()).isEqualTo(30);
    assertThat(target.getAsJsonArray("clients")).hasSize(3);
    for (JsonElement e : target.getAsJsonArray("clients")) {
      JsonObject t = e.getAsJsonObject();
      JsonObject first = byClient.get(t.get("client").getAsString()).get("first");
      assertThat(t.get("first_probes").getAsInt()).isEqualTo(first.get("probes").getAsInt());
      assertThat(t.get("first_nearest_found").getAsInt()).isEqualTo(first.get("nearest_found").getAsInt());
      double excess = first.get("mean_rtt_ms").getAsDouble() - first.get("optimal_mean_rtt_ms").getAsDouble();
      assertThat(t.get("first_mean_rtt_above_optimal_ms").getAsDouble()).isCloseTo(excess, within(0.001));
      assertThat(t.get("met").getAsBoolean()).isEqualTo(excess <= 3 && t.get("first_nearest_found").getAsInt() >= 30);
    }

    assertThat(Files.readString(markdown)).contains("| geo distance first |", "| geo distance intell. |", "Target (locations)")
        .containsPattern("\\| client-as \\| [^|]+ \\| [+-]\\d+\\.\\d ms \\| \\d+/40 \\| \\d+ \\| (yes|no) \\|");

    // one valid PNG per client
    try (var files = Files.list(plots)) {
      List<Path> pngs = files.filter(p -> p.toString().endsWith(".png")).sorted().toList();
      assertThat(pngs).hasSize(3);
      for (Path p : pngs) {
        byte[] head = new byte[PNG_MAGIC.length];
        System.arraycopy(Files.readAllBytes(p), 0, head, 0, head.length);
        assertThat(head).as(p.toString()).isEqualTo(PNG_MAGIC);
        BufferedImage img = ImageIO.read(p.toFile());
        assertThat(img.getWidth()).isEqualTo(1000);
        assertThat(img.getHeight()).isEqualTo(560);
      }
    }

    // everything is stopped: the broker's and the coordinator's ports are free, no threads left
    assertThat(portFree(portOf(root.get("kafka").getAsString()))).as("Kafka port free").isTrue();
    assertThat(portFree(portOf(root.get("coordinator").getAsString()))).as("coordinator port free").isTrue();
    assertNoThreadsLeft(before);
  }

  @Test
  void aMissingMatrixFailsClearlyAndStopsWhatWasStarted(@TempDir Path dir) throws Exception {
    Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
    Path missing = dir.resolve("no-such-matrix.csv");
    Run run = run("--servers", "100", "--landmarks", "6", "--world", "matrix:" + missing, "--out", dir.toString());
    assertThat(run.rc).isEqualTo(1);
    assertThat(run.err).contains("reed demo failed").contains(missing.toString());
    assertThat(run.out).contains("Kafka broker", "stopped everything");
    assertNoThreadsLeft(before);
  }

  @Test
  void badOptionsAreUsageErrors(@TempDir Path dir) throws Exception {
    assertThat(run("--world", "mars").rc).isEqualTo(2);
    // N_calib is the --model file's calibrationProbes, as in browse and eval
    Path few = Files.writeString(dir.resolve("few.properties"), "calibrationProbes = 5\n");
    assertThat(run("--model", few.toString()).err).contains("--model: calibrationProbes must be >= dimensions + 2 = 6: 5");
    assertThat(run("--model", dir.resolve("absent.properties").toString()).err).contains("--model", "no such file");
    assertThat(run("--world", "mars").err).contains("--world must be 'synthetic' or 'matrix:PATH'");
    assertThat(run("--landmarks", "5").err).contains("--landmarks");
    assertThat(run("--servers", "10").err).contains("--servers must be 50-50000");
    assertThat(run("--n-close", "0").rc).isEqualTo(2);
  }

  /** Rows of a fixed probe order (geo distance, zero-probe ranking): no calibration, the stop rules as the SDK applies them. */
  private static void checkOrderedRows(String who, double optimal, JsonObject first, JsonObject intelligent) {
    for (JsonObject row : List.of(first, intelligent)) {
      assertThat(row).as("%s ordered rows", who).isNotNull();
      String what = who + " " + row.get("method").getAsString();
      assertThat(row.get("calibration_probes").getAsInt()).as(what).isZero();
      assertThat(row.get("stop_reason").getAsString()).as(what).isEqualTo("stop_rule");
      assertThat(row.get("servers_found").getAsInt()).as(what).isGreaterThanOrEqualTo(40);
      assertThat(row.get("optimal_mean_rtt_ms").getAsDouble()).isEqualTo(optimal);
      assertThat(row.get("mean_rtt_ms").getAsDouble()).as(what).isGreaterThanOrEqualTo(optimal * 0.97);
      assertThat(row.get("mean_rtt_above_optimal_ms").getAsDouble()).as(what)
          .isCloseTo(row.get("mean_rtt_ms").getAsDouble() - optimal, within(0.001));
      assertThat(row.get("nearest_found").getAsInt()).as(what).isBetween(0, 40);
      assertThat(row.getAsJsonArray("replies")).as(what).hasSize(row.get("servers_found").getAsInt());
    }
    // First N_close stops at the 40th reply in probe order: 40 probes plus the few sent while it arrived
    assertThat(first.get("probes").getAsInt()).as(who).isBetween(40, 80);
    // Intelligent N_close (window 20) decides after 20 replies that did not improve a full set
    assertThat(intelligent.get("probes").getAsInt()).as(who).isGreaterThanOrEqualTo(40 + 20)
        .isGreaterThanOrEqualTo(first.get("probes").getAsInt());
    assertThat(intelligent.get("mean_rtt_ms").getAsDouble()).as(who)
        .isLessThanOrEqualTo(first.get("mean_rtt_ms").getAsDouble() + 1);
  }

  private record Run(int rc, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new DemoCommand());
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int rc = cmd.execute(args);
    return new Run(rc, out.toString(), err.toString());
  }

  private static int portOf(String hostPort) {
    return Endpoints.hostPort(hostPort, -1).port();
  }

  private static boolean portFree(int port) throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return true;
    } catch (java.net.BindException e) {
      return false;
    }
  }

  /**
   * Threads started during the demo must end. JVM-wide pools that outlive any one user by design
   * are not the demo's: the common fork-join pool, gRPC's shared executors (they idle out after
   * 60 s), the JDK's process reaper and cleaners, and the tick threads of the Yammer metrics
   * default registry, a static singleton the Kafka broker registers its meters in and never stops.
   */
  private static void assertNoThreadsLeft(Set<Thread> before) throws InterruptedException {
    List<String> shared = List.of("ForkJoinPool.commonPool", "grpc-default-executor", "grpc-shared-destroyer",
        "process reaper", "Common-Cleaner", "Attach Listener", "Java2D Disposer", "AWT-Shutdown",
        "metrics-meter-tick-thread");
    long deadline = System.nanoTime() + 20_000_000_000L;
    List<String> left;
    do {
      left = Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.isAlive() && !before.contains(t))
          .map(Thread::getName)
          .filter(n -> shared.stream().noneMatch(n::startsWith))
          .sorted().toList();
      if (left.isEmpty()) return;
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    assertThat(left).as("threads the demo left running").isEmpty();
  }
}
