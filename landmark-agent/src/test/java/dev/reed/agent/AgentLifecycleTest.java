package dev.reed.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.agent.round.RoundReport;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.probe.responder.ReplyDelay;
import dev.reed.testbed.kafka.KafkaExtension;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mesh against a delayed beacon, and shutdown in the middle of a round. The tests share the
 * broker, so each one's agents find the earlier ones' in reed.landmarks, with beacons that are gone:
 * a round waits out each dead peer's mesh burst (4 probes 1.1 s apart, 4 s). The mesh test runs
 * first, among live peers only, and the others send one mesh probe (1 s), as the mesh is not what
 * they check.
 */
@Timeout(120)
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentLifecycleTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path dir;

  @Test
  @Order(1)
  void meshKeepsTheMinimumOfFourProbesOfTheDelayedPeerBeacon() throws Exception {
    String kafka = KAFKA.broker().bootstrapServers();
    Duration beaconDelay = Duration.ofMillis(25);
    try (LandmarkAgent slow = LandmarkAgent.start(AgentConfig.builder("lm-slow", kafka).loopback()
            .bind(new InetSocketAddress("127.0.0.50", 0)).beacon(new InetSocketAddress("127.0.0.50", 0))
            .beaconDelay(from -> beaconDelay).spoolDir(dir.resolve("slow")).build());
        LandmarkAgent fast = LandmarkAgent.start(AgentConfig.builder("lm-fast", kafka).loopback()
            .bind(new InetSocketAddress("127.0.0.51", 0)).beacon(new InetSocketAddress("127.0.0.51", 0))
            .beaconDelay(ReplyDelay.NONE).spoolDir(dir.resolve("fast")).build())) {
      slow.runRound();
      RoundReport r = fast.runRound();
      assertThat(r.mesh()).isEqualTo(1);
      MeshSample m = TopicDump.read(kafka, Topic.MESH_SAMPLES.name()).stream().map(rec -> parse(rec.value()))
          .filter(x -> x.getLandmarkId().equals("lm-fast") && x.getRound() == r.round()).findFirst().orElseThrow();
      assertThat(m.getPeerLandmarkId()).isEqualTo("lm-slow");
      assertThat(m.getStatus()).isEqualTo(ProbeStatus.PROBE_STATUS_OK);
      assertThat(m.getProbesSent()).isEqualTo(4);
      assertThat(m.getProbesAnswered()).isEqualTo(4);
      assertThat(m.getRttUs()).isBetween(25_000, 25_000 + 15_000);
    }
  }

  @Test
  @Order(2)
  void closeInTheMiddleOfARoundAbandonsItCleanlyAndPublishesWhatWasMeasured() throws Exception {
    String kafka = KAFKA.broker().bootstrapServers();
    List<DatagramSocket> silent = new ArrayList<>();
    StringBuilder targets = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.52"), 0));
      silent.add(s);
      targets.append("q3 127.0.0.52:").append(s.getLocalPort()).append('\n');
    }
    Path file = dir.resolve("targets.txt");
    Files.writeString(file, targets);
    ExecutorService roundThread = Executors.newSingleThreadExecutor();
    try {
      LandmarkAgent agent = LandmarkAgent.start(AgentConfig.builder("lm-abandon", kafka).loopback().rate(10)
          .targetsFile(file).spoolDir(dir.resolve("abandon")).meshProbes(1).build());
      CompletableFuture<RoundReport> round = CompletableFuture.supplyAsync(agent::runRound, roundThread);
      // close once 10 targets have timed out (each after a probe and a retry more than a second later),
      // with most of the 100 still to probe at 10/s
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
          .until(() -> timedOut(agent) >= 10);
      agent.close();
      RoundReport r = round.get(30, TimeUnit.SECONDS);
      assertThat(r.abandoned()).isTrue();
      assertThat(r.timeouts()).isBetween(10, 90);
      long samples = TopicDump.read(kafka, Topic.SAMPLES.name()).stream().map(rec -> parseSample(rec.value()))
          .filter(s -> s.getLandmarkId().equals("lm-abandon") && s.getRound() == r.round()).count();
      assertThat(samples).as("every measured sample was published before close returned").isEqualTo(r.timeouts());
    } finally {
      roundThread.shutdownNow();
      silent.forEach(DatagramSocket::close);
    }
  }

  @Test
  @Order(3)
  void aSilentTargetGetsOneProbeAndOneRetryMoreThanASecondLater() throws Exception {
    String kafka = KAFKA.broker().bootstrapServers();
    List<Long> arrivals = java.util.Collections.synchronizedList(new ArrayList<>());
    try (DatagramSocket server = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.53"), 0))) {
      Thread listener = Thread.ofPlatform().daemon().start(() -> {
        byte[] buf = new byte[1500];
        try {
          while (true) {
            server.receive(new java.net.DatagramPacket(buf, buf.length));
            arrivals.add(System.nanoTime());
          }
        } catch (java.io.IOException closed) {
          // socket closed by the test
        }
      });
      Path file = dir.resolve("polite.txt");
      Files.writeString(file, "q3 127.0.0.53:" + server.getLocalPort() + "\na2s 127.0.0.53:" + server.getLocalPort() + "\n");
      try (LandmarkAgent agent = LandmarkAgent.start(AgentConfig.builder("lm-polite", kafka).loopback().targetsFile(file)
          .spoolDir(dir.resolve("polite")).meshProbes(1).build())) {
        RoundReport r = agent.runRound();
        assertThat(r.targets()).isEqualTo(1); // the same endpoint twice is one target
        assertThat(r.timeouts()).isEqualTo(1);
        assertThat(r.retried()).isEqualTo(1);
      }
      server.close();
      listener.join(5_000);
    }
    assertThat(arrivals).hasSize(2);
    assertThat(Duration.ofNanos(arrivals.get(1) - arrivals.get(0))).isGreaterThan(Duration.ofSeconds(1));
  }

  private static MeshSample parse(byte[] v) {
    try {
      return MeshSample.parseFrom(v);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static RttSample parseSample(byte[] v) {
    try {
      return RttSample.parseFrom(v);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static double timedOut(LandmarkAgent agent) {
    io.micrometer.core.instrument.Counter c = agent.meterRegistry().find("reed.agent.samples").tag("status", "timeout").counter();
    return c == null ? 0 : c.count();
  }
}
