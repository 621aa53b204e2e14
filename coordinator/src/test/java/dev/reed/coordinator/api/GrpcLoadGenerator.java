package dev.reed.coordinator.api;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.FitQuality;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.proto.v1.Stability;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load generator for GetOrderedServers over loopback: a real Netty server holding 36,000 servers
 * (4-D, random clients over the space), an async client keeping {@code concurrency} calls in
 * flight for {@code seconds}, first page (230 servers, the default) per call. Prints requests/s
 * and the latency distribution. Client and server share the machine.
 *
 * <pre>
 * java -cp "$(cat coordinator/target/bench.cp):coordinator/target/test-classes:coordinator/target/classes" \
 *   dev.reed.coordinator.api.GrpcLoadGenerator [servers=36000] [seconds=20] [concurrency=16] [pageSize=230]
 * </pre>
 *
 * <p>Server and client in separate processes (so the server's own CPU can be read from /proc):
 * {@code GrpcLoadGenerator serve PORT [servers]} and
 * {@code GrpcLoadGenerator load HOST:PORT seconds concurrency pageSize [connections=1] [compact|full]} (responses
 * counted, not parsed: see {@link #unparsed}; {@code compact}, the default, asks for the compact landmark RTTs,
 * {@code full} for landmark_rtts as older clients do); with the HTTP face beside the
 * gRPC port: {@code serve PORT servers HTTP_PORT}, and the JSON path's load with
 * {@code load-http HOST:HTTP_PORT seconds concurrency pageSize [compact|full]}. {@code bodies DIR count pageSize
 * [compact|full]} writes gRPC-framed request bodies (random clients, as {@code load} sends) for a load
 * generator in C that costs the shared cores less: h2load from nghttp2-client, one process per body
 * (coordinator README, "Benchmarks").
 */
public final class GrpcLoadGenerator {
  private GrpcLoadGenerator() {}

  /** What a deployment of 15 landmarks publishes per server (RankedServer.landmark_rtts). */
  static List<LandmarkRtt> landmarkRtts(SplittableRandom r) {
    List<LandmarkRtt> out = new ArrayList<>(15);
    for (int l = 0; l < 15; l++) {
      out.add(LandmarkRtt.newBuilder().setLandmarkId(String.format("landmark-%02d", l))
          .setRttUs(r.nextInt(5_000, 300_000)).build());
    }
    return out;
  }

  static ServingState world(int n, int d) {
    SplittableRandom r = new SplittableRandom(11);
    Map<String, ServerCoordinate> servers = new HashMap<>();
    List<ServerEntry> entries = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Endpoint e = Endpoint.newBuilder().setIp("10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255)).setPort(27015).build();
      Coordinate.Builder c = Coordinate.newBuilder();
      for (int k = 0; k < d; k++) c.addComponents(r.nextDouble(-150, 150));
      c.setHeightMs(r.nextDouble(10));
      ServerCoordinate sc = ServerCoordinate.newBuilder().setEndpoint(e).setProtocol(GameProtocol.GAME_PROTOCOL_A2S)
          .setCoordinate(c).setFit(FitQuality.newBuilder().setRelativeError(0.05).setLandmarksUsed(12))
          .setServerInfo(ServerInfo.newBuilder().setName("server number " + i).setMap("de_dust2").setGame("cstrike")
              .setPlayers(i % 20).setMaxPlayers(24).setVersion("1.38.7.9"))
          .setStability(Stability.newBuilder().setMedianRttUs(40_000).setJitterUs(800).setLossFraction(0.01).setRounds(8))
          .addAllLandmarkRtts(landmarkRtts(r))
          .build();
      String key = Endpoints.key(e);
      servers.put(key, sc);
      entries.add(new ServerEntry(key, CoordinateCodec.fromProto(sc.getCoordinate(), d, key),
          CoordinateCodec.attributes(sc.getServerInfo(), sc.getProtocol())));
    }
    return new ServingState(RankingIndex.of(entries), Map.copyOf(servers), ReedServiceTest.templates(servers), Map.of(), List.of(), Map.of(), Map.of(), 1,
        Instant.now(), d, true);
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("serve")) {
      int n = args.length > 2 ? Integer.parseInt(args[2]) : 36_000;
      ServingState state = world(n, 4);
      ReedServiceImpl service = new ReedServiceImpl(
          ReedServiceImpl.Dependencies.of(() -> state, new CoordinateConfig(4, true), Clock.systemUTC()));
      ApiServer server = ApiServer.start(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1])), null, null, null,
          List.of(service));
      System.out.println("serving " + n + " servers on " + server.address());
      if (args.length > 3) { // the HTTP face beside it, over the same service instance
        HttpApiServer http = HttpApiServer.start(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[3])), List.of(),
            List.of(server.guard(ReedServiceGrpc.bindService(service))));
        System.out.println("HTTP face on " + http.url());
      }
      Thread.currentThread().join();
    }
    if (args.length > 0 && args[0].equals("bodies")) { // request bodies for h2load (nghttp2-client), gRPC-framed
      java.nio.file.Path dir = java.nio.file.Files.createDirectories(java.nio.file.Path.of(args[1]));
      int count = Integer.parseInt(args[2]);
      GetOrderedServersRequest[] requests = requests(4, Integer.parseInt(args[3]), compact(args.length > 4 ? args[4] : "compact"));
      for (int i = 0; i < count; i++) {
        byte[] m = requests[i].toByteArray();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(5 + m.length).put((byte) 0).putInt(m.length).put(m);
        java.nio.file.Files.write(dir.resolve("request-" + i + ".bin"), b.array());
      }
      System.out.println(count + " GetOrderedServers request bodies in " + dir);
      return;
    }
    if (args.length > 0 && args[0].equals("load-http")) {
      runHttp(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
          compact(args.length > 5 ? args[5] : "compact"));
      return;
    }
    if (args.length > 0 && args[0].equals("load")) {
      Endpoints.HostPort hp = Endpoints.hostPort(args[1], -1);
      int connections = args.length > 5 ? Integer.parseInt(args[5]) : 1;
      List<ManagedChannel> channels = new ArrayList<>();
      for (int c = 0; c < connections; c++) {
        channels.add(NettyChannelBuilder.forAddress(hp.host(), hp.port()).usePlaintext().build());
      }
      boolean compact = compact(args.length > 6 ? args[6] : "compact");
      GetOrderedServersRequest[] requests = requests(4, Integer.parseInt(args[4]), compact);
      ReedServiceGrpc.ReedServiceBlockingStub stub = ReedServiceGrpc.newBlockingStub(channels.get(0));
      GetOrderedServersRequest first = requests[0];
      System.out.printf("one page: %d servers, %d bytes with compact landmark RTTs, %d bytes with landmark_rtts; measuring %s%n",
          stub.getOrderedServers(first).getServersCount(),
          stub.getOrderedServers(first.toBuilder().setCompactLandmarkRtts(true).build()).getSerializedSize(),
          stub.getOrderedServers(first.toBuilder().setCompactLandmarkRtts(false).build()).getSerializedSize(),
          compact ? "compact" : "full");
      List<Caller> callers = channels.stream().map(ch -> unparsed(ch)).toList();
      run(callers, requests, Integer.parseInt(args[3]), Duration.ofSeconds(5), false);
      System.out.println("measuring");
      run(callers, requests, Integer.parseInt(args[3]), Duration.ofSeconds(Integer.parseInt(args[2])), true);
      for (ManagedChannel ch : channels) ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      return;
    }
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 36_000;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int concurrency = args.length > 2 ? Integer.parseInt(args[2]) : 16;
    int pageSize = args.length > 3 ? Integer.parseInt(args[3]) : 230;
    int d = 4;
    ServingState state = world(n, d);
    try (ApiServer server = ApiServer.start(new InetSocketAddress("127.0.0.1", 0), null, null, null, List.of(
        new ReedServiceImpl(ReedServiceImpl.Dependencies.of(() -> state, new CoordinateConfig(d, true), Clock.systemUTC()))))) {
      ManagedChannel ch = NettyChannelBuilder.forAddress(server.address()).usePlaintext().build();
      ReedServiceGrpc.ReedServiceStub stub = ReedServiceGrpc.newStub(ch);
      GetOrderedServersRequest[] requests = requests(d, pageSize, true);
      System.out.printf("servers=%d dims=%d concurrency=%d pageSize=%d%n", n, d, concurrency, pageSize);
      List<Caller> parsing = List.of((req, done) -> stub.withDeadlineAfter(5, TimeUnit.SECONDS).getOrderedServers(req, cast(done)));
      run(parsing, requests, concurrency, Duration.ofSeconds(5), false); // warm-up
      run(parsing, requests, concurrency, Duration.ofSeconds(seconds), true);
      ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /**
   * The HTTP/JSON path: {@code POST /reed.v1.ReedService/GetOrderedServers} with a JSON body over
   * HTTP/1.1 (what a page's fetch sends without TLS), {@code concurrency} calls in flight on as many
   * connections, 5 s warm-up, then {@code seconds} measured.
   */
  static void runHttp(String hostPort, int seconds, int concurrency, int pageSize, boolean compact) throws Exception {
    Endpoints.HostPort hp = Endpoints.hostPort(hostPort, -1);
    com.linecorp.armeria.client.WebClient client = com.linecorp.armeria.client.WebClient.builder(
            com.linecorp.armeria.common.SessionProtocol.H1C, com.linecorp.armeria.client.Endpoint.of(hp.host(), hp.port()))
        .responseTimeout(Duration.ofSeconds(5)).maxResponseLength(16 << 20).build();
    GetOrderedServersRequest[] requests = requests(4, pageSize, compact);
    String[] json = new String[requests.length];
    for (int i = 0; i < json.length; i++) json[i] = com.google.protobuf.util.JsonFormat.printer().print(requests[i]);
    for (int pass = 0; pass < 2; pass++) {
      boolean report = pass == 1;
      if (report) System.out.println("measuring");
      long[] latencies = new long[4_000_000];
      AtomicLong count = new AtomicLong();
      AtomicLong errors = new AtomicLong();
      AtomicLong bytes = new AtomicLong();
      Semaphore inFlight = new Semaphore(concurrency);
      long start = System.nanoTime();
      long end = start + (report ? Duration.ofSeconds(seconds) : Duration.ofSeconds(5)).toNanos();
      int i = 0;
      while (System.nanoTime() < end) {
        inFlight.acquire();
        long t0 = System.nanoTime();
        client.execute(com.linecorp.armeria.common.HttpRequest.of(com.linecorp.armeria.common.HttpMethod.POST,
                "/reed.v1.ReedService/GetOrderedServers", com.linecorp.armeria.common.MediaType.JSON_UTF_8, json[i++ & 1023]))
            .aggregate().whenComplete((r, t) -> {
              if (t != null || r.status().code() != 200) {
                errors.incrementAndGet();
              } else {
                bytes.addAndGet(r.content().length());
                long idx = count.getAndIncrement();
                if (idx < latencies.length) latencies[(int) idx] = System.nanoTime() - t0;
              }
              inFlight.release();
            });
      }
      inFlight.acquire(concurrency);
      inFlight.release(concurrency);
      double secs = (System.nanoTime() - start) / 1e9;
      if (!report) continue;
      int m = (int) Math.min(count.get(), latencies.length);
      long[] l = Arrays.copyOf(latencies, m);
      Arrays.sort(l);
      System.out.printf("HTTP/JSON requests=%d errors=%d seconds=%.1f throughput=%.0f req/s p50=%.2f ms p90=%.2f ms "
              + "p99=%.2f ms max=%.2f ms, %.0f bytes of JSON per response%n", count.get(), errors.get(), secs,
          count.get() / secs, l[m / 2] / 1e6, l[(int) (m * 0.9)] / 1e6, l[(int) (m * 0.99)] / 1e6, l[m - 1] / 1e6,
          bytes.get() / (double) Math.max(1, count.get()));
    }
  }

  private static boolean compact(String form) {
    return switch (form) {
      case "compact" -> true;
      case "full" -> false;
      default -> throw new IllegalArgumentException("landmark RTT form: compact or full, got " + form);
    };
  }

  static GetOrderedServersRequest[] requests(int d, int pageSize, boolean compact) {
    SplittableRandom r = new SplittableRandom(5);
    GetOrderedServersRequest[] requests = new GetOrderedServersRequest[1024];
    for (int i = 0; i < requests.length; i++) {
      Coordinate.Builder c = Coordinate.newBuilder();
      for (int k = 0; k < d; k++) c.addComponents(r.nextDouble(-150, 150));
      requests[i] = GetOrderedServersRequest.newBuilder().setClient(c.setHeightMs(r.nextDouble(20))).setPageSize(pageSize)
          .setCompactLandmarkRtts(compact).build();
    }
    return requests;
  }

  /** One call of GetOrderedServers; the observer sees onCompleted or onError. */
  interface Caller {
    void call(GetOrderedServersRequest request, StreamObserver<Object> done);
  }

  /**
   * Calls that do not parse the response (they only count it): the load generator shares the two
   * cores with the server, and parsing a 230-server page (~90 KB with landmark RTTs) costs the
   * generator more CPU than the server spends producing it. A real client parses on its own machine.
   */
  static Caller unparsed(ManagedChannel channel) {
    MethodDescriptor<GetOrderedServersRequest, byte[]> raw = ReedServiceGrpc.getGetOrderedServersMethod().toBuilder(
        ProtoUtils.marshaller(GetOrderedServersRequest.getDefaultInstance()), dev.reed.proto.EncodedMessages.MARSHALLER).build();
    return (req, done) -> ClientCalls.asyncUnaryCall(
        channel.newCall(raw, CallOptions.DEFAULT.withDeadlineAfter(5, TimeUnit.SECONDS)), req, cast(done));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <T> StreamObserver<T> cast(StreamObserver<Object> observer) {
    return (StreamObserver) observer;
  }

  /** Keeps {@code concurrency} calls in flight, spread round-robin over the callers (connections). */
  static void run(List<Caller> callers, GetOrderedServersRequest[] requests, int concurrency,
      Duration duration, boolean report) throws InterruptedException {
    long[] latencies = new long[4_000_000];
    AtomicLong count = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    Semaphore inFlight = new Semaphore(concurrency);
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long start = System.nanoTime();
    long end = start + duration.toNanos();
    int i = 0;
    while (System.nanoTime() < end) {
      inFlight.acquire();
      long t0 = System.nanoTime();
      callers.get(i % callers.size()).call(requests[i++ & 1023], new StreamObserver<Object>() {
        @Override
        public void onNext(Object value) {}

        @Override
        public void onError(Throwable t) {
          errors.incrementAndGet();
          inFlight.release();
        }

        @Override
        public void onCompleted() {
          long idx = count.getAndIncrement();
          if (idx < latencies.length) latencies[(int) idx] = System.nanoTime() - t0;
          inFlight.release();
        }
      });
    }
    inFlight.acquire(concurrency);
    inFlight.release(concurrency);
    double secs = (System.nanoTime() - start) / 1e9;
    double cpuUsPerRequest = (os.getProcessCpuTime() - cpu0) / 1e3 / Math.max(1, count.get());
    if (!report) return;
    int m = (int) Math.min(count.get(), latencies.length);
    long[] l = Arrays.copyOf(latencies, m);
    Arrays.sort(l);
    System.out.printf("requests=%d errors=%d seconds=%.1f throughput=%.0f req/s p50=%.2f ms p90=%.2f ms p99=%.2f ms max=%.2f ms%n",
        count.get(), errors.get(), secs, count.get() / secs, l[m / 2] / 1e6, l[(int) (m * 0.9)] / 1e6,
        l[(int) (m * 0.99)] / 1e6, l[m - 1] / 1e6);
    // CPU of this process (server + load generator) per request: what the rate would be on idle cores
    System.out.printf("process CPU per request (server + client) = %.0f us -> %.0f req/s per idle core%n",
        cpuUsPerRequest, 1e6 / cpuUsPerRequest);
  }
}
