package dev.reed.coordinator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.agent.AgentConfig;
import dev.reed.agent.LandmarkAgent;
import dev.reed.coordinator.Coordinator;
import dev.reed.coordinator.CoordinatorConfig;
import dev.reed.probe.ProbeEngine;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.CalibrationMeasurement;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.LocateRequest;
import dev.reed.proto.v1.LocateResponse;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.proto.v1.TargetSource;
import dev.reed.testbed.kafka.KafkaExtension;
import dev.reed.testbed.openarena.OpenArenaServer;
import dev.reed.testbed.relay.DelayingUdpRelay;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator against real parts: embedded Kafka, five real landmark agents (in-process, each
 * on its own loopback address) probing emulated game servers and real OpenArena servers whose
 * replies are delayed by a planar latency model; one OpenArena server registers itself with the
 * coordinator's Quake3 master front end by heartbeat. After a few rounds a client positioned by
 * Locate gets servers in ascending true RTT; a web client that only speaks HTTP/JSON and
 * WebSocket does the same through the landmarks' WebSocket beacons, whose echoes are delayed by the
 * same model; a server put on the deny list leaves the catalog; a restarted coordinator serves the
 * same coordinates.
 */
@Tag("integration")
class CoordinatorWithAgentsTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path dir;

  /** Planar world: RTT between two hosts = distance in ms + 1 ms. */
  final Map<String, double[]> position = new HashMap<>();

  double rttMs(InetAddress a, String hostB) {
    double[] p = position.get(a.getHostAddress());
    double[] q = position.get(hostB);
    if (p == null || q == null) return 0;
    return Math.hypot(p[0] - q[0], p[1] - q[1]) + 1;
  }

  static Duration ms(double v) {
    return Duration.ofNanos((long) (v * 1_000_000));
  }

  /**
   * What the web page does: landmarks and their WebSocket beacons over HTTP/JSON, the minimum of 5
   * echoes per beacon, Locate with TRANSPORT_WEBSOCKET and GetOrderedServers over HTTP/JSON; the
   * page comes back in ascending true RTT from where the client stands.
   */
  void webClientRanksByWebSocketAndJson(String base, InetAddress client) throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();
    dev.reed.proto.v1.ListLandmarksResponse.Builder landmarks = dev.reed.proto.v1.ListLandmarksResponse.newBuilder();
    com.google.protobuf.util.JsonFormat.parser().merge(postJson(http, base + "reed.v1.SnapshotService/ListLandmarks", "{}"), landmarks);
    assertThat(landmarks.getLandmarksList()).hasSize(5)
        .allSatisfy(l -> assertThat(l.getWsBeaconUrl()).startsWith("ws://" + l.getBeacon().getIp() + ":"));
    LocateRequest.Builder locate = LocateRequest.newBuilder();
    for (dev.reed.proto.v1.LandmarkCoordinate l : landmarks.getLandmarksList()) {
      java.util.concurrent.BlockingQueue<String> echoes = new java.util.concurrent.LinkedBlockingQueue<>();
      java.net.http.WebSocket ws = http.newWebSocketBuilder().buildAsync(java.net.URI.create(l.getWsBeaconUrl()),
          new java.net.http.WebSocket.Listener() {
            @Override
            public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket w, CharSequence data, boolean last) {
              echoes.add(data.toString());
              w.request(1);
              return null;
            }
          }).join();
      long best = Long.MAX_VALUE;
      for (int seq = 0; seq < 5; seq++) {
        long t0 = System.nanoTime();
        ws.sendText("p:" + seq + ":" + t0, true).join();
        assertThat(echoes.poll(5, TimeUnit.SECONDS)).isEqualTo("p:" + seq + ":" + t0);
        best = Math.min(best, (System.nanoTime() - t0) / 1000);
      }
      ws.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "done");
      // never under the emulated RTT (the beacon held the echo); over it by what a WebSocket echo costs
      // on loopback (well under a millisecond) and, on a loaded machine, by scheduling delays
      assertThat(best / 1000.0).isBetween(rttMs(client, l.getBeacon().getIp()), rttMs(client, l.getBeacon().getIp()) + 100);
      locate.addMeasurements(CalibrationMeasurement.newBuilder().setEndpoint(l.getBeacon()).setRttUs((int) best)
          .setTransport(dev.reed.proto.v1.Transport.TRANSPORT_WEBSOCKET));
    }
    LocateResponse.Builder located = LocateResponse.newBuilder();
    com.google.protobuf.util.JsonFormat.parser().merge(postJson(http, base + "reed.v1.ReedService/Locate",
        com.google.protobuf.util.JsonFormat.printer().print(locate)), located);
    GetOrderedServersResponse.Builder page = GetOrderedServersResponse.newBuilder();
    com.google.protobuf.util.JsonFormat.parser().merge(postJson(http, base + "reed.v1.ReedService/GetOrderedServers",
        com.google.protobuf.util.JsonFormat.printer().print(GetOrderedServersRequest.newBuilder()
            .setClient(located.getCoordinate()).setPageSize(20)
            .setFilter(dev.reed.proto.v1.ServerFilter.newBuilder().setGame("cstrike")))), page);
    assertThat(page.getServersCount()).isEqualTo(10);
    List<Double> trueRtt = new ArrayList<>();
    for (RankedServer s : page.getServersList()) trueRtt.add(rttMs(client, s.getEndpoint().getIp()));
    for (int i = 1; i < trueRtt.size(); i++) {
      assertThat(trueRtt.get(i)).as("web client: true RTT of rank %d vs rank %d: %s", i, i - 1, trueRtt)
          .isGreaterThan(trueRtt.get(i - 1) - 12);
    }
    assertThat(trueRtt.getFirst()).isLessThan(trueRtt.stream().mapToDouble(Double::doubleValue).min().orElseThrow() + 12);
  }

  static String postJson(java.net.http.HttpClient http, String url, String json) throws Exception {
    java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
        .header("content-type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(json)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as("%s: %s", url, r.body()).isEqualTo(200);
    return r.body();
  }

  @Test
  void agentsMeasureCoordinatorRanksAndRestartsServeTheSame() throws Exception {
    assumeTrue(OpenArenaServer.isInstalled(), "openarena-server is not installed (/usr/games/openarena-server)");
    String bootstrap = KAFKA.broker().bootstrapServers();
    double[][] landmarks = {{0, 0}, {140, 0}, {0, 140}, {140, 140}, {70, 190}};
    for (int i = 0; i < landmarks.length; i++) position.put("127.0.10." + (i + 1), landmarks[i]);
    double[][] servers = {{10, 20}, {30, 110}, {60, 60}, {100, 30}, {120, 120}, {20, 80}, {90, 100}, {130, 60},
        {50, 130}, {75, 15}};
    List<AutoCloseable> open = new ArrayList<>();
    List<LandmarkAgent> agents = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(landmarks.length);
    try {
      StringBuilder targets = new StringBuilder("# e2e world\n");
      Map<String, Integer> serverIndex = new HashMap<>();
      for (int i = 0; i < servers.length; i++) {
        String ip = "127.0.12." + (i + 1);
        position.put(ip, servers[i]);
        int n = i;
        GameQueryResponder r = GameQueryResponder.start(new InetSocketAddress(ip, 0),
            () -> ServerInfo.newBuilder().setName("emulated " + n).setMap("de_dust2").setGame("cstrike")
                .setPlayers(n % 5).setMaxPlayers(16).setVersion("1.0").build(),
            from -> ms(rttMs(from.getAddress(), ip)));
        open.add(r);
        serverIndex.put(Endpoints.key(r.localAddress()), i);
        targets.append(i % 2 == 0 ? "a2s " : "q3 ").append(ip).append(':').append(r.localAddress().getPort()).append('\n');
      }
      // a real OpenArena server behind a relay that adds the model's delay
      OpenArenaServer oa = OpenArenaServer.start(OpenArenaServer.Options.defaults().withHostname("real oa"));
      open.add(oa);
      position.put("127.0.13.1", new double[] {40, 40});
      DelayingUdpRelay relay = DelayingUdpRelay.start(new InetSocketAddress("127.0.13.1", 0), oa.address(),
          client -> ms(rttMs(client.getAddress(), "127.0.13.1") / 2));
      open.add(relay);
      targets.append("q3 127.0.13.1:").append(relay.address().getPort()).append('\n');
      Path targetsFile = dir.resolve("targets.txt");
      Files.writeString(targetsFile, targets);

      Path denyFile = dir.resolve("deny.txt");
      Files.writeString(denyFile, "# nobody asked yet\n");
      CoordinatorConfig config = CoordinatorConfig.builder(bootstrap).loopbackEphemeral().dimensions(2)
          .targetsFile(targetsFile).denyFile(denyFile).roundInterval(Duration.ofMillis(400))
          .http(new InetSocketAddress("127.0.0.1", 0)).build();
      Coordinator coordinator = Coordinator.start(config);
      open.add(coordinator);
      await().atMost(Duration.ofSeconds(30)).until(() -> coordinator.servingState().targets().size() == 11);

      // a real OpenArena server that announces itself to the coordinator's Quake3 master
      position.put("127.0.14.1", new double[] {110, 90});
      OpenArenaServer heartbeating = OpenArenaServer.start(OpenArenaServer.Options.defaults()
          .withBindIp(InetAddress.getByName("127.0.14.1")).withHostname("heartbeat oa")
          .withMaster("127.0.0.1:" + coordinator.quake3MasterAddress().getPort()));
      open.add(heartbeating);
      String heartbeatKey = Endpoints.key(heartbeating.address());
      await().atMost(Duration.ofSeconds(30)).until(() -> coordinator.servingState().targets().containsKey(heartbeatKey));
      assertThat(coordinator.servingState().targets().get(heartbeatKey).getSource())
          .isEqualTo(TargetSource.TARGET_SOURCE_QUAKE3_HEARTBEAT);
      // (no delay model for this one: its RTT is the loopback's, it only has to be measured and positioned)

      // the web client's WebSocket connections come from 127.0.0.1 whatever it is emulated as: the
      // beacons delay its echoes by the model's RTT from where it stands
      InetAddress webClient = InetAddress.getByName("127.0.12.1");
      position.put("127.0.12.1", new double[] {240, 60});
      for (int i = 0; i < landmarks.length; i++) {
        String ip = "127.0.10." + (i + 1);
        AgentConfig ac = AgentConfig.builder("lm-" + i, bootstrap).loopback().region("plane")
            .bind(new InetSocketAddress(ip, 0)).beacon(new InetSocketAddress(ip, 0))
            .beaconDelay(from -> ms(rttMs(from.getAddress(), ip)))
            .wsBeacon(new InetSocketAddress(ip, 0)).wsEchoDelay(from -> ms(rttMs(webClient, ip)))
            .spoolDir(dir.resolve("spool-" + i)).seed(i + 1).build();
        LandmarkAgent a = LandmarkAgent.start(ac);
        agents.add(a);
        open.add(a);
      }
      for (int round = 0; round < 3; round++) {
        List<Future<?>> done = new ArrayList<>();
        for (LandmarkAgent a : agents) done.add(pool.submit(a::runRound));
        for (Future<?> f : done) f.get(60, TimeUnit.SECONDS);
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> coordinator.servingState().servers().size() == 12
          && coordinator.servingState().servers().values().stream().allMatch(c -> c.getFit().getLandmarksUsed() >= 3)
          && coordinator.servingState().landmarks().size() == 5);
      assertThat(coordinator.servingState().servers()).containsKey(heartbeatKey);
      assertThat(coordinator.servingState().servers().get(heartbeatKey).getServerInfo().getName()).isEqualTo("heartbeat oa");

      // a client at a known point: calibrate by probing, locate, rank
      String clientIp = "127.0.11.1";
      double[] client = {35, 95};
      position.put(clientIp, client);
      ManagedChannel ch = NettyChannelBuilder.forAddress(coordinator.grpcAddress()).usePlaintext().build();
      open.add(ch::shutdownNow);
      ReedServiceGrpc.ReedServiceBlockingStub stub = ReedServiceGrpc.newBlockingStub(ch);
      GetCalibrationServersResponse cal = stub.withDeadlineAfter(10, TimeUnit.SECONDS)
          .getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(8).build());
      assertThat(cal.getServersCount()).isGreaterThanOrEqualTo(5);
      LocateRequest.Builder lr = LocateRequest.newBuilder();
      try (ProbeEngine prober = ProbeEngine.builder().bind(new InetSocketAddress(clientIp, 0)).build()) {
        for (CalibrationServer s : cal.getServersList()) {
          if (Endpoints.key(s.getEndpoint()).equals(heartbeatKey)) continue; // outside the delay model
          ProbeResult r = prober.probe(new ProbeTarget(Endpoints.toSocketAddress(s.getEndpoint()), s.getProtocol()))
              .get(10, TimeUnit.SECONDS);
          if (r.ok()) {
            lr.addMeasurements(CalibrationMeasurement.newBuilder().setEndpoint(s.getEndpoint())
                .setRttUs((int) Math.max(1, r.rttNanos() / 1000)));
          }
        }
      }
      LocateResponse located = stub.withDeadlineAfter(10, TimeUnit.SECONDS).locate(lr.build());
      GetOrderedServersResponse page = stub.withDeadlineAfter(10, TimeUnit.SECONDS).getOrderedServers(
          GetOrderedServersRequest.newBuilder().setClient(located.getCoordinate()).setPageSize(20)
              .setFilter(dev.reed.proto.v1.ServerFilter.newBuilder().setGame("cstrike")).build());
      assertThat(page.getServersCount()).isEqualTo(10);
      List<Double> trueRtt = new ArrayList<>();
      for (RankedServer s : page.getServersList()) {
        trueRtt.add(rttMs(InetAddress.getByName(clientIp), s.getEndpoint().getIp()));
        assertThat(s.getStability().getRounds()).isGreaterThanOrEqualTo(2);
      }
      // ascending true RTT, allowing swaps of servers whose true RTTs differ by less than 12 ms
      for (int i = 1; i < trueRtt.size(); i++) {
        assertThat(trueRtt.get(i)).as("true RTT of rank %d vs rank %d: %s", i, i - 1, trueRtt)
            .isGreaterThan(trueRtt.get(i - 1) - 12);
      }
      double best = trueRtt.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
      assertThat(trueRtt.getFirst()).isLessThan(best + 12);

      webClientRanksByWebSocketAndJson(coordinator.httpUrl(), webClient);

      // the heartbeat server's operator asks not to be probed: the catalog (on Kafka) drops it
      Files.writeString(denyFile, heartbeating.address().getAddress().getHostAddress() + "   # asked 2026-11-21\n");
      Files.setLastModifiedTime(denyFile, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));
      await().atMost(Duration.ofSeconds(30)).until(() -> !coordinator.servingState().targets().containsKey(heartbeatKey));
      assertThat(coordinator.servingState().targets()).hasSize(11);

      // kill and restart: serving again within seconds, with the same coordinates. The coordinator can
      // still publish a later embedding epoch until it closes, so the state compared is the last one
      // it served: its coordinates and ranking read until one state lasts through both.
      GetOrderedServersRequest cstrike = GetOrderedServersRequest.newBuilder().setClient(located.getCoordinate())
          .setPageSize(20).setFilter(dev.reed.proto.v1.ServerFilter.newBuilder().setGame("cstrike")).build();
      Map<String, ServerCoordinate> before = new HashMap<>();
      List<RankedServer> ranked = new ArrayList<>();
      await().atMost(Duration.ofSeconds(60)).until(() -> {
        Map<String, ServerCoordinate> now = new HashMap<>(coordinator.servingState().servers());
        List<RankedServer> list = stub.withDeadlineAfter(10, TimeUnit.SECONDS).getOrderedServers(cstrike).getServersList();
        if (!now.equals(coordinator.servingState().servers())) return false;
        before.clear();
        before.putAll(now);
        ranked.clear();
        ranked.addAll(list);
        return true;
      });
      coordinator.close();
      long t0 = System.nanoTime();
      try (Coordinator restarted = Coordinator.start(config)) {
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10);
        assertThat(restarted.servingState().servers().keySet()).isEqualTo(before.keySet());
        before.forEach((k, v) -> assertThat(restarted.servingState().servers().get(k).getCoordinate())
            .isEqualTo(v.getCoordinate()));
        GetOrderedServersResponse again = ReedServiceGrpc.newBlockingStub(
                NettyChannelBuilder.forAddress(restarted.grpcAddress()).usePlaintext().build())
            .withDeadlineAfter(10, TimeUnit.SECONDS).getOrderedServers(cstrike);
        assertThat(again.getServersList()).extracting(RankedServer::getEndpoint)
            .isEqualTo(ranked.stream().map(RankedServer::getEndpoint).toList());
      }
    } finally {
      pool.shutdownNow();
      // an agent with a WebSocket beacon takes ~2 s to close (the beacon server's stop): all five at once,
      // as the demo stops its agents; closing an agent again below returns at once
      List<Thread> closing = agents.stream().map(a -> Thread.ofPlatform().start(a::close)).toList();
      for (Thread t : closing) t.join(60_000);
      for (int i = open.size() - 1; i >= 0; i--) {
        try {
          open.get(i).close();
        } catch (Exception e) {
          // keep closing the rest
        }
      }
    }
  }
}
