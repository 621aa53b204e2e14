package dev.reed.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.testbed.kafka.KafkaExtension;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Metrics, health and the round counter, against a real broker. */
@Timeout(120)
@Tag("integration")
class AgentOperationsTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path dir;
  // The tests share the broker, so each one's agents find the others' in reed.landmarks, with beacons that
  // are gone: a round waits out each dead peer's mesh burst (4 probes 1.1 s apart, 4 s). One mesh probe (1 s)
  // where the mesh is not what a test checks.

  static HttpResponse<String> get(int port, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void roundsAreMonotonicAcrossRestartsAndServeMetricsAndHealth() throws Exception {
    int port;
    try (var s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path spool = dir.resolve("spool-restart");
    long first;
    AgentConfig.Builder cfg = AgentConfig.builder("lm-r", KAFKA.broker().bootstrapServers()).loopback()
        .spoolDir(spool).metrics("127.0.0.1", port).deliveryTimeout(Duration.ofSeconds(10)).meshProbes(1);
    try (LandmarkAgent a = LandmarkAgent.start(cfg.build())) {
      first = a.runRound().round();
      HttpResponse<String> metrics = get(port, "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("reed_agent_probes_sent_total", "reed_agent_probes_timeouts_total",
          "reed_agent_probes_malformed_total", "reed_agent_probes_unexpected_total", "reed_agent_spool_bytes",
          "reed_agent_spool_dropped_records_total", "reed_agent_publish_latency_seconds", "reed_agent_rounds_total",
          "reed_agent_records_published_total", "reed_agent_probe_rtt_seconds_bucket");
      HttpResponse<String> health = get(port, "/healthz");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).startsWith("ok: round " + first);
    }
    // a new spool directory (lost disk): the round continues from the landmark's own announcement
    try (LandmarkAgent a = LandmarkAgent.start(cfg.spoolDir(dir.resolve("spool-restart-new")).metrics("127.0.0.1", -1).build())) {
      assertThat(a.runRound().round()).isEqualTo(first + 1);
    }
    try (LandmarkAgent a = LandmarkAgent.start(cfg.spoolDir(spool).build())) {
      assertThat(a.runRound().round()).isEqualTo(first + 2);
    }
  }

  @Test
  void scheduledRoundsRunOnTheirOwnAndCloseIsPrompt() throws Exception {
    LandmarkAgent a = LandmarkAgent.start(AgentConfig.builder("lm-sched", KAFKA.broker().bootstrapServers()).loopback()
        .interval(Duration.ofMillis(1500)).jitter(0.2).spoolDir(dir.resolve("spool-sched")).meshProbes(1).build());
    try {
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> a.lastRound() != null && a.lastRound().round() >= 2);
    } finally {
      long t0 = System.nanoTime();
      a.close();
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
    }
    assertThat(a.health().ok()).isFalse(); // closed: not healthy any more
  }

  @Test
  void onceRunsOneRoundFlushesAndExitsZero() throws Exception {
    Path targets = dir.resolve("once-targets.txt");
    java.nio.file.Files.writeString(targets, "# nothing answers here\nq3 127.0.0.30:9\n");
    Path client = dir.resolve("client.properties");
    java.nio.file.Files.writeString(client, "security.protocol=PLAINTEXT\nclient.dns.lookup=use_all_dns_ips\n");
    java.io.StringWriter out = new java.io.StringWriter();
    int code = new picocli.CommandLine(new AgentCommand()).setOut(new java.io.PrintWriter(out)).execute(
        "--id", "lm-once", "--kafka", KAFKA.broker().bootstrapServers(), "--kafka-config", client.toString(), "--once",
        "--bind", "127.0.0.1", "--beacon", "127.0.0.1:0", "--spool-dir", dir.resolve("spool-once").toString(),
        "--targets", targets.toString());
    assertThat(code).isZero();
    assertThat(out.toString()).contains("round 1: 1 targets, 0 replies", "2 records published, 0 spooled");
  }

  @Test
  void badTargetsFileStopsTheCommandWithTheLineNumber() throws Exception {
    Path targets = dir.resolve("bad-targets.txt");
    java.nio.file.Files.writeString(targets, "q3 127.0.0.1:27960\nq9 127.0.0.1:27961\n");
    java.io.StringWriter err = new java.io.StringWriter();
    int code = new picocli.CommandLine(new AgentCommand()).setErr(new java.io.PrintWriter(err)).execute(
        "--id", "lm-bad", "--kafka", KAFKA.broker().bootstrapServers(), "--once", "--bind", "127.0.0.1",
        "--beacon", "127.0.0.1:0", "--spool-dir", dir.resolve("spool-bad").toString(), "--targets", targets.toString());
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains(targets + ":2: unknown protocol 'q9'");
  }
}
