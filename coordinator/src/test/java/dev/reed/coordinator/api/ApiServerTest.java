package dev.reed.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.ReedServiceGrpc;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real Netty endpoint: plaintext with buf curl through reflection, TLS with a self-signed certificate, API keys. */
@Tag("integration")
class ApiServerTest {
  @TempDir Path dir;

  static ApiServer start(Path cert, Path key, ApiKeys keys) throws IOException {
    ServingState state = ReedServiceTest.world(new HashMap<>());
    return ApiServer.start(new InetSocketAddress("127.0.0.1", 0), cert, key, keys, List.of(
        new ReedServiceImpl(ReedServiceImpl.Dependencies.of(() -> state, new CoordinateConfig(2, false), Clock.systemUTC())),
        new SnapshotServiceImpl(() -> state)));
  }

  static String run(List<String> cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", cmd).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  static boolean onPath(String tool) {
    for (String d : System.getenv("PATH").split(":")) if (Files.isExecutable(Path.of(d, tool))) return true;
    return false;
  }

  @Test
  void bufCurlCallsTheServiceThroughReflection() throws Exception {
    assumeTrue(onPath("buf"), "buf is not installed (npm install -g @bufbuild/buf)");
    try (ApiServer api = start(null, null, null)) {
      api.serving(true);
      String url = "http://127.0.0.1:" + api.address().getPort();
      String out = run(List.of("buf", "curl", "--protocol", "grpc", "--http2-prior-knowledge", "--reflect",
          "-d", "{\"client\":{\"components\":[150,150]},\"page_size\":3}", url + "/reed.v1.ReedService/GetOrderedServers"));
      assertThat(out).contains("\"totalMatching\": 400").contains("predictedRttUs").contains("nextPageToken");
      String bad = new String(new ProcessBuilder("buf", "curl", "--protocol", "grpc", "--http2-prior-knowledge", "--reflect",
          "-d", "{\"client\":{\"components\":[1,2,3]}}", url + "/reed.v1.ReedService/GetOrderedServers")
          .redirectErrorStream(true).start().getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(bad).contains("invalid_argument").contains("3 components, this deployment uses 2 dimensions");
      String list = run(List.of("buf", "curl", "--protocol", "grpc", "--http2-prior-knowledge", "--list-methods", url));
      assertThat(list).contains("reed.v1.ReedService/GetCalibrationServers").contains("reed.v1.SnapshotService/StreamSnapshot");
    }
  }

  @Test
  void streamOrderedServersDeliversEveryPageOverNettyAndStopsOnCancel() throws Exception {
    try (ApiServer api = start(null, null, null)) {
      ManagedChannel ch = Grpc.newChannelBuilder("127.0.0.1:" + api.address().getPort(), InsecureChannelCredentials.create()).build();
      try {
        var stub = ReedServiceGrpc.newBlockingStub(ch).withDeadlineAfter(20, TimeUnit.SECONDS);
        var it = stub.streamOrderedServers(dev.reed.proto.v1.StreamOrderedServersRequest.newBuilder()
            .setClient(ReedServiceTest.coord(150, 150)).setPageSize(7).build());
        int n = 0;
        int messages = 0;
        long last = -1;
        while (it.hasNext()) {
          var m = it.next();
          messages++;
          for (var s : m.getServersList()) {
            assertThat((long) s.getPredictedRttUs()).isGreaterThanOrEqualTo(last);
            last = s.getPredictedRttUs();
            n++;
          }
          Thread.sleep(1); // a slow reader: the server waits for the transport to be ready
        }
        assertThat(n).isEqualTo(400);
        assertThat(messages).isEqualTo(58);
        io.grpc.Context.CancellableContext ctx = io.grpc.Context.current().withCancellation();
        ctx.run(() -> {
          var partial = ReedServiceGrpc.newBlockingStub(ch).streamOrderedServers(dev.reed.proto.v1.StreamOrderedServersRequest
              .newBuilder().setClient(ReedServiceTest.coord(1, 1)).setPageSize(1).build());
          assertThat(partial.next().getServersCount()).isEqualTo(1);
        });
        ctx.cancel(null);
      } finally {
        ch.shutdownNow();
      }
    }
  }

  @Test
  void tlsWithASelfSignedCertificate() throws Exception {
    assumeTrue(onPath("openssl"), "openssl is not installed");
    Path cert = dir.resolve("cert.pem");
    Path key = dir.resolve("key.pem");
    run(List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(), "-out",
        cert.toString(), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"));
    try (ApiServer api = start(cert, key, null)) {
      ChannelCredentials tls = TlsChannelCredentials.newBuilder().trustManager(cert.toFile()).build();
      ManagedChannel ch = Grpc.newChannelBuilder("127.0.0.1:" + api.address().getPort(), tls).build();
      ManagedChannel plain = Grpc.newChannelBuilder("127.0.0.1:" + api.address().getPort(),
          InsecureChannelCredentials.create()).build();
      try {
        GetOrderedServersResponse r = ReedServiceGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
            .getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(ReedServiceTest.coord(1, 1)).setPageSize(2).build());
        assertThat(r.getServersCount()).isEqualTo(2);
        assertThatThrownBy(() -> ReedServiceGrpc.newBlockingStub(plain).withDeadlineAfter(5, TimeUnit.SECONDS)
            .getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(ReedServiceTest.coord(1, 1)).build()))
            .isInstanceOf(StatusRuntimeException.class);
      } finally {
        ch.shutdownNow();
        plain.shutdownNow();
      }
    }
  }

  @Test
  void apiKeysAuthenticateAndRateLimit() throws Exception {
    Path keys = dir.resolve("keys");
    Files.writeString(keys, "# browser vendors\nvendor-a-0123456789abcdef 2\nvendor-b-0123456789abcdef\n");
    try (ApiServer api = start(null, null, ApiKeys.read(keys))) {
      api.serving(true);
      ManagedChannel ch = Grpc.newChannelBuilder("127.0.0.1:" + api.address().getPort(), InsecureChannelCredentials.create()).build();
      try {
        GetOrderedServersRequest req = GetOrderedServersRequest.newBuilder().setClient(ReedServiceTest.coord(1, 1)).setPageSize(1).build();
        ReedServiceGrpc.ReedServiceBlockingStub anonymous = ReedServiceGrpc.newBlockingStub(ch).withInterceptors(new EachCallDeadline(5));
        assertCode(() -> anonymous.getOrderedServers(req), Status.Code.UNAUTHENTICATED, "missing API key");
        assertCode(() -> withKey(anonymous, "wrong-key-0123456789").getOrderedServers(req), Status.Code.UNAUTHENTICATED,
            "unknown API key");
        ReedServiceGrpc.ReedServiceBlockingStub a = withKey(anonymous, "vendor-a-0123456789abcdef");
        List<Status.Code> codes = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          try {
            a.getOrderedServers(req);
            codes.add(Status.Code.OK);
          } catch (StatusRuntimeException e) {
            codes.add(e.getStatus().getCode());
          }
        }
        assertThat(codes).contains(Status.Code.OK, Status.Code.RESOURCE_EXHAUSTED);
        assertThat(codes.getFirst()).isEqualTo(Status.Code.OK);
        assertThat(withKey(anonymous, "vendor-b-0123456789abcdef").getOrderedServers(req).getServersCount()).isEqualTo(1);
        HealthCheckResponse h = HealthGrpc.newBlockingStub(ch).withDeadlineAfter(5, TimeUnit.SECONDS)
            .check(HealthCheckRequest.newBuilder().setService("reed.v1.ReedService").build());
        assertThat(h.getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
      } finally {
        ch.shutdownNow();
      }
    }
    Files.writeString(keys, "short 5\n");
    assertThatThrownBy(() -> ApiKeys.read(keys)).hasMessageContaining(":1: key shorter than 16 characters");
  }

  static ReedServiceGrpc.ReedServiceBlockingStub withKey(ReedServiceGrpc.ReedServiceBlockingStub s, String key) {
    Metadata h = new Metadata();
    h.put(ApiKeyInterceptor.HEADER, key);
    return s.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h));
  }

  static void assertCode(Runnable r, Status.Code code, String message) {
    assertThatThrownBy(r::run).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
      assertThat(e.getStatus().getCode()).isEqualTo(code);
      assertThat(e.getStatus().getDescription()).contains(message);
    });
  }
}
