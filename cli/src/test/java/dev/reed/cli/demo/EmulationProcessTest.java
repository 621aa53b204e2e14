package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Target;
import dev.reed.testbed.emulated.EmulatedServer;
import dev.reed.testbed.kafka.EmbeddedKafka;
import dev.reed.testbed.world.Noise;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real child JVMs of the demo's emulation: a server-only one serving part of the world, as the demo
 * starts one beyond the first child's open-file limit, and the agents' one (servers, landmark agents
 * and the delay-error meter) against a real broker.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@Tag("integration")
class EmulationProcessTest {
  private static final DemoWorld WORLD = DemoWorld.synthetic(200, 6, 3, new Noise(0.0, 0));

  private static DemoOptions options(Path dir) {
    return new DemoOptions(200, 6, "synthetic", 4, true, 3, 0.0, 0, 500, 2, 0.05, 40, dev.reed.coordinates.discovery.DiscoveryModel.defaults(), 140, 140,
        dir, null, null, false, Duration.ofSeconds(60), false, false, null, false, false);
  }

  @Test
  void servesItsRangeOfTheSameWorldWithTheWorldsDelayAndStopsWhenClosed(@TempDir Path dir) throws Exception {
    int[] hosts = WORLD.servers();
    EmulationProcess process = EmulationProcess.serversOnly(options(dir), 150, 200, dir.resolve("servers.log"));
    try {
      assertThat(process.servers()).hasSize(50);
      assertThat(process.servers()).extracting(EmulatedServer::host).containsExactlyElementsOf(
          Arrays.stream(hosts, 150, 200).boxed().toList());
      for (EmulatedServer s : process.servers()) {
        assertThat(s.address().getAddress()).isEqualTo(WORLD.world().address(s.host()));
        assertThat(s.info().getName()).isNotEmpty();
      }
      EmulatedServer q3 = process.servers().stream().filter(s -> s.protocol() == GameProtocol.GAME_PROTOCOL_QUAKE3)
          .findFirst().orElseThrow();
      DemoWorld.Site landmark = WORLD.landmarks().getFirst();
      double intended = WORLD.world().rttMs(landmark.host(), q3.host());
      // the minimum of a few probes: a single one may be late on a busy machine, never early
      double best = Double.POSITIVE_INFINITY;
      for (int i = 0; i < 3; i++) best = Math.min(best, getInfoMs(WORLD.address(landmark), q3.address()));
      assertThat(best).isGreaterThanOrEqualTo(intended - 0.05).isLessThan(intended + 50);
      // it runs no agents: a command is refused with the child's reason
      assertThatThrownBy(process::round).isInstanceOf(IOException.class).hasMessageContaining("takes no commands");
    } finally {
      process.close();
    }
    // closing its stdin stopped it: the ports are free again
    assertBindable(process.servers().getFirst().address());
  }

  @Test
  void runsTheLandmarkAgentsRoundByRoundAndMetersTheirDelayError(@TempDir Path dir) throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.temporary().start()) {
      EmulationProcess process = EmulationProcess.withLandmarks(options(dir), null, kafka.bootstrapServers(), 200, dir);
      List<EmulationProcess.Landmark> landmarks;
      try {
        assertThat(process.servers()).extracting(EmulatedServer::host).containsExactlyElementsOf(
            Arrays.stream(WORLD.servers()).boxed().toList());
        assertThatThrownBy(process::round).isInstanceOf(IOException.class)
            .hasMessageContaining("'round' failed").hasMessageContaining("no landmark agents running");
        publishTargets(kafka.bootstrapServers(), process.servers());

        EmulationProcess.WarmUp warm = process.warmUp();
        assertThat(warm.probes()).as("every server, %d times", EmulationChild.WARM_UP_PASSES)
            .isEqualTo(200 * EmulationChild.WARM_UP_PASSES);
        assertThat(warm.replies()).as("answered, after the world's delay").isBetween(warm.probes() * 9 / 10, warm.probes());

        landmarks = process.startAgents();
        assertThat(landmarks).extracting(EmulationProcess.Landmark::id)
            .containsExactlyElementsOf(WORLD.landmarks().stream().map(DemoWorld.Site::id).toList());
        for (int i = 0; i < landmarks.size(); i++) {
          assertThat(landmarks.get(i).beacon().getAddress()).isEqualTo(WORLD.address(WORLD.landmarks().get(i)));
          assertThat(landmarks.get(i).wsBeaconUrl()).as("no web face, no WebSocket beacon").isNull();
        }

        List<EmulationProcess.AgentRound> round = process.round();
        assertThat(round).extracting(EmulationProcess.AgentRound::id).containsExactlyElementsOf(
            landmarks.stream().map(EmulationProcess.Landmark::id).toList());
        for (EmulationProcess.AgentRound r : round) {
          assertThat(r.targets()).as("%s probed the catalog", r.id()).isEqualTo(200);
          assertThat(r.replies()).as("%s heard its targets", r.id()).isPositive();
          assertThat(r.replies() + r.timeouts()).isLessThanOrEqualTo(r.targets());
        }

        Path file = dir.resolve("delay.bin");
        EmulationProcess.Delays delays = process.delay(file);
        long replies = round.stream().mapToLong(EmulationProcess.AgentRound::replies).sum();
        assertThat(delays.errorsMs()).as("an error per answered probe").hasSizeGreaterThan((int) (replies * 9 / 10));
        double[] sorted = delays.errorsMs().clone();
        Arrays.sort(sorted);
        // a reply is never early (within the timestamps' resolution), and on time when the machine lets it
        // (how late the rest are depends on the load): a probe compared with another pair's delay would be off either way
        assertThat(sorted[0]).isGreaterThan(-0.5).isLessThan(5);
        assertThat(delays.counters().sent()).isGreaterThanOrEqualTo(replies);
        assertThat(file).doesNotExist();
        assertThat(process.delay(file).errorsMs()).as("nothing new since the last call").isEmpty();
      } finally {
        process.close();
      }
      // closing its stdin stopped the agents and the servers: their ports are free again
      assertBindable(process.servers().getFirst().address());
      assertBindable(landmarks.getFirst().beacon());
    }
  }

  @Test
  void aCommandToADeadChildFailsNamingItsLog(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("servers.log");
    EmulationProcess process = EmulationProcess.serversOnly(options(dir), 0, 20, log);
    try {
      ProcessHandle child = ProcessHandle.current().children().filter(EmulationProcessTest::isEmulationChild).findFirst()
          .orElseThrow();
      child.destroyForcibly();
      child.onExit().get(10, TimeUnit.SECONDS);
      assertThatThrownBy(process::round).isInstanceOf(IOException.class)
          .hasMessageContaining("stopped answering (exit 137)").hasMessageContaining(log.toString());
    } finally {
      process.close();
    }
  }

  private static boolean isEmulationChild(ProcessHandle p) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).contains(EmulationChild.class.getName());
    } catch (IOException gone) {
      return false;
    }
  }

  private static void publishTargets(String bootstrap, List<EmulatedServer> servers) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (EmulatedServer s : servers) {
        Target t = Target.newBuilder().setEndpoint(Endpoints.of(s.address())).setProtocol(s.protocol()).build();
        producer.send(new ProducerRecord<>(Topic.TARGETS.name(), Endpoints.key(s.address()).getBytes(StandardCharsets.UTF_8),
            t.toByteArray()));
      }
    }
  }

  private static void assertBindable(InetSocketAddress address) throws IOException {
    try (DatagramChannel again = DatagramChannel.open(StandardProtocolFamily.INET)) {
      again.bind(address);
    }
  }

  private static double getInfoMs(java.net.InetAddress from, InetSocketAddress server) throws IOException {
    try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(from, 0))) {
      socket.setSoTimeout(5_000);
      byte[] query = Quake3Codec.encodeGetInfo("xyz");
      byte[] reply = new byte[Quake3Codec.MAX_PACKET_SIZE];
      long t0 = System.nanoTime();
      socket.send(new DatagramPacket(query, query.length, server));
      socket.receive(new DatagramPacket(reply, reply.length));
      return (System.nanoTime() - t0) / 1e6;
    }
  }
}
