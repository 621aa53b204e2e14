package dev.reed.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.agent.round.RoundReport;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Request;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.kafka.KafkaExtension;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed, truncated, oversized and spoofed replies from fake servers (real UDP sockets) are
 * counted and ignored; the probe still succeeds when a valid reply follows, and the agent keeps
 * going round after round.
 */
@Timeout(120)
@Tag("integration")
class AgentHostileRepliesTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path dir;

  /** Answers every getinfo with junk first; with {@code thenValid}, a correct reply last. */
  static final class HostileServer implements AutoCloseable {
    final DatagramSocket socket;
    final DatagramSocket spoofer;
    final boolean thenValid;
    final AtomicInteger queries = new AtomicInteger();
    final Thread thread;

    HostileServer(String ip, boolean thenValid) throws IOException {
      this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(ip), 0));
      this.spoofer = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0.21"), 0));
      this.thenValid = thenValid;
      this.thread = Thread.ofPlatform().daemon().name("hostile-" + socket.getLocalPort()).start(this::serve);
    }

    InetSocketAddress address() {
      return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    private void serve() {
      byte[] buf = new byte[2048];
      SplittableRandom rng = new SplittableRandom(7);
      ServerInfo info = ServerInfo.newBuilder().setName("hostile").setMap("q3dm17").setGame("baseoa").setVersion("71")
          .setMaxPlayers(8).build();
      try {
        while (true) {
          DatagramPacket p = new DatagramPacket(buf, buf.length);
          socket.receive(p);
          Quake3Request q = Quake3Codec.decodeRequest(ByteBuffer.wrap(p.getData(), 0, p.getLength()));
          queries.incrementAndGet();
          byte[] valid = Quake3Codec.encodeInfoResponse(info, q.challenge());
          byte[] garbage = new byte[64];
          rng.nextBytes(garbage);
          byte[] oversized = new byte[20_000];
          System.arraycopy(valid, 0, oversized, 0, valid.length);
          Arrays.fill(oversized, valid.length, oversized.length, (byte) 'x');
          send(socket, Arrays.copyOf(valid, 12), p);                                          // truncated
          send(socket, garbage, p);                                                           // garbage
          send(socket, oversized, p);                                                         // oversized
          send(socket, Quake3Codec.encodeInfoResponse(info, "WRONGCHALLENGE"), p);            // stale / guessed challenge
          send(spoofer, valid, p);                                                            // spoofed source
          if (thenValid) send(socket, valid, p);
        }
      } catch (SocketException closed) {
        // closed by the test
      } catch (IOException | RuntimeException e) {
        throw new IllegalStateException(e);
      }
    }

    private static void send(DatagramSocket s, byte[] data, DatagramPacket to) throws IOException {
      s.send(new DatagramPacket(data, data.length, to.getSocketAddress()));
    }

    @Override
    public void close() {
      socket.close();
      spoofer.close();
    }
  }

  @Test
  void junkIsCountedAndIgnoredAndTheAgentKeepsGoing() throws Exception {
    try (HostileServer lastValid = new HostileServer("127.0.0.20", true);
        HostileServer onlyJunk = new HostileServer("127.0.0.22", false)) {
      Path targets = dir.resolve("targets.txt");
      Files.writeString(targets, "q3 127.0.0.20:" + lastValid.address().getPort() + "\n"
          + "q3 127.0.0.22:" + onlyJunk.address().getPort() + "\n");
      String kafka = KAFKA.broker().bootstrapServers();
      try (LandmarkAgent agent = LandmarkAgent.start(AgentConfig.builder("lm-hostile", kafka).loopback()
          .targetsFile(targets).spoolDir(dir.resolve("spool")).deliveryTimeout(Duration.ofSeconds(10)).build())) {
        RoundReport first = agent.runRound();
        RoundReport second = agent.runRound();
        for (RoundReport r : new RoundReport[] {first, second}) {
          assertThat(r.targets()).isEqualTo(2);
          assertThat(r.replies()).isEqualTo(1);
          assertThat(r.timeouts() + r.errors()).isEqualTo(1);
          assertThat(r.spooled()).isZero();
        }
        var m = agent.meterRegistry();
        double malformed = m.get("reed.agent.probes.malformed").functionCounter().count();
        double unexpected = m.get("reed.agent.probes.unexpected").functionCounter().count();
        System.out.printf("hostile: %d + %d queries answered with junk; malformed %.0f, unexpected %.0f%n",
            lastValid.queries.get(), onlyJunk.queries.get(), malformed, unexpected);
        // per query: truncated, garbage and oversized are malformed; the wrong challenge and the
        // spoofed source are unexpected (at least for the queries answered before the probe ended)
        assertThat(malformed).isGreaterThanOrEqualTo(2 * 2);
        assertThat(unexpected).isGreaterThanOrEqualTo(2);

        Map<String, RttSample> samples = new HashMap<>();
        for (TopicDump.Rec rec : TopicDump.read(kafka, Topic.SAMPLES.name())) {
          RttSample s = RttSample.parseFrom(rec.value());
          if (s.getRound() == second.round()) samples.put(rec.key(), s);
        }
        RttSample ok = samples.get("127.0.0.20:" + lastValid.address().getPort());
        assertThat(ok.getStatus()).isEqualTo(ProbeStatus.PROBE_STATUS_OK);
        assertThat(ok.getServerInfo().getName()).isEqualTo("hostile");
        RttSample bad = samples.get("127.0.0.22:" + onlyJunk.address().getPort());
        assertThat(bad.getStatus()).isIn(ProbeStatus.PROBE_STATUS_TIMEOUT, ProbeStatus.PROBE_STATUS_ERROR);
        assertThat(bad.hasServerInfo()).isFalse();
      }
    }
  }
}
