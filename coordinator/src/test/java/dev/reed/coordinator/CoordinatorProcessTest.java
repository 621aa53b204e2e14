package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.testbed.kafka.KafkaExtension;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./reed coordinator} as its own process, killed with SIGKILL (no clean shutdown, no offset
 * commit, no group leave) and started again: it serves the same coordinates within seconds.
 */
@Tag("integration")
class CoordinatorProcessTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path dir;
  Path log;

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  Process start(String bootstrap, int grpcPort) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path")));
    if (Runtime.version().feature() >= 24) cmd.add(1, "--sun-misc-unsafe-memory-access=allow");
    cmd.addAll(List.of(CoordinatorCommand.class.getName(), "--kafka", bootstrap, "--bind", "127.0.0.1",
        "--grpc-port", Integer.toString(grpcPort), "--q3-master-port", "-1", "--valve-master-port", "-1", "--dimensions", "2",
        "--round-interval", "300ms", "--leader-election", "standalone"));
    log = dir.resolve("coordinator-" + System.nanoTime() + ".log");
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  static String tail(Path log) throws java.io.IOException {
    List<String> lines = java.nio.file.Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  static GetOrderedServersResponse query(ManagedChannel ch) {
    return ReedServiceGrpc.newBlockingStub(ch).withDeadlineAfter(2, TimeUnit.SECONDS).getOrderedServers(
        GetOrderedServersRequest.newBuilder().setClient(Coordinate.newBuilder().addComponents(120).addComponents(80))
            .setPageSize(50).build());
  }

  /**
   * Polls until the coordinator answers with all servers, each positioned from every published round
   * (an answer from before the last round would not be the state a restart comes back with); returns it.
   */
  static GetOrderedServersResponse awaitServing(ManagedChannel ch, int servers, int rounds, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        GetOrderedServersResponse r = query(ch);
        if (r.getServersCount() == servers && r.getServersList().stream().allMatch(s -> s.getStability().getRounds() == rounds)) {
          return r;
        }
      } catch (StatusRuntimeException e) {
        // not up yet
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("coordinator not serving " + servers + " servers of " + rounds + " rounds after " + timeout);
      }
      Thread.sleep(100);
    }
  }

  @Test
  void killedWithSigkillAndRestartedItServesTheSameCoordinates() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    SyntheticWorld world = new SyntheticWorld(25);
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap)) {
      world.announce(p, 1);
      p.flush();
      for (int r = 1; r <= 3; r++) world.round(p, r);
    }
    int port = freePort();
    ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    Process first = start(bootstrap, port);
    Process second = null;
    try {
      List<RankedServer> before = awaitServing(ch, 25, 3, Duration.ofSeconds(90)).getServersList();
      first.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL
      assertThat(first.isAlive()).isFalse();
      long t0 = System.nanoTime();
      second = start(bootstrap, port);
      List<RankedServer> after = awaitServing(ch, 25, 3, Duration.ofSeconds(90)).getServersList();
      double seconds = (System.nanoTime() - t0) / 1e9;
      // how long is printed, not asserted: most of it is a new JVM starting, 3 s on a quiet machine and
      // 18 s beside two CPU hogs; restart time is measured at scale by ./reed scale (restart to serving)
      // the same coordinates, in the same order. The restored answer is the killed process's own, but on
      // a loaded machine the first answer the test gets can come after the new process's first round:
      // re-fitted from the replayed windows (the same point within a microsecond, 1.2e-6 ms apart seen),
      // its stability and integrity figures its own
      assertThat(after).extracting(s -> Endpoints.key(s.getEndpoint()))
          .containsExactlyElementsOf(before.stream().map(s -> Endpoints.key(s.getEndpoint())).toList());
      for (int i = 0; i < before.size(); i++) {
        assertThat(after.get(i).getPredictedRttUs()).isCloseTo(before.get(i).getPredictedRttUs(), within(1));
        List<Double> was = before.get(i).getCoordinate().getComponentsList();
        List<Double> is = after.get(i).getCoordinate().getComponentsList();
        assertThat(is).hasSameSizeAs(was);
        for (int d = 0; d < was.size(); d++) assertThat(is.get(d)).isCloseTo(was.get(d), within(1e-3));
      }
      System.out.printf("restarted coordinator process served again %.1f s after start%n", seconds);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n--- coordinator log ---\n" + tail(log), e);
    } finally {
      ch.shutdownNow();
      first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      if (second != null) {
        second.destroy(); // SIGTERM: the shutdown hook closes it cleanly
        if (!second.waitFor(20, TimeUnit.SECONDS)) second.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
