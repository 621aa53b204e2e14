package dev.reed.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.agent.round.RoundReport;
import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.probe.responder.ReplyDelay;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.kafka.KafkaExtension;
import io.micrometer.core.instrument.Counter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's delivery promise: "stop the broker in the middle of a round, restart it; every sample of the round
 * arrives exactly once", with the real embedded broker. The delivery timeout is short (3 s) so the
 * outage outlasts the producer's own retries and the spool's read-back-then-replay path runs.
 */
@Timeout(240)
@Tag("integration")
class AgentKafkaOutageTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path dir;

  @Test
  void brokerStoppedMidRoundAndRestartedEverySampleArrivesExactlyOnce() throws Exception {
    List<AutoCloseable> servers = new ArrayList<>();
    StringBuilder targets = new StringBuilder();
    try {
      ServerInfo info = ServerInfo.newBuilder().setName("outage").setMap("de_inferno").setGame("cstrike").build();
      for (int i = 0; i < 20; i++) {
        GameQueryResponder r = GameQueryResponder.start(new InetSocketAddress("127.0.0.10", 0), () -> info, ReplyDelay.NONE);
        servers.add(r);
        targets.append("a2s 127.0.0.10:").append(r.localAddress().getPort()).append('\n');
      }
      for (int i = 0; i < 40; i++) { // silent servers: timeout, one retry > 1 s later, then a TIMEOUT sample
        DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.11"), 0));
        servers.add(s::close);
        targets.append("q3 127.0.0.11:").append(s.getLocalPort()).append('\n');
      }
      Path file = dir.resolve("targets.txt");
      Files.writeString(file, targets);
      String kafka = KAFKA.broker().bootstrapServers();
      try (LandmarkAgent agent = LandmarkAgent.start(AgentConfig.builder("lm-outage", kafka).loopback()
          .targetsFile(file).spoolDir(dir.resolve("spool")).rate(20).batchSize(5)
          .deliveryTimeout(Duration.ofSeconds(3)).flushTimeout(Duration.ofSeconds(120)).build())) {
        ExecutorService roundThread = Executors.newSingleThreadExecutor();
        CompletableFuture<RoundReport> round = CompletableFuture.supplyAsync(agent::runRound, roundThread);
        roundThread.shutdown();
        // wait until samples of this round are flowing, then take the broker away
        org.awaitility.Awaitility.await("samples start flowing").atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(20)).until(() -> published(agent) >= 5);
        KAFKA.broker().stop();
        // the outage must outlast the producer's delivery timeout (3 s), or the read-back-then-replay
        // path this test is about never runs: wait until the publisher has failed a batch
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
            .until(() -> agent.meterRegistry().get("reed.agent.publish.failures").counter().count() > 0);
        assertThat(round).as("the round goes on without the broker").isNotDone();
        KAFKA.broker().start();
        RoundReport r = round.get(180, TimeUnit.SECONDS);

        assertThat(r.targets()).isEqualTo(60);
        assertThat(r.replies()).isEqualTo(20);
        assertThat(r.timeouts()).isEqualTo(40);
        assertThat(r.retried()).isEqualTo(40);
        assertThat(r.spooled()).isZero();
        assertThat(r.published()).isEqualTo(1 + 60);
        assertThat(agent.meterRegistry().get("reed.agent.publish.failures").counter().count())
            .as("the outage was seen by the publisher").isPositive();

        Map<String, Integer> perTarget = new HashMap<>();
        Map<String, Integer> perId = new HashMap<>();
        for (TopicDump.Rec rec : TopicDump.read(kafka, Topic.SAMPLES.name())) {
          RttSample s = RttSample.parseFrom(rec.value());
          if (!s.getLandmarkId().equals("lm-outage") || s.getRound() != r.round()) continue;
          perTarget.merge(rec.key(), 1, Integer::sum);
          perId.merge(rec.id(), 1, Integer::sum);
          assertThat(s.getStatus()).isIn(ProbeStatus.PROBE_STATUS_OK, ProbeStatus.PROBE_STATUS_TIMEOUT);
        }
        assertThat(perTarget).hasSize(60);
        assertThat(perTarget.values()).as("exactly once per target").allMatch(n -> n == 1);
        assertThat(perId.values()).allMatch(n -> n == 1);
        System.out.printf("outage round: %s; publish failures %.0f, replay skipped %.0f%n", r,
            agent.meterRegistry().get("reed.agent.publish.failures").counter().count(),
            agent.meterRegistry().get("reed.agent.publish.replay.skipped").counter().count());
      }
    } finally {
      for (AutoCloseable c : servers) c.close();
    }
  }

  private static double published(LandmarkAgent agent) {
    Counter c = agent.meterRegistry().find("reed.agent.records.published").tag("topic", Topic.SAMPLES.name()).counter();
    return c == null ? 0 : c.count();
  }
}
