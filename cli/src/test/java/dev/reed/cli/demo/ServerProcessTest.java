package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.testbed.emulated.EmulatedServer;
import dev.reed.testbed.world.Noise;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real second JVM serving part of the demo world, as the demo starts one beyond its open-file limit. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServerProcessTest {

  @Test
  void servesItsRangeOfTheSameWorldWithTheWorldsDelayAndStopsWhenClosed(@TempDir Path dir) throws Exception {
    DemoOptions options = new DemoOptions(200, 6, "synthetic", 4, true, 3, 0.0, 0, 500, 2, 0.05, 40, 10, 140, 140,
        dir, null, null, false, Duration.ofSeconds(60), false, false, null, false, false);
    DemoWorld world = DemoWorld.synthetic(200, 6, 3, new Noise(0.0, 0));
    int[] hosts = world.servers();
    ServerProcess process = ServerProcess.start(options, 150, 200, dir.resolve("servers.log"));
    try {
      assertThat(process.servers()).hasSize(50);
      assertThat(process.servers()).extracting(EmulatedServer::host).containsExactlyElementsOf(
          Arrays.stream(hosts, 150, 200).boxed().toList());
      for (EmulatedServer s : process.servers()) {
        assertThat(s.address().getAddress()).isEqualTo(world.world().address(s.host()));
        assertThat(s.info().getName()).isNotEmpty();
      }
      EmulatedServer q3 = process.servers().stream().filter(s -> s.protocol() == GameProtocol.GAME_PROTOCOL_QUAKE3)
          .findFirst().orElseThrow();
      DemoWorld.Site landmark = world.landmarks().getFirst();
      double intended = world.world().rttMs(landmark.host(), q3.host());
      // the minimum of a few probes: a single one may be late on a busy machine, never early
      double best = Double.POSITIVE_INFINITY;
      for (int i = 0; i < 3; i++) best = Math.min(best, getInfoMs(world.address(landmark), q3.address()));
      assertThat(best).isGreaterThanOrEqualTo(intended - 0.05).isLessThan(intended + 50);
    } finally {
      process.close();
    }
    // closing its stdin stopped it: the ports are free again
    try (DatagramChannel again = DatagramChannel.open(StandardProtocolFamily.INET)) {
      again.bind(process.servers().getFirst().address());
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
