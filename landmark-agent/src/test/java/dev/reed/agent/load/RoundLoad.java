package dev.reed.agent.load;

import dev.reed.agent.AgentConfig;
import dev.reed.agent.LandmarkAgent;
import dev.reed.agent.round.RoundReport;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Request;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.kafka.EmbeddedKafka;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Load generator for the agent's round: N emulated Quake3 servers (one socket each, all served by
 * one selector thread), an embedded broker, one agent probing them all at a given rate. Prints
 * round duration, the round's records per second through spool and producer, and publish latency.
 *
 * <pre>
 * ./mvnw -B -q -pl landmark-agent test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.reed.agent.load.RoundLoad -Dexec.args="5000 2000 3"
 * </pre>
 *
 * Arguments: targets (default 5000), probes/s (default 2000), rounds (default 3).
 */
public final class RoundLoad {
  private RoundLoad() {}

  public static void main(String[] args) throws Exception {
    int targets = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    double rate = args.length > 1 ? Double.parseDouble(args[1]) : 2000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path dir = Files.createTempDirectory("reed-round-load");
    try (EmbeddedKafka kafka = EmbeddedKafka.temporary().start();
        Servers servers = new Servers(targets)) {
      StringBuilder file = new StringBuilder();
      for (InetSocketAddress a : servers.addresses) {
        file.append("q3 ").append(a.getAddress().getHostAddress()).append(':').append(a.getPort()).append('\n');
      }
      Path targetsFile = dir.resolve("targets.txt");
      Files.writeString(targetsFile, file);
      try (LandmarkAgent agent = LandmarkAgent.start(AgentConfig.builder("lm-load", kafka.bootstrapServers()).loopback()
          .rate(rate).targetsFile(targetsFile).spoolDir(dir.resolve("spool")).flushTimeout(Duration.ofMinutes(2)).build())) {
        for (int i = 0; i < rounds; i++) {
          RoundReport r = agent.runRound();
          double secs = r.duration().toNanos() / 1e9;
          System.out.printf("round %d: %d targets at %.0f/s: %.2f s (ideal %.2f s), %d replies, %d timeouts, "
                  + "%d published, %d spooled, %.0f records/s%n", r.round(), r.targets(), rate, secs, targets / rate,
              r.replies(), r.timeouts(), r.published(), r.spooled(), r.published() / secs);
        }
        Timer latency = agent.meterRegistry().get("reed.agent.publish.latency").timer();
        var snapshot = latency.takeSnapshot();
        System.out.printf("publish latency per batch of 500: mean %.1f ms, max %.1f ms over %d batches; answered %d queries%n",
            latency.mean(TimeUnit.MILLISECONDS), latency.max(TimeUnit.MILLISECONDS), snapshot.count(), servers.answered);
        System.out.printf("loadavg %s%n", Files.readString(Path.of("/proc/loadavg")).strip());
      }
    }
  }

  /** Many emulated Quake3 servers on 127.0.0.0/8, one selector thread. */
  static final class Servers implements AutoCloseable {
    final List<InetSocketAddress> addresses = new ArrayList<>();
    final Selector selector;
    final Thread thread;
    volatile long answered;

    Servers(int n) throws IOException {
      selector = Selector.open();
      for (int i = 0; i < n; i++) {
        DatagramChannel ch = DatagramChannel.open();
        ch.bind(new InetSocketAddress("127.0.1." + (i / 10_000 + 1), 0));
        ch.configureBlocking(false);
        ch.register(selector, SelectionKey.OP_READ);
        addresses.add((InetSocketAddress) ch.getLocalAddress());
      }
      thread = Thread.ofPlatform().daemon().name("load-servers").start(this::serve);
    }

    private void serve() {
      ServerInfo info = ServerInfo.newBuilder().setName("load").setMap("oa_dm1").setGame("baseoa").setVersion("71")
          .setMaxPlayers(16).build();
      ByteBuffer buf = ByteBuffer.allocate(2048);
      try {
        while (selector.isOpen()) {
          selector.select(200);
          for (SelectionKey key : selector.selectedKeys()) {
            DatagramChannel ch = (DatagramChannel) key.channel();
            buf.clear();
            var from = ch.receive(buf);
            if (from == null) continue;
            buf.flip();
            try {
              Quake3Request q = Quake3Codec.decodeRequest(buf);
              ch.send(ByteBuffer.wrap(Quake3Codec.encodeInfoResponse(info, q.challenge())), from);
              answered++;
            } catch (RuntimeException malformed) {
              // not a query: ignore, as a server does
            }
          }
          selector.selectedKeys().clear();
        }
      } catch (IOException | java.nio.channels.ClosedSelectorException e) {
        // closed
      }
    }

    @Override
    public void close() throws IOException {
      for (SelectionKey k : selector.keys()) k.channel().close();
      selector.close();
    }
  }
}
