package dev.reed.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.location.ClientAddress;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.runtime.LoggedAddresses;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls without an API key over the real gRPC port and HTTP face: one bucket per network prefix,
 * shared by the two ports and the page's static files, with a fake clock (nothing refills unless
 * the test says so). Clients on the HTTP face come from real 127.x addresses; on the gRPC port
 * from the X-Forwarded-For of a trusted proxy (127.0.0.1), which is how they arrive behind one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnonymousLimitTest {
  static final String KEY = "vendor-a-0123456789abcdef";

  private final AtomicLong now = new AtomicLong();
  private ApiServer grpc;
  private HttpApiServer http;
  private ManagedChannel channel;
  private AnonymousAccess anonymous;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    ServingState state = ReedServiceTest.world(new HashMap<>());
    ReedServiceImpl reed = new ReedServiceImpl(
        ReedServiceImpl.Dependencies.of(() -> state, new CoordinateConfig(2, false), Clock.systemUTC()));
    Path keys = dir.resolve("keys");
    Files.writeString(keys, KEY + " 10000\n");
    anonymous = AnonymousAccess.of(5, ClientAddress.trusting(List.of("127.0.0.1/32")), LoggedAddresses.HIDDEN, now::get);
    grpc = ApiServer.start(new InetSocketAddress("127.0.0.1", 0), null, null, ApiKeys.read(keys), anonymous,
        List.of(reed, new SnapshotServiceImpl(() -> state)), m -> { }, m -> { });
    grpc.serving(true);
    http = HttpApiServer.start(new InetSocketAddress("0.0.0.0", 0), List.of(), List.of(grpc.guard(ReedServiceGrpc.bindService(reed))),
        anonymous);
    channel = Grpc.newChannelBuilder("127.0.0.1:" + grpc.address().getPort(), InsecureChannelCredentials.create()).build();
  }

  @AfterAll
  void stop() {
    if (channel != null) channel.shutdownNow();
    if (http != null) http.close();
    if (grpc != null) grpc.close();
  }

  @BeforeEach
  void refill() {
    now.addAndGet(TimeUnit.SECONDS.toNanos(60));
  }

  private Status.Code grpcCall(String forwardedFor, String key) {
    Metadata h = new Metadata();
    h.put(Metadata.Key.of("x-forwarded-for", Metadata.ASCII_STRING_MARSHALLER), forwardedFor);
    if (key != null) h.put(ApiKeyInterceptor.HEADER, key);
    try {
      ReedServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
          .withDeadlineAfter(5, TimeUnit.SECONDS)
          .getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(ReedServiceTest.coord(1, 1)).setPageSize(1).build());
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
  }

  private int httpGet(String from, String path) throws Exception {
    HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).localAddress(InetAddress.getByName(from)).build();
    return c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.address().getPort() + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  private int httpPost(String from, String key) throws Exception {
    HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).localAddress(InetAddress.getByName(from)).build();
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.address().getPort()
            + "/reed.v1.ReedService/GetOrderedServers"))
        .header("content-type", "application/json").timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString("{\"client\":{\"components\":[1,1]},\"pageSize\":1}"));
    if (key != null) b.header("x-api-key", key);
    return c.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  @Test
  void aPrefixWithoutAKeyGetsItsBurstOverGrpcWhateverItsAddressesAndAKeyIsNotLimitedByIt() {
    int ok = 0;
    for (int i = 0; i < 20; i++) if (grpcCall("203.0.113." + (i + 1), null) == Status.Code.OK) ok++;
    assertThat(ok).as("burst of 10 for 203.0.113.0/24 (5/s)").isEqualTo(10);
    assertThat(grpcCall("203.0.113.200", null)).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(grpcCall("203.0.114.1", null)).as("the next /24").isEqualTo(Status.Code.OK);
    assertThat(grpcCall("2001:db8:0:ff:1::1", null)).isEqualTo(Status.Code.OK);
    for (int i = 0; i < 9; i++) grpcCall("2001:db8:0:" + Integer.toHexString(i) + "::7", null);
    assertThat(grpcCall("2001:db8:0:aa::1", null)).as("one /56 of IPv6, whatever the /64").isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(grpcCall("203.0.113.200", KEY)).as("a key's own bucket").isEqualTo(Status.Code.OK);
    assertThat(grpcCall("203.0.113.200", "wrong-key-0123456789")).isEqualTo(Status.Code.UNAUTHENTICATED);
    now.addAndGet(TimeUnit.MILLISECONDS.toNanos(400));
    assertThat(grpcCall("203.0.113.9", null)).as("2 tokens after 0.4 s").isEqualTo(Status.Code.OK);
    assertThat(anonymous.buckets().refused()).isGreaterThanOrEqualTo(11);
  }

  @Test
  void thePageAndTheJsonApiShareTheNetworksBucketOnTheHttpFace() throws Exception {
    assertThat(httpGet("127.0.0.2", "/")).isEqualTo(200);
    int ok = 1;
    for (int i = 0; i < 15; i++) {
      int code = i % 2 == 0 ? httpGet("127.0.0." + (3 + i), "/app.js") : httpPost("127.0.0." + (3 + i), null);
      if (code == 200) ok++;
      else assertThat(code).isEqualTo(429);
    }
    assertThat(ok).as("10 requests for 127.0.0.0/24, files and calls together").isEqualTo(10);
    assertThat(httpPost("127.0.0.99", KEY)).as("a key is not limited by its network's anonymous bucket").isEqualTo(200);
    assertThat(httpGet("127.0.1.1", "/")).as("another /24").isEqualTo(200);
  }
}
