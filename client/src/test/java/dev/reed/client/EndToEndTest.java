package dev.reed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.agent.AgentConfig;
import dev.reed.agent.LandmarkAgent;
import dev.reed.coordinator.Coordinator;
import dev.reed.coordinator.CoordinatorConfig;
import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.kafka.KafkaExtension;
import dev.reed.testbed.openarena.OpenArenaServer;
import dev.reed.testbed.qstat.QStat;
import dev.reed.testbed.relay.DelayingUdpRelay;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * REED discovery against real parts: an embedded Kafka broker, the real coordinator, eight landmark
 * agents (their beacons calibrate the client), 200 emulated A2S/Quake3 servers (probe module's
 * {@link GameQueryResponder}, each reply delayed by the emulated RTT to the prober) and, when
 * installed, real OpenArena servers behind delaying relays, all at distinct 127.40.x.y addresses
 * of an {@link EmulatedInternet}. The client probes from its own address there, so it sees the
 * emulated latencies over real sockets.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
@Tag("integration")
class EndToEndTest {
  private static final Logger log = LoggerFactory.getLogger(EndToEndTest.class);
  private static final int SERVERS = 200;
  private static final int LANDMARKS = 8;

  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir static Path dir;

  private static final EmulatedInternet net = new EmulatedInternet();
  private static int clientHost;
  private static int friendHost;
  private static final List<GameQueryResponder> emulated = new ArrayList<>();
  private static final List<OpenArenaServer> openArena = new ArrayList<>();
  private static final List<DelayingUdpRelay> relays = new ArrayList<>();
  private static final List<LandmarkAgent> agents = new ArrayList<>();
  private static Coordinator coordinator;
  /** server key -> emulated host, for the true RTTs */
  private static final Map<String, Integer> hostOf = new HashMap<>();
  private static int quake3Servers;
  private static int a2sServers;
  private static final int[] landmarkHosts = new int[LANDMARKS];

  @BeforeAll
  static void startTheWorld() throws Exception {
    double[][] landmarkAt = {{-130, -120}, {120, -130}, {-120, 125}, {130, 120}, {0, -160}, {-165, 0}, {160, 10}, {5, 150}};
    for (int i = 0; i < LANDMARKS; i++) landmarkHosts[i] = net.add(landmarkAt[i][0], landmarkAt[i][1], 1);
    clientHost = net.add(30, -20, 8);
    friendHost = net.add(-140, 140, 8);
    Random rnd = new Random(2011);
    StringBuilder targets = new StringBuilder();
    for (int i = 0; i < SERVERS; i++) {
      int h = net.add(rnd.nextDouble() * 300 - 150, rnd.nextDouble() * 300 - 150, 1 + rnd.nextDouble() * 5);
      boolean q3 = i % 2 == 0;
      ServerInfo info = ServerInfo.newBuilder().setName("emulated-" + i).setMap(q3 ? "oa_dm" + (1 + i % 5) : "de_dust2")
          .setGame(q3 ? "baseoa" : "cstrike").setPlayers(i % 9).setMaxPlayers(16).setVersion("1").build();
      GameQueryResponder r = GameQueryResponder.start(new java.net.InetSocketAddress(net.address(h), 0), () -> info,
          net.replyDelay(h));
      emulated.add(r);
      targets.append(q3 ? "q3 " : "a2s ").append(Endpoints.key(r.localAddress())).append('\n');
      hostOf.put(Endpoints.key(r.localAddress()), h);
      if (q3) quake3Servers++;
      else a2sServers++;
    }
    if (OpenArenaServer.isInstalled()) {
      double[][] oaAt = {{35, -15}, {140, 140}};
      for (int i = 0; i < oaAt.length; i++) {
        int h = net.add(oaAt[i][0], oaAt[i][1], 2);
        OpenArenaServer server = OpenArenaServer.start(OpenArenaServer.Options.defaults()
            .withHostname(i == 0 ? "reed e2e near" : "reed e2e far").withMap(i == 0 ? "oa_dm1" : "oa_dm4"));
        openArena.add(server);
        DelayingUdpRelay relay = DelayingUdpRelay.start(new InetSocketAddress(net.address(h), 0), server.address(),
            net.pathDelay(h));
        relays.add(relay);
        targets.append("q3 ").append(Endpoints.key(relay.address())).append('\n');
        hostOf.put(Endpoints.key(relay.address()), h);
        quake3Servers++;
      }
    }
    Path targetsFile = dir.resolve("targets.txt");
    Files.writeString(targetsFile, targets);

    String kafka = KAFKA.broker().bootstrapServers();
    coordinator = Coordinator.start(CoordinatorConfig.builder(kafka).bindAddress("127.0.0.1").grpcPort(0)
        .quake3MasterPort(0).valveMasterPort(0).metricsPort(-1).targetsFile(targetsFile)
        .roundInterval(Duration.ofSeconds(1)).leaderElection("standalone").build());
    for (int i = 0; i < LANDMARKS; i++) {
      int h = landmarkHosts[i];
      InetAddress at = net.address(h);
      agents.add(LandmarkAgent.start(AgentConfig.builder("lm-" + i, kafka).loopback().region("plane-" + i)
          .bind(new InetSocketAddress(at, 0)).beacon(new InetSocketAddress(at, 0)).targetsFile(targetsFile)
          .rate(2000).spoolDir(dir.resolve("spool-" + i)).beaconDelay(net.replyDelay(h)).seed(i + 1).build()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(LANDMARKS);
    try {
      for (int round = 0; round < 3; round++) {
        List<Future<?>> done = new ArrayList<>();
        for (LandmarkAgent a : agents) done.add(pool.submit(a::runRound));
        for (Future<?> f : done) f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    int expected = hostOf.size();
    Awaitility.await("the coordinator positions every server").atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> coordinator.servingState().index().size() >= expected
            && coordinator.servingState().landmarks().size() == LANDMARKS);
  }

  @AfterAll
  static void stopTheWorld() throws Exception {
    for (LandmarkAgent a : agents) a.close();
    if (coordinator != null) coordinator.close();
    for (DelayingUdpRelay r : relays) r.close();
    for (OpenArenaServer s : openArena) s.close();
    for (GameQueryResponder r : emulated) r.close();
  }

  private static ReedClient.Builder client() {
    InetSocketAddress grpc = coordinator.grpcAddress();
    return ReedClient.builder().coordinator(grpc.getAddress().getHostAddress() + ":" + grpc.getPort())
        .bind(new InetSocketAddress(net.address(clientHost), 0)).rate(140);
  }

  private static double trueRtt(String key) {
    return net.rttMs(clientHost, hostOf.get(key));
  }

  private static List<String> trulyClosest(int k) {
    return hostOf.keySet().stream().sorted(Comparator.comparingDouble(EndToEndTest::trueRtt)).limit(k).toList();
  }

  private static long overlap(List<DiscoveredServer> found, List<String> truth) {
    Set<String> t = new HashSet<>(truth);
    return found.stream().filter(s -> t.contains(s.key())).count();
  }

  private static String line(String label, DiscoveryResult r) {
    return String.format(Locale.ROOT, "%-12s %4d probes (%2d calibration, %3d needed) %6.2f s  %3d servers  mean %.1f ms  median %.1f ms",
        label, r.probes(), r.calibrationProbes(), r.probesNeeded(), r.seconds(), r.servers().size(), r.meanRttMs(), r.medianRttMs());
  }

  @Test
  void reedFindsTheNearestServersWithFarFewerProbesThanTraditional() {
    // a fresh client per discovery, as ./reed browse runs: no warm-up, no reused position
    List<DiscoveryEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    DiscoveryResult first = discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)), events);
    DiscoveryResult intelligent = discover(DiscoveryRequest.defaults().withStop(new StopRule.IntelligentClose(10, 20)), null);
    DiscoveryResult traditional;
    try (ReedClient c = client().build()) {
      traditional = c.discoverTraditional(DiscoveryRequest.defaults(), DiscoveryListener.NONE);
    }
    events.stream().filter(e -> e instanceof DiscoveryEvent.Positioned).findFirst().ifPresent(e ->
        log.info("first(10) positioned after {} ms: {}", ((DiscoveryEvent.Positioned) e).elapsed().toMillis(),
            ((DiscoveryEvent.Positioned) e).position()));
    List<String> truth10 = trulyClosest(10);
    log.info("end-to-end, {} servers, {} landmarks, 140 probes/s:", hostOf.size(), LANDMARKS);
    for (var e : Map.of("first(10)", first, "intelligent", intelligent, "traditional", traditional).entrySet()) {
      DiscoveryResult r = e.getValue();
      log.info(line(e.getKey(), r) + "  true 10 nearest: " + overlap(r.servers(), truth10) + " found, "
          + overlap(r.closest(10), truth10) + " among its 10 lowest measured");
    }

    // Measured RTTs include this machine's scheduling delays (the test JVM runs Kafka, the
    // coordinator, agents and 200 responders; the machine is shared), so exact rankings by
    // measured RTT are noisy for every method alike. What must hold whatever the load:
    double populationMeanTrue = hostOf.keySet().stream().mapToDouble(EndToEndTest::trueRtt).average().orElseThrow();
    assertThat(traditional.probes()).isEqualTo(hostOf.size());
    assertThat(traditional.servers().size()).isGreaterThan(hostOf.size() * 9 / 10);
    assertThat(overlap(traditional.servers(), truth10)).isGreaterThanOrEqualTo(9);

    // First N_close: a fraction of the probes the rule needed (the paper's measure; probes sent also
    // count those in flight at the decision, which a scheduling stall of this machine inflates),
    // servers truly close.
    // Wall times are logged, not asserted: on the shared machine they measure its load.
    assertThat(first.method()).isEqualTo(DiscoveryResult.Method.REED);
    assertThat(first.servers()).hasSizeGreaterThanOrEqualTo(10);
    assertThat(first.probesNeeded() * 4).isLessThan(traditional.probes());
    assertThat(first.probes()).isLessThan(traditional.probes());
    assertThat(meanTrueRtt(first.servers())).isLessThan(populationMeanTrue * 0.6);

    // Intelligent N_close probes on until the best set settles: it finds the true nearest
    // (~22 % on a quiet machine; a stall that reorders measured RTTs makes it probe longer)
    assertThat(intelligent.probesNeeded() * 3).isLessThan(traditional.probes() * 2);
    assertThat(intelligent.probes()).isLessThan(traditional.probes());
    assertThat(overlap(intelligent.servers(), truth10)).isGreaterThanOrEqualTo(8);
    for (DiscoveryResult r : List.of(first, intelligent, traditional)) {
      for (DiscoveredServer s : r.servers()) {
        assertThat(s.rttMs()).as("measured RTT of %s is never below the emulated path", s.key())
            .isGreaterThan(trueRtt(s.key()) - 1.0);
      }
    }
  }

  private static DiscoveryResult discover(DiscoveryRequest request, List<DiscoveryEvent> events) {
    try (ReedClient c = client().build()) {
      return c.discover(request, events == null ? DiscoveryListener.NONE : events::add);
    }
  }

  @Test
  void learningFromRepliesWithTheRealCoordinatorKeepsFindingTheNearest() {
    List<DiscoveryEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();
    DiscoveryResult r = discover(DiscoveryRequest.defaults().withStop(new StopRule.IntelligentClose(10, 20))
        .withReposition(true), events);
    long repositions = events.stream().filter(e -> e instanceof DiscoveryEvent.Positioned p && p.reposition()).count();
    log.info("asked the list again from {} moved positions; final {}", repositions, r.position());
    assertThat(r.position().source()).isEqualTo(ClientPosition.Source.LOCAL);
    assertThat(r.position().anchorsUsed()).as("re-fitted from the replies").isGreaterThan(r.calibrationProbes());
    assertThat(overlap(r.servers(), trulyClosest(10))).isGreaterThanOrEqualTo(8);
    assertThat(r.servers().stream().map(DiscoveredServer::key).distinct().count()).isEqualTo(r.servers().size());
  }

  @Test
  void aGroupGetsOneListGoodForAll() {
    try (ReedClient c = client().build()) {
      // both members positioned from their true RTTs to the landmarks (locate() is tested above;
      // here the subject is RankForGroup, undisturbed by this machine's load)
      int far = friendHost; // a friend far away: the group's best servers lie between
      GroupRanking g = c.rankForGroup(List.of(new GroupMember("me", coordinateOf(clientHost)),
              new GroupMember("friend", coordinateOf(far))), GroupObjective.MIN_MAX, 0, Filter.none(), 10);
      assertThat(g.servers()).hasSize(10);
      for (GroupServer s : g.servers()) {
        assertThat(s.memberPredictedMs()).hasSize(2);
        assertThat(s.scoreMs()).isCloseTo(Math.max(s.memberPredictedMs().get(0), s.memberPredictedMs().get(1)),
            org.assertj.core.api.Assertions.within(0.01));
      }
      // the worst member's true RTT to the group's top pick beats that to my own nearest server
      int top = hostOf.get(g.servers().get(0).key());
      int mine = hostOf.get(trulyClosest(1).get(0));
      assertThat(Math.max(net.rttMs(clientHost, top), net.rttMs(far, top)))
          .isLessThan(Math.max(net.rttMs(clientHost, mine), net.rttMs(far, mine)));
    }
  }

  /** A host's coordinate from its true RTTs to the landmarks, solved as locate() solves it. */
  private static dev.reed.coordinates.Coordinate coordinateOf(int host) {
    var s = coordinator.servingState();
    List<dev.reed.coordinates.Coordinate> anchors = new ArrayList<>();
    List<Double> rtts = new ArrayList<>();
    for (var a : s.landmarkAnchors()) {
      var beacon = s.landmarks().get(a.landmarkId()).getBeacon();
      Integer h = hostOf.containsKey(Endpoints.key(beacon)) ? hostOf.get(Endpoints.key(beacon)) : landmarkHostOf(beacon);
      anchors.add(a.coordinate());
      rtts.add(net.rttMs(host, h));
    }
    return new dev.reed.coordinates.HostPositioner(new dev.reed.coordinates.CoordinateConfig(s.dimensions(), s.heightModel()))
        .position(anchors, rtts.stream().mapToDouble(Double::doubleValue).toArray(), null).coordinate();
  }

  private static int landmarkHostOf(dev.reed.proto.v1.Endpoint beacon) {
    for (int i = 0; i < agents.size(); i++) {
      if (Endpoints.key(agents.get(i).beaconAddress()).equals(Endpoints.key(beacon))) return landmarkHosts[i];
    }
    throw new AssertionError("unknown beacon " + Endpoints.key(beacon));
  }

  private static double meanTrueRtt(List<DiscoveredServer> servers) {
    return servers.stream().mapToDouble(s -> trueRtt(s.key())).average().orElseThrow();
  }

  @Test
  void reportedServersCarryTheRealServerInfoCheckedAgainstQuakestat() throws Exception {
    assumeTrue(OpenArenaServer.isInstalled(), "openarena-server is not installed (/usr/games/openarena-server)");
    assumeTrue(QStat.isInstalled(), "qstat is not installed (/usr/bin/quakestat)");
    DiscoveryResult r;
    try (ReedClient c = client().build()) {
      r = c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(20)));
    }
    InetSocketAddress near = relays.get(0).address();
    DiscoveredServer found = r.servers().stream().filter(s -> s.address().equals(near)).findFirst().orElseThrow(
        () -> new AssertionError("the OpenArena server next to the client was not found: " + r.servers()));
    QStat.Reply q = QStat.q3s(near, net.address(clientHost));
    log.info("quakestat: {}; REED: {} {} {}/{} {} ms", q, found.name(), found.map(), found.players(), found.maxPlayers(),
        found.rttMs());
    assertThat(q.up()).isTrue();
    assertThat(found.name()).isEqualTo(q.name()).isEqualTo("reed e2e near");
    assertThat(found.map()).isEqualToIgnoringCase(q.map()).isEqualToIgnoringCase("oa_dm1");
    assertThat(found.maxPlayers()).isEqualTo(q.maxPlayers());
    assertThat(found.players()).isEqualTo(q.players());
    assertThat(found.rttMs()).isGreaterThan(trueRtt(Endpoints.key(near)) - 1.0);
  }

  @Test
  void traditionalFromTheValveMasterFrontEnd() {
    try (ReedClient c = client().rate(1000).traditionalList(ServerListSource.valveMaster(coordinator.valveMasterAddress(), ""))
        .build()) {
      DiscoveryResult r = c.discoverTraditional(DiscoveryRequest.defaults(), DiscoveryListener.NONE);
      assertThat(r.probes()).isEqualTo(a2sServers);
      assertThat(r.servers().size()).isGreaterThan(a2sServers * 9 / 10);
      assertThat(r.servers()).allMatch(s -> s.protocol() == dev.reed.proto.v1.GameProtocol.GAME_PROTOCOL_A2S
          && s.info().getGame().equals("cstrike"));
    }
  }

  @Test
  void withTheCoordinatorDownItFallsBackToTheMasterList() throws Exception {
    int q3 = quake3Servers;
    int closed;
    try (var s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }
    try (ReedClient c = ReedClient.builder().coordinator("127.0.0.1:" + closed)
        .bind(new InetSocketAddress(net.address(clientHost), 0)).rate(1000)
        .traditionalList(ServerListSource.quake3Master(coordinator.quake3MasterAddress(), 68)).fallbackToTraditional(true)
        .build()) {
      DiscoveryResult r = c.discover(DiscoveryRequest.defaults());
      assertThat(r.method()).isEqualTo(DiscoveryResult.Method.TRADITIONAL_FALLBACK);
      assertThat(r.coordinatorFailure()).contains("unreachable");
      assertThat(r.probes()).isEqualTo(q3);
      assertThat(r.servers().size()).isGreaterThan(q3 * 9 / 10);
    }
  }
}
