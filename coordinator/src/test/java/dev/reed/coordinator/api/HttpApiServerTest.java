package dev.reed.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.v1.CalibrationMeasurement;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.ListLandmarksRequest;
import dev.reed.proto.v1.ListLandmarksResponse;
import dev.reed.proto.v1.LocateRequest;
import dev.reed.proto.v1.LocateResponse;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.SnapshotServiceGrpc;
import dev.reed.proto.v1.Transport;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP face over real HTTP (the JDK client, as a page's fetch would send it) beside the real
 * Netty gRPC port, both over the same service instances: JSON answers equal the gRPC answers, and
 * keys, rate limits, validation, CORS, size limits and the page work as on the gRPC port.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpApiServerTest {
  static final String KEY = "vendor-a-0123456789abcdef";
  static final String SLOW_KEY = "vendor-slow-0123456789abcdef";
  static final String PAGE_ORIGIN = "https://servers.example";
  /** What the test's deployment says a WebSocket echo adds to a UDP RTT. */
  static final double WS_OVERHEAD_MS = 2.0;

  ApiServer grpc;
  HttpApiServer http;
  ManagedChannel channel;
  ReedServiceGrpc.ReedServiceBlockingStub reed;
  SnapshotServiceGrpc.SnapshotServiceBlockingStub snapshots;
  final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  String base;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    ServingState plain = ReedServiceTest.world(new HashMap<>());
    // lm0 announced a WebSocket beacon and its location; ListLandmarks passes both on
    Landmark lm0 = Landmark.newBuilder().setLandmarkId("lm0").setWsBeaconUrl("ws://10.9.0.1:27016/")
        .setLocation(dev.reed.proto.v1.GeoPoint.newBuilder().setLatitudeDeg(50.11).setLongitudeDeg(8.68)).build();
    ServingState state = new ServingState(plain.index(), plain.servers(), plain.ranked(), plain.landmarks(),
        plain.landmarkAnchors(), Map.of("lm0", lm0), plain.targets(), plain.landmarkEpoch(), plain.builtAt(),
        plain.dimensions(), plain.heightModel());
    Path keys = dir.resolve("keys");
    Files.writeString(keys, KEY + " 10000\n" + SLOW_KEY + " 2\n");
    ReedServiceImpl service = new ReedServiceImpl(ReedServiceImpl.Dependencies
        .of(() -> state, new CoordinateConfig(2, false), Clock.systemUTC()).withWsOverheadMs(WS_OVERHEAD_MS));
    SnapshotServiceImpl snapshot = new SnapshotServiceImpl(() -> state);
    grpc = ApiServer.start(new InetSocketAddress("127.0.0.1", 0), null, null, ApiKeys.read(keys), List.of(service, snapshot));
    http = HttpApiServer.start(new InetSocketAddress("127.0.0.1", 0), List.of(PAGE_ORIGIN),
        List.of(grpc.guard(ReedServiceGrpc.bindService(service)), grpc.guard(snapshot.bindService())));
    base = "http://127.0.0.1:" + http.address().getPort();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", grpc.address().getPort()).usePlaintext().build();
    Metadata h = new Metadata();
    h.put(ApiKeyInterceptor.HEADER, KEY);
    reed = ReedServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
        .withDeadlineAfter(30, TimeUnit.SECONDS);
    snapshots = SnapshotServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
        .withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  @AfterAll
  void stop() {
    if (channel != null) channel.shutdownNow();
    if (http != null) http.close();
    if (grpc != null) grpc.close();
  }

  HttpResponse<String> post(String method, String json, String key) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/reed.v1." + method))
        .header("content-type", "application/json").timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString(json));
    if (key != null) b.header("x-api-key", key);
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @SuppressWarnings("unchecked")
  <T extends Message> T postJson(String method, Message request, Message.Builder response) throws Exception {
    HttpResponse<String> r = post(method, JsonFormat.printer().print(request), KEY);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type").orElse("")).startsWith("application/json");
    JsonFormat.parser().merge(r.body(), response);
    return (T) response.build();
  }

  @Test
  void jsonAnswersEqualTheGrpcAnswers() throws Exception {
    GetCalibrationServersRequest cal = GetCalibrationServersRequest.newBuilder().setCount(5).build();
    GetCalibrationServersResponse calibration = postJson("ReedService/GetCalibrationServers", cal,
        GetCalibrationServersResponse.newBuilder());
    assertThat(calibration).isEqualTo(reed.getCalibrationServers(cal));

    GetOrderedServersRequest page = GetOrderedServersRequest.newBuilder().setClient(ReedServiceTest.coord(150, 150))
        .setPageSize(7).build();
    GetOrderedServersResponse viaHttp = postJson("ReedService/GetOrderedServers", page, GetOrderedServersResponse.newBuilder());
    assertThat(viaHttp).isEqualTo(reed.getOrderedServers(page));
    assertThat(viaHttp.getServersCount()).isEqualTo(7);

    LocateRequest locate = locate(Transport.TRANSPORT_UDP, 0);
    LocateResponse located = postJson("ReedService/Locate", locate, LocateResponse.newBuilder());
    assertThat(located).isEqualTo(reed.locate(locate));
    assertThat(located.getCoordinate().getComponentsList()).hasSize(2);

    ListLandmarksResponse landmarks = postJson("SnapshotService/ListLandmarks", ListLandmarksRequest.getDefaultInstance(),
        ListLandmarksResponse.newBuilder());
    assertThat(landmarks).isEqualTo(snapshots.listLandmarks(ListLandmarksRequest.getDefaultInstance()));
    LandmarkCoordinate first = landmarks.getLandmarks(0);
    assertThat(first.getLandmarkId()).isEqualTo("lm0");
    assertThat(first.getWsBeaconUrl()).isEqualTo("ws://10.9.0.1:27016/");
    assertThat(first.getLocation().getLatitudeDeg()).isEqualTo(50.11);
    assertThat(landmarks.getLandmarks(1).getWsBeaconUrl()).isEmpty();
  }

  @Test
  void compactLandmarkRttsOverJsonAreTheGrpcAnswerAndResolveToTheFullForm() throws Exception {
    HttpResponse<String> r = post("ReedService/GetOrderedServers",
        "{\"client\":{\"components\":[150,150]},\"pageSize\":5,\"compactLandmarkRtts\":true}", KEY);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.body()).contains("\"landmarkIds\":", "\"landmarkRefs\":", "\"landmarkRttUs\":").doesNotContain("\"landmarkRtts\"");
    GetOrderedServersResponse.Builder parsed = GetOrderedServersResponse.newBuilder();
    JsonFormat.parser().merge(r.body(), parsed);
    GetOrderedServersRequest page = GetOrderedServersRequest.newBuilder().setClient(ReedServiceTest.coord(150, 150))
        .setPageSize(5).build();
    assertThat(parsed.build()).isEqualTo(reed.getOrderedServers(page.toBuilder().setCompactLandmarkRtts(true).build()));
    GetOrderedServersResponse full = reed.getOrderedServers(page);
    for (int i = 0; i < 5; i++) {
      assertThat(ReedServiceTest.resolved(parsed.getServers(i), parsed.getLandmarkIdsList()))
          .isEqualTo(full.getServers(i).getLandmarkRttsList()).isNotEmpty();
    }
  }

  @Test
  void theContractsJsonFieldNamesAreWhatThePageSends() throws Exception {
    HttpResponse<String> r = post("SnapshotService/ListLandmarks", "{}", KEY);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("\"wsBeaconUrl\"", "\"landmarkId\"", "\"latitudeDeg\"", "\"beacon\"");
    // a page's Locate, written by hand as the contract (i17-contract.md) shows it
    StringBuilder m = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      if (i > 0) m.append(',');
      m.append("{\"endpoint\":{\"ip\":\"10.9.0.").append(i + 1).append("\",\"port\":27015},\"rttUs\":")
          .append(50_000 + i * 1000).append(",\"transport\":\"TRANSPORT_WEBSOCKET\"}");
    }
    HttpResponse<String> located = post("ReedService/Locate", "{\"measurements\":[" + m + "]}", KEY);
    assertThat(located.statusCode()).as(located.body()).isEqualTo(200);
    assertThat(located.body()).contains("\"coordinate\"", "\"components\"");
  }

  /** RTTs from (100, 50) to the six landmarks, over the given transport with {@code extraMs} added. */
  static LocateRequest locate(Transport transport, double extraMs) {
    double[][] lp = {{0, 0}, {300, 0}, {0, 300}, {300, 300}, {150, 150}, {150, 400}};
    LocateRequest.Builder b = LocateRequest.newBuilder();
    for (int i = 0; i < lp.length; i++) {
      double ms = Math.hypot(100 - lp[i][0], 50 - lp[i][1]) + extraMs;
      b.addMeasurements(CalibrationMeasurement.newBuilder()
          .setEndpoint(dev.reed.proto.v1.Endpoint.newBuilder().setIp("10.9.0." + (i + 1)).setPort(27015))
          .setRttUs((int) Math.round(ms * 1000)).setTransport(transport));
    }
    return b.build();
  }

  @Test
  void webSocketRttsLoseTheConfiguredOverheadBeforePositioning() throws Exception {
    LocateResponse udp = postJson("ReedService/Locate", locate(Transport.TRANSPORT_UDP, 0), LocateResponse.newBuilder());
    LocateResponse ws = postJson("ReedService/Locate", locate(Transport.TRANSPORT_WEBSOCKET, WS_OVERHEAD_MS),
        LocateResponse.newBuilder());
    LocateResponse wsAsUdp = postJson("ReedService/Locate", locate(Transport.TRANSPORT_UDP, WS_OVERHEAD_MS),
        LocateResponse.newBuilder());
    assertThat(ws.getCoordinate()).isEqualTo(udp.getCoordinate());
    assertThat(wsAsUdp.getCoordinate()).isNotEqualTo(udp.getCoordinate());
    assertThat(udp.getCoordinate().getComponents(0)).isCloseTo(100, org.assertj.core.data.Offset.offset(1.0));
  }

  @Test
  void apiKeysAndTheirRatesHoldOverHttpToo() throws Exception {
    String body = "{\"client\":{\"components\":[1,1]},\"pageSize\":1}";
    HttpResponse<String> anonymous = post("ReedService/GetOrderedServers", body, null);
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.body()).contains("missing API key");
    assertThat(post("ReedService/GetOrderedServers", body, "wrong-key-0123456789").body()).contains("unknown API key");
    List<Integer> codes = new ArrayList<>();
    HttpResponse<String> limited = null;
    // a burst of 2, then 2 per second: back-to-back calls run out within a few (however slow the machine)
    for (int i = 0; i < 20 && limited == null; i++) {
      HttpResponse<String> r = post("ReedService/GetOrderedServers", body, SLOW_KEY);
      codes.add(r.statusCode());
      if (r.statusCode() == 429) limited = r;
    }
    assertThat(codes.getFirst()).isEqualTo(200);
    assertThat(limited).as("429 among %s", codes).isNotNull();
    assertThat(limited.body()).contains("rate limit of 2.0 requests/s");
  }

  @Test
  void badRequestsGet400WithAClearMessageAnd413WhenTooLarge() throws Exception {
    HttpResponse<String> malformed = post("ReedService/GetOrderedServers", "{\"client\": {\"components\": [1, 2", KEY);
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.body()).contains("not valid in the proto3 JSON mapping: Unexpected end-of-input")
        .contains("line 1, column 32").doesNotContain("Source");
    HttpResponse<String> unknownField = post("ReedService/GetOrderedServers", "{\"clientt\": {}}", KEY);
    assertThat(unknownField.statusCode()).isEqualTo(400);
    assertThat(unknownField.body()).contains("clientt");
    HttpResponse<String> invalid = post("ReedService/GetOrderedServers", "{\"client\":{\"components\":[1,2,3]}}", KEY);
    assertThat(invalid.statusCode()).isEqualTo(400);
    assertThat(invalid.body()).contains("3 components, this deployment uses 2 dimensions");
    HttpResponse<String> huge = post("ReedService/GetOrderedServers",
        "{\"client\":{\"components\":[1,1]},\"pageToken\":\"" + "x".repeat(100_000) + "\"}", KEY);
    assertThat(huge.statusCode()).isEqualTo(413);
  }

  @Test
  void corsPreflightAllowsTheConfiguredOriginWithContentTypeAndApiKey() throws Exception {
    HttpResponse<String> preflight = client.send(HttpRequest.newBuilder(URI.create(base + "/reed.v1.ReedService/Locate"))
        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
        .header("Origin", PAGE_ORIGIN).header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "content-type,x-api-key").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(preflight.statusCode()).isEqualTo(200);
    assertThat(preflight.headers().firstValue("access-control-allow-origin")).contains(PAGE_ORIGIN);
    assertThat(String.join(",", preflight.headers().allValues("access-control-allow-headers")).toLowerCase())
        .contains("content-type").contains("x-api-key");
    assertThat(String.join(",", preflight.headers().allValues("access-control-allow-methods"))).contains("POST");
    HttpResponse<String> other = client.send(HttpRequest.newBuilder(URI.create(base + "/reed.v1.ReedService/Locate"))
        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
        .header("Origin", "https://elsewhere.example").header("Access-Control-Request-Method", "POST").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(other.headers().firstValue("access-control-allow-origin")).isEmpty();
    HttpResponse<String> call = client.send(HttpRequest.newBuilder(URI.create(base + "/reed.v1.SnapshotService/ListLandmarks"))
        .header("content-type", "application/json").header("x-api-key", KEY).header("Origin", PAGE_ORIGIN)
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(call.statusCode()).isEqualTo(200);
    assertThat(call.headers().firstValue("access-control-allow-origin")).contains(PAGE_ORIGIN);
  }

  @Test
  void thePageIsServedAtTheRoot() throws Exception {
    HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("content-type").orElse("")).startsWith("text/html");
    assertThat(page.body()).containsIgnoringCase("<html");
    assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/no-such-file.js")).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
  }

  @Test
  void grpcWebCallsTheSameService() throws Exception {
    ReedServiceGrpc.ReedServiceBlockingStub web = com.linecorp.armeria.client.grpc.GrpcClients.builder("http://127.0.0.1:" + http.address().getPort())
        .serializationFormat(com.linecorp.armeria.common.grpc.GrpcSerializationFormats.PROTO_WEB)
        .addHeader("x-api-key", KEY)
        .build(ReedServiceGrpc.ReedServiceBlockingStub.class);
    GetOrderedServersRequest page = GetOrderedServersRequest.newBuilder().setClient(ReedServiceTest.coord(10, 20))
        .setPageSize(3).build();
    assertThat(web.getOrderedServers(page)).isEqualTo(reed.getOrderedServers(page));
  }
}
