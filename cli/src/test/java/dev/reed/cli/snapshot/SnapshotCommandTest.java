package dev.reed.cli.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerCoordinateChunk;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.proto.v1.SnapshotHeader;
import dev.reed.proto.v1.SnapshotServiceGrpc;
import dev.reed.proto.v1.StreamSnapshotRequest;
import dev.reed.proto.v1.StreamSnapshotResponse;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ./reed snapshot} against a SnapshotService served over real gRPC on loopback: CSV, JSON
 * lines, gzip by file name, and an unreachable coordinator. The coordinator's own stream is
 * checked in the coordinator's CoordinatorOutputsTest.
 */
class SnapshotCommandTest {
  private static final int SERVERS = 5;

  @TempDir Path dir;
  private Server server;
  private String address;
  /** What the fake announces in the header; a count the stream does not deliver is an error. */
  private int announced = SERVERS;

  @BeforeEach
  void serve() throws Exception {
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SnapshotServiceGrpc.SnapshotServiceImplBase() {
          @Override
          public void streamSnapshot(StreamSnapshotRequest req, StreamObserver<StreamSnapshotResponse> out) {
            out.onNext(StreamSnapshotResponse.newBuilder().setHeader(SnapshotHeader.newBuilder()
                .setDimensions(2).setServerCount(announced)).build());
            // two chunks, as a coordinator sends more than one for a large index
            out.onNext(chunk(0, 3));
            out.onNext(chunk(3, SERVERS));
            out.onCompleted();
          }
        }).build().start();
    address = "127.0.0.1:" + server.getPort();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  private static StreamSnapshotResponse chunk(int from, int to) {
    ServerCoordinateChunk.Builder c = ServerCoordinateChunk.newBuilder();
    IntStream.range(from, to).forEach(i -> c.addServers(ServerCoordinate.newBuilder()
        .setEndpoint(Endpoints.of(new InetSocketAddress("127.0.2." + (i + 1), 27960)))
        .setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3)
        .setServerInfo(ServerInfo.newBuilder().setGame("baseoa"))
        .setCoordinate(Coordinate.newBuilder().addComponents(10 * i).addComponents(-i).setHeightMs(1.5))));
    return StreamSnapshotResponse.newBuilder().setChunk(c).build();
  }

  private static int snapshot(String... args) {
    CommandLine cmd = new CommandLine(new SnapshotCommand());
    cmd.setErr(new PrintWriter(new StringWriter()));
    return cmd.execute(args);
  }

  @Test
  void csvHasAHeaderAndOneRowPerServer() throws Exception {
    Path out = dir.resolve("live.csv");
    assertThat(snapshot("--coordinator", address, "--out", out.toString())).isZero();
    List<String> lines = Files.readAllLines(out);
    assertThat(lines).hasSize(SERVERS + 1);
    assertThat(lines.get(0)).isEqualTo("address,protocol,game,x0,x1,height_ms,relative_error,landmarks_used,age_s,"
        + "integrity,violating_pairs");
    assertThat(lines.get(2)).startsWith("127.0.2.2:27960,q3,baseoa,10.000,-1.000,1.500,");
    assertThat(dir.resolve(".live.csv.tmp")).doesNotExist();
  }

  @Test
  void jsonLinesHoldOneServerEach() throws Exception {
    Path out = dir.resolve("live.jsonl");
    assertThat(snapshot("--coordinator", address, "--out", out.toString(), "--format", "jsonl")).isZero();
    assertThat(Files.readAllLines(out)).hasSize(SERVERS)
        .allMatch(l -> l.startsWith("{") && l.contains("\"coordinate\"") && l.contains("\"endpoint\""));
  }

  @Test
  void aGzNameCompresses() throws Exception {
    Path out = dir.resolve("live.csv.gz");
    assertThat(snapshot("--coordinator", address, "--out", out.toString())).isZero();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(out)),
        StandardCharsets.UTF_8))) {
      assertThat(r.lines()).hasSize(SERVERS + 1);
    }
  }

  @Test
  void aStreamShorterThanItsHeaderFails() {
    announced = SERVERS + 1;
    assertThat(snapshot("--coordinator", address, "--out", dir.resolve("short.csv").toString())).isNotZero();
  }

  @Test
  void anUnreachableCoordinatorExitsWithTwo() {
    assertThat(snapshot("--coordinator", "127.0.0.1:1", "--out", dir.resolve("x").toString(), "--deadline", "3000"))
        .isEqualTo(2);
  }
}
