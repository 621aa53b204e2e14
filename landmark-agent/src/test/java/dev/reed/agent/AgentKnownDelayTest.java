package dev.reed.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.agent.round.RoundReport;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.testbed.kafka.KafkaExtension;
import dev.reed.testbed.openarena.OpenArenaServer;
import dev.reed.testbed.relay.DelayingUdpRelay;
import dev.reed.testbed.relay.PathDelay;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Known delay: a delaying UDP relay (+40 ms each way) in front of a real OpenArena server; the
 * agent's RTT is within 2 ms of the injected 80 ms.
 *
 * <p>One probe per round (ioquake3's per-IP limit), seven rounds. The machine is shared, and a
 * scheduling stall in the relay or the server can only add delay, never remove it; so, as the
 * paper keeps the minimum of repeated probes as the sample least influenced by transient
 * congestion (section 5.1.1), the test requires the minimum to be within 2 ms of 80 ms and no
 * sample below 78 ms. A biased or broken clocking in the agent fails either bound.
 */
@Timeout(120)
@Tag("integration")
class AgentKnownDelayTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path dir;

  @Test
  void rttThroughARelayWithKnownDelayIsWithin2ms() throws Exception {
    assumeTrue(OpenArenaServer.isInstalled(), "openarena-server is not installed (apt-get install openarena-server)");
    Duration oneWay = Duration.ofMillis(40);
    try (OpenArenaServer server = OpenArenaServer.start(OpenArenaServer.Options.defaults().withHostname("reed delayed"));
        DelayingUdpRelay relay = DelayingUdpRelay.start(new InetSocketAddress("127.0.0.5", 0), server.address(),
            PathDelay.fixed(oneWay))) {
      String target = Endpoints.key(relay.address());
      Path targets = dir.resolve("targets.txt");
      Files.writeString(targets, "q3 " + target + "\n");
      List<Long> rtts = new ArrayList<>();
      try (LandmarkAgent a = LandmarkAgent.start(AgentConfig.builder("lm-delay", KAFKA.broker().bootstrapServers())
          .loopback().bind(new InetSocketAddress("127.0.0.6", 0)).beacon(new InetSocketAddress("127.0.0.6", 0))
          .targetsFile(targets).spoolDir(dir.resolve("spool")).build())) {
        for (int i = 0; i < 7; i++) {
          RoundReport r = a.runRound();
          assertThat(r.replies()).isEqualTo(1);
          RttSample s = TopicDump.read(KAFKA.broker().bootstrapServers(), Topic.SAMPLES.name()).stream()
              .map(rec -> parse(rec.value()))
              .filter(x -> x.getRound() == r.round() && Endpoints.key(x.getTarget()).equals(target))
              .findFirst().orElseThrow();
          assertThat(s.getStatus()).isEqualTo(ProbeStatus.PROBE_STATUS_OK);
          rtts.add((long) s.getRttUs());
        }
      }
      List<Long> sorted = rtts.stream().sorted().toList();
      System.out.printf("known delay: injected 2 x %d ms; measured RTTs %s us, min %d us, median %d us (loadavg %s)%n",
          oneWay.toMillis(), rtts, sorted.getFirst(), sorted.get(sorted.size() / 2),
          Files.readString(Path.of("/proc/loadavg")).strip());
      assertThat(sorted.getFirst()).isBetween(80_000L - 2_000, 80_000L + 2_000);
    }
  }

  private static RttSample parse(byte[] v) {
    try {
      return RttSample.parseFrom(v);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
