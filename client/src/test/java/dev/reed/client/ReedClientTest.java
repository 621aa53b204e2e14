package dev.reed.client;

import dev.reed.probe.NanoTicker;

import dev.reed.coordinates.discovery.DiscoveryModel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.reed.coordinates.Coordinate;
import dev.reed.probe.ProbeTarget;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.PasswordFilter;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The SDK's discovery logic against an in-process fake coordinator and a fake prober. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReedClientTest {
  private static final int CALIB = 8;

  private FakeWorld world;
  private FakeReedService service;
  private Server server;
  private ManagedChannel channel;
  private FakeProber prober;
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @BeforeEach
  void setUp() throws IOException {
    world = FakeWorld.random(300, 42);
    service = new FakeReedService(world);
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).addService(service).build().start();
    channel = InProcessChannelBuilder.forName(name).build();
    prober = new FakeProber(world, 0);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : closeables) c.close();
    prober.close();
    channel.shutdownNow();
    server.shutdownNow();
  }

  private ReedClient.Builder builder() {
    return ReedClient.builder().channel(channel, "in-process").prober(prober).rate(20_000)
        .rpcDeadline(Duration.ofSeconds(5)).calibrationCount(CALIB);
  }

  private ReedClient client() {
    return track(builder().build());
  }

  private <T extends AutoCloseable> T track(T c) {
    closeables.add(c);
    return c;
  }

  private List<String> listProbeKeys() {
    synchronized (prober.sent) {
      return prober.sent.stream().map(ProbeTarget::address).map(Endpoints::key)
          .filter(k -> world.calibration.stream().noneMatch(c -> c.key().equals(k))).toList();
    }
  }

  @Test
  void firstNCloseFindsTheClosestServersWithCalibrationPlusNProbes() {
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));

    assertThat(r.method()).isEqualTo(DiscoveryResult.Method.REED);
    assertThat(r.stopReason()).isEqualTo(DiscoveryResult.StopReason.STOP_RULE);
    assertThat(r.calibrationProbes()).isEqualTo(CALIB);
    assertThat(r.probes()).isEqualTo(CALIB + 10);
    assertThat(r.probesNeeded()).isEqualTo(CALIB + 10);
    assertThat(r.servers()).extracting(DiscoveredServer::key).containsExactlyElementsOf(world.closestKeys(10));
    assertThat(r.position().source()).isEqualTo(ClientPosition.Source.LOCAL);
    assertThat(r.position().coordinate().distanceTo(world.client)).isLessThan(1.0);
    for (DiscoveredServer s : r.servers()) {
      assertThat(s.predictedMs()).isCloseTo(s.rttMs(), within(1.5));
      assertThat(s.name()).startsWith("server-");
    }
  }

  @Test
  void calibrationProbesASpreadSetThenTheServersNearestToTheRoughPosition() {
    world.calibration.clear();
    for (int i = 0; i < 20; i++) { // beacons on a ring, the client at the origin near beacon 0's side
      double a = 2 * Math.PI * i / 20;
      world.calibration.add(new FakeWorld.Server(FakeWorld.address(21, i), dev.reed.proto.v1.GameProtocol.GAME_PROTOCOL_A2S,
          Coordinate.of(60 * Math.cos(a) + 50, 60 * Math.sin(a) + 7), dev.reed.proto.v1.ServerInfo.newBuilder().setName("b" + i).build(), true));
    }
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(3)));
    assertThat(r.calibrationProbes()).isEqualTo(CALIB);
    assertThat(service.calibrationRequests).hasSize(2);
    assertThat(service.calibrationRequests.get(0).hasNear()).isFalse();
    assertThat(service.calibrationRequests.get(0).getCount()).isEqualTo(CALIB);
    assertThat(service.calibrationRequests.get(0).getKind()).isEqualTo(dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON);
    var near = service.calibrationRequests.get(1);
    assertThat(near.hasNear()).isTrue();
    assertThat(near.getKind()).as("near phase: beacons").isEqualTo(dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON);
    assertThat(Coordinate.of(near.getNear().getComponents(0), near.getNear().getComponents(1)).distanceTo(world.client))
        .as("rough position from the spread phase").isLessThan(1.0);
    // spread phase: the first D+2 = 4 of the spread set; near phase: the 4 nearest to the client not probed yet
    List<String> calibrationProbed;
    synchronized (prober.sent) {
      calibrationProbed = prober.sent.subList(0, CALIB).stream().map(t -> Endpoints.key(t.address())).toList();
    }
    List<String> spread = calibrationProbed.subList(0, 4);
    List<String> nearest = world.calibration.stream().filter(b -> !spread.contains(b.key()))
        .sorted(Comparator.comparingDouble(world::rttMs)).limit(4).map(FakeWorld.Server::key).toList();
    assertThat(calibrationProbed.subList(4, CALIB)).containsExactlyElementsOf(nearest);
    assertThat(r.position().coordinate().distanceTo(world.client)).isLessThan(1.0);
  }

  @Test
  void aBeaconFartherThanTheNearCapIsNotANearCalibrationPoint() {
    world.calibration.clear();
    for (int i = 0; i < 6; i++) { // beacons 250 ms away all around; the spread phase probes 4 of them
      double a = 2 * Math.PI * i / 6;
      world.calibration.add(new FakeWorld.Server(FakeWorld.address(21, i), dev.reed.proto.v1.GameProtocol.GAME_PROTOCOL_A2S,
          Coordinate.of(250 * Math.cos(a), 250 * Math.sin(a)), dev.reed.proto.v1.ServerInfo.newBuilder().setName("b" + i).build(), true));
    }
    for (int i = 0; i < 4; i++) { // well-fitted game servers 20 ms away
      double a = 2 * Math.PI * i / 4 + 0.3;
      world.calibration.add(new FakeWorld.Server(FakeWorld.address(22, i), dev.reed.proto.v1.GameProtocol.GAME_PROTOCOL_A2S,
          Coordinate.of(20 * Math.cos(a), 20 * Math.sin(a)), dev.reed.proto.v1.ServerInfo.newBuilder().setName("g" + i).build(), true));
    }
    service.beacons = 6;
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(3)));
    assertThat(r.calibrationProbes()).isEqualTo(CALIB);
    List<String> calibrationProbed;
    synchronized (prober.sent) {
      calibrationProbed = prober.sent.subList(0, CALIB).stream().map(t -> Endpoints.key(t.address())).toList();
    }
    List<String> nearGameServers = world.calibration.subList(6, 10).stream().map(FakeWorld.Server::key).toList();
    assertThat(calibrationProbed.subList(4, CALIB)).as("the 2 unprobed beacons are %s ms away", 250)
        .containsExactlyInAnyOrderElementsOf(nearGameServers);
  }

  @Test
  void nearCalibrationOfAnyKindAsksOnceForTheNearestOfAnyKind() {
    service.beacons = 5;
    DiscoveryResult r = track(builder().nearCalibration(DiscoveryModel.NearCalibration.ANY).build()).discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
    assertThat(service.calibrationRequests).extracting(q -> q.getKind())
        .containsExactly(dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON,
            dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_UNSPECIFIED);
    assertThat(r.calibrationProbes()).isEqualTo(CALIB);
  }

  @Test
  void whenTheNearBeaconsRunOutTheNearPhaseIsToppedUpWithGameServers() {
    service.beacons = 5; // D+2 = 4 spread, then 1 beacon left for the 4 near calibration probes
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
    assertThat(service.calibrationRequests).extracting(q -> q.getKind())
        .containsExactly(dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON,
            dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON, dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_UNSPECIFIED);
    assertThat(r.calibrationProbes()).isEqualTo(CALIB);
    List<String> calibrationProbed;
    synchronized (prober.sent) {
      calibrationProbed = prober.sent.subList(0, CALIB).stream().map(t -> Endpoints.key(t.address())).toList();
    }
    assertThat(calibrationProbed).doesNotHaveDuplicates();
    List<String> beaconKeys = world.calibration.subList(0, 5).stream().map(FakeWorld.Server::key).toList();
    assertThat(calibrationProbed).as("every beacon, then game servers").containsAll(beaconKeys);
  }

  @Test
  void withTooFewBeaconsTheSpreadSetIsOfAnyKind() {
    service.beacons = 2; // fewer than D+1 = 3: the other 6 calibration servers are game servers
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
    // spread: beacons, too few, so any kind; near: beacons (none left), topped up with any kind
    assertThat(service.calibrationRequests).extracting(q -> q.getKind())
        .containsExactly(dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON,
            dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_UNSPECIFIED, dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON,
            dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_UNSPECIFIED);
    assertThat(r.calibrationProbes()).isEqualTo(CALIB);
    assertThat(r.position().coordinate().distanceTo(world.client)).isLessThan(1.0);
    // two beacon RTTs still feed the comparison (a little noise in this exact world): nearly the true 10
    assertThat(r.servers()).hasSize(10).extracting(DiscoveredServer::key).filteredOn(world.closestKeys(10)::contains)
        .hasSizeGreaterThanOrEqualTo(8);
  }

  @Test
  void aServerTheCoordinatesPutTooFarIsProbedEarlierThanksToItsLandmarkRtts() {
    // the truly nearest server, 2 ms from the client, published 75 ms away: the coordinator lists it ~15th
    FakeWorld.Server misplaced = world.servers.stream().filter(x -> x.info().getPlayers() < 16)
        .min(Comparator.comparingDouble(x -> Math.abs(world.rttMs(x) - 75))).orElseThrow();
    world.truePosition.put(misplaced.key(), Coordinate.of(2, 0));
    service.landmarkRtts = false;
    client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(30)));
    int without = listProbeKeys().indexOf(misplaced.key());
    prober.sent.clear();
    service.landmarkRtts = true;
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(30)));
    int with = listProbeKeys().indexOf(misplaced.key());
    assertThat(without).as("listed by its coordinate").isGreaterThanOrEqualTo(10);
    assertThat(with).as("probe index with landmark comparison (without: %d)", without).isLessThan(without).isLessThan(10);
    assertThat(r.closest(1)).extracting(DiscoveredServer::key).containsExactly(misplaced.key());
  }

  @Test
  void withoutLandmarkRttsServersAreProbedInAscendingPredictedOrder() {
    service.landmarkRtts = false;
    client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(50)));
    List<String> probed = listProbeKeys();
    assertThat(probed).hasSize(50).containsExactlyElementsOf(world.closestKeys(50));
  }

  @Test
  void intelligentNCloseProbesUntilTheWindowBringsNoImprovement() {
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(new StopRule.IntelligentClose(10, 20)));
    assertThat(r.probes()).isEqualTo(CALIB + 10 + 20);
    assertThat(r.probesNeeded()).isEqualTo(CALIB + 10 + 20);
    assertThat(r.closest(10)).extracting(DiscoveredServer::key).containsExactlyElementsOf(world.closestKeys(10));
  }

  @Test
  void rttStopStopsOnceTheRecentWindowIsBeyondTheLimit() {
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(new StopRule.RttStop(100, 10)));
    long within100 = world.servers.stream().filter(s -> world.rttMs(s) <= 100).count();
    assertThat(r.probes()).isEqualTo(CALIB + (int) within100 + 10);
    assertThat(r.servers()).filteredOn(s -> s.rttMs() <= 100).hasSize((int) within100);
  }

  @Test
  void rttLimitAsksTheCoordinatorForServersWithinLimitPlusDeltaAndProbesThemAll() {
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.rttLimit(100, 20)));
    assertThat(service.pageRequests.get(0).getFilter().getRttLimitUs()).isEqualTo(120_000);
    long within120 = world.servers.stream().filter(s -> world.rttMs(s) <= 120).count();
    assertThat(r.probes()).isEqualTo(CALIB + (int) within120);
    assertThat(r.probesNeeded()).isEqualTo(r.probes());
    assertThat(r.servers()).allMatch(s -> s.rttMs() <= 120.001);
  }

  @Test
  void exhaustivePagesThroughTheWholeList() {
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.exhaustive()).withPageSize(40));
    assertThat(r.stopReason()).isEqualTo(DiscoveryResult.StopReason.LIST_EXHAUSTED);
    assertThat(r.probes()).isEqualTo(CALIB + 300);
    assertThat(r.servers()).hasSize(300);
    assertThat(service.pageRequests).hasSizeGreaterThanOrEqualTo(8);
    assertThat(new HashSet<>(listProbeKeys())).hasSize(300);
  }

  /** Flagged servers: the option goes to the coordinator, and DEMOTE keeps them last in the probe order too. */
  @Test
  void flaggedServersAreProbedLastByDefaultAndTheOptionGoesToTheCoordinator() {
    List<String> nearest = world.closestKeys(3);
    service.flagged.add(nearest.get(0)); // the nearest server by prediction is an anycast front
    DiscoveryResult demoted = client().discover(DiscoveryRequest.defaults().withStop(StopRule.exhaustive()));
    assertThat(service.pageRequests.get(0).getFilter().getSuspectServers())
        .isEqualTo(dev.reed.proto.v1.SuspectServers.SUSPECT_SERVERS_DEMOTE);
    List<String> order = listProbeKeys();
    assertThat(order).hasSizeGreaterThan(250).doesNotHaveDuplicates().endsWith(nearest.get(0));
    assertThat(demoted.servers()).extracting(DiscoveredServer::key).contains(nearest.get(0)); // still found, just last

    prober.sent.clear();
    service.pageRequests.clear();
    track(builder().suspectServers(SuspectServers.INCLUDE).build())
        .discover(DiscoveryRequest.defaults().withStop(StopRule.first(3)));
    assertThat(service.pageRequests.get(0).getFilter().getSuspectServers())
        .isEqualTo(dev.reed.proto.v1.SuspectServers.SUSPECT_SERVERS_INCLUDE);
    assertThat(listProbeKeys()).first().isEqualTo(nearest.get(0));

    service.pageRequests.clear();
    track(builder().suspectServers(SuspectServers.HIDE).build())
        .discover(DiscoveryRequest.defaults().withStop(StopRule.first(3)));
    assertThat(service.pageRequests.get(0).getFilter().getSuspectServers())
        .isEqualTo(dev.reed.proto.v1.SuspectServers.SUSPECT_SERVERS_HIDE);
  }

  @Test
  void filterGoesToTheCoordinator() {
    Filter f = Filter.none().withGame("BaseOA").withMap("oa_dm1").withNotFull(true).withNotEmpty(true)
        .withPassword(Filter.Password.EXCLUDE).withMinPlayers(1);
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withFilter(f).withStop(StopRule.exhaustive()));
    GetOrderedServersRequest req = service.pageRequests.get(0);
    assertThat(req.getFilter().getGame()).isEqualTo("baseoa");
    assertThat(req.getFilter().getMap()).isEqualTo("oa_dm1");
    assertThat(req.getFilter().getNotFull()).isTrue();
    assertThat(req.getFilter().getNotEmpty()).isTrue();
    assertThat(req.getFilter().getMinPlayers()).isEqualTo(1);
    assertThat(req.getFilter().getPassword()).isEqualTo(PasswordFilter.PASSWORD_FILTER_EXCLUDE);
    assertThat(r.servers()).isNotEmpty().allSatisfy(s -> {
      assertThat(s.info().getGame()).isEqualTo("baseoa");
      assertThat(s.players()).isLessThan(s.maxPlayers()).isPositive();
    });
  }

  @Test
  void aServerThatFilledUpSinceTheLandmarksSawItIsNotOffered() {
    Filter notFull = Filter.none().withNotFull(true);
    List<FakeWorld.Server> open = world.servers.stream().filter(s -> s.info().getPlayers() < s.info().getMaxPlayers())
        .sorted(Comparator.comparingDouble(world::rttMs)).toList();
    FakeWorld.Server nowFull = open.get(0);
    prober.replyOverride.put(nowFull.key(), nowFull.info().toBuilder().setPlayers(16).build());
    List<DiscoveryEvent> events = new CopyOnWriteArrayList<>();
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withFilter(notFull).withStop(StopRule.first(5)), events::add);
    assertThat(r.servers()).extracting(DiscoveredServer::key)
        .containsExactlyElementsOf(open.subList(1, 6).stream().map(FakeWorld.Server::key).toList());
    assertThat(r.probes()).isEqualTo(CALIB + 6);
    assertThat(events).anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(DiscoveryEvent.NoReply.class,
        n -> assertThat(n.detail()).isEqualTo("filtered: full (16/16)")));
  }

  @Test
  void traditionalFromAMasterListAppliesTheFilterToTheReplies() {
    List<ListedServer> list = world.servers.stream().map(s -> new ListedServer(s.address(), s.protocol())).toList();
    DiscoveryResult r = track(builder().traditionalList(ServerListSource.of(list)).build())
        .discoverTraditional(DiscoveryRequest.defaults().withFilter(Filter.none().withGame("baseoa")), DiscoveryListener.NONE);
    long baseoa = world.servers.stream().filter(s -> s.info().getGame().equals("baseoa")).count();
    assertThat(r.probes()).isEqualTo(300);
    assertThat(r.servers()).hasSize((int) baseoa).allMatch(s -> s.info().getGame().equals("baseoa"));
  }

  @Test
  void traditionalProbesTheWholeListInNoUsefulOrder() {
    DiscoveryResult r = client().discoverTraditional(DiscoveryRequest.defaults(), DiscoveryListener.NONE);
    assertThat(r.method()).isEqualTo(DiscoveryResult.Method.TRADITIONAL);
    assertThat(r.probes()).isEqualTo(300);
    assertThat(r.probesNeeded()).isEqualTo(300);
    assertThat(r.calibrationProbes()).isZero();
    assertThat(r.position()).isNull();
    assertThat(r.servers()).hasSize(300).allMatch(s -> Double.isNaN(s.predictedMs()));
    List<String> probed = listProbeKeys();
    assertThat(probed).containsExactlyInAnyOrderElementsOf(world.closestKeys(300));
    assertThat(probed.subList(0, 20)).isNotEqualTo(world.closestKeys(20));
  }

  @Test
  void eventsArriveInOrderForALiveView() {
    List<DiscoveryEvent> events = new CopyOnWriteArrayList<>();
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(5)), events::add);
    assertThat(events.get(0)).isInstanceOf(DiscoveryEvent.Positioned.class);
    assertThat(events.get(1)).isInstanceOf(DiscoveryEvent.Listed.class);
    assertThat(events.get(events.size() - 1)).isInstanceOfSatisfying(DiscoveryEvent.Stopped.class,
        s -> assertThat(s.probesSent()).isEqualTo(r.probes()));
    assertThat(events).filteredOn(e -> e instanceof DiscoveryEvent.ServerFound).hasSize(r.servers().size());
  }

  @Test
  void aThrowingListenerDoesNotBreakDiscovery() {
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(5)), e -> {
      throw new IllegalStateException("UI bug");
    });
    assertThat(r.servers()).hasSize(5);
  }

  @Test
  void repliesThatOvertakeEachOtherAreFedToTheStopRuleInProbeOrder() {
    // 1 ms of world RTT = 200 us real, 2-20 ms a reply against a probe every 0.5 ms: replies
    // overtake each other, and many probes are in flight however slow the machine
    prober = new FakeProber(world, 200);
    DiscoveryResult r = track(builder().rate(2000).build()).discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
    assertThat(r.probes()).isGreaterThan(CALIB + 10); // pipelined: more were in flight when the 10th answer came in
    assertThat(r.probesNeeded()).isEqualTo(CALIB + 10);
    assertThat(r.closest(10)).extracting(DiscoveredServer::key).containsExactlyElementsOf(world.closestKeys(10));
  }

  @Test
  @Timeout(60) // only a failure waits: the silent probe's timeout never comes
  void aSilentServerDoesNotHoldUpFirstNCloseForAProbeTimeout() {
    // the nearest listed server never answers: First N_close counts the answers as they arrive
    // instead of waiting for the silent one's timeout, which never comes here, so a rule that
    // waited would never stop; the default request learns from replies, so this also holds while
    // the order re-fits
    String nearest = world.closestKeys(1).getFirst();
    world.servers.replaceAll(s -> s.key().equals(nearest)
        ? new FakeWorld.Server(s.address(), s.protocol(), s.coordinate(), s.info(), false) : s);
    prober = new FakeProber(world, 200, true); // real time: 1 ms of world RTT = 200 us
    DiscoveryResult r = track(builder().rate(500).build()).discover(DiscoveryRequest.defaults().withStop(StopRule.first(5)));
    assertThat(r.stopReason()).isEqualTo(DiscoveryResult.StopReason.STOP_RULE);
    assertThat(r.servers()).hasSizeGreaterThanOrEqualTo(5);
    assertThat(r.servers()).extracting(DiscoveredServer::key).doesNotContain(nearest);
    assertThat(r.probesNeeded()).isLessThanOrEqualTo(r.probes());
  }

  @Test
  void locateRpcPositioningForThinClients() {
    DiscoveryResult r = track(builder().positioning(Positioning.LOCATE_RPC).build())
        .discover(DiscoveryRequest.defaults().withStop(StopRule.first(3)).withReposition(false));
    assertThat(r.position().source()).isEqualTo(ClientPosition.Source.LOCATE_RPC);
    // the coordinator solves the position from every calibration reply (the rough one of the spread
    // phase, which only picks the near points, is the policy's own)
    assertThat(service.locateRequests).hasSize(1);
    assertThat(service.locateRequests.get(0).getMeasurementsCount()).isEqualTo(CALIB);
    assertThat(r.position().coordinate().distanceTo(world.client)).isLessThan(1.0);
  }

  @Test
  void learnsFromRepliesAndAsksAgainFromAMovedPositionWithoutProbingTwice() {
    // every re-fit moves the position a little: with no tolerance the list is asked again each time
    DiscoveryModel eager = dev.reed.coordinates.ModelFile.with(DiscoveryModel.defaults(),
        java.util.Map.of("calibrationProbes", Integer.toString(CALIB), "refetchMovedMs", "0"));
    List<DiscoveryEvent> events = new CopyOnWriteArrayList<>();
    DiscoveryResult r = track(builder().model(eager).build()).discover(DiscoveryRequest.defaults().withStop(StopRule.first(60))
        .withPageSize(40), events::add);
    assertThat(events).filteredOn(e -> e instanceof DiscoveryEvent.Positioned p && p.reposition()).hasSizeGreaterThanOrEqualTo(2);
    assertThat(service.pageRequests.stream().filter(q -> q.getPageToken().isEmpty()).map(q -> q.getClient()).distinct().count())
        .isGreaterThanOrEqualTo(2);
    assertThat(service.locateRequests).isEmpty(); // the client re-fits itself from the coordinates in the pages
    List<String> probed = listProbeKeys();
    assertThat(new HashSet<>(probed)).hasSize(probed.size());
    assertThat(r.servers()).extracting(DiscoveredServer::key).containsExactlyInAnyOrderElementsOf(world.closestKeys(60));
    assertThat(r.position().source()).isEqualTo(ClientPosition.Source.LOCAL);
    assertThat(r.position().anchorsUsed()).isGreaterThan(CALIB);
  }

  @Test
  void withoutCoordinatesInThePagesTheServedOrderIsProbed() {
    service.coordinates = false;
    service.landmarkRtts = false;
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(30)));
    List<String> probed = listProbeKeys();
    // nothing to learn from: the coordinator's order, as served
    assertThat(probed).containsExactlyElementsOf(world.byPredictedDistance(r.position().coordinate()).subList(0, probed.size()));
    assertThat(r.servers()).hasSize(30);
  }

  @Test
  void tooFewCalibrationRepliesIsAClearError() {
    for (int i = 0; i < 6; i++) {
      FakeWorld.Server s = world.calibration.get(i);
      world.calibration.set(i, new FakeWorld.Server(s.address(), s.protocol(), s.coordinate(), s.info(), false));
    }
    assertThatThrownBy(() -> client().discover(DiscoveryRequest.defaults()))
        .isInstanceOfSatisfying(ReedClientException.class, e -> {
          assertThat(e.kind()).isEqualTo(ReedClientException.Kind.CALIBRATION_FAILED);
          assertThat(e.getMessage()).contains("only 2 of 8 calibration servers answered").contains("needs 3");
        });
  }

  @Test
  @Timeout(60) // only a failure waits: the silent probe's timeout never comes
  void aSilentCalibrationServerDoesNotCostAWholeProbeTimeout() {
    FakeWorld.Server s = world.calibration.get(3);
    world.calibration.set(3, new FakeWorld.Server(s.address(), s.protocol(), s.coordinate(), s.info(), false));
    // real time: beacons answer after ~250 ms; the silent one's timeout never comes, so calibration
    // ends only when it stops waiting for the straggler
    prober = new FakeProber(world, 1000, true);
    List<DiscoveryEvent> events = new CopyOnWriteArrayList<>();
    DiscoveryResult r = track(builder().build()).discover(DiscoveryRequest.defaults().withStop(StopRule.first(3)), events::add);
    DiscoveryEvent.Positioned p = (DiscoveryEvent.Positioned) events.get(0);
    assertThat(p.calibrationReplies()).isEqualTo(CALIB - 1);
    assertThat(r.calibrationProbes()).isEqualTo(CALIB);
    assertThat(r.position().coordinate().distanceTo(world.client)).isLessThan(1.0);
  }

  @Test
  void aCoordinatorWithoutCalibrationServersSaysSo() {
    world.calibration.clear();
    assertThatThrownBy(() -> client().discover(DiscoveryRequest.defaults()))
        .isInstanceOfSatisfying(ReedClientException.class, e -> {
          assertThat(e.kind()).isEqualTo(ReedClientException.Kind.CALIBRATION_FAILED);
          assertThat(e.getMessage()).contains("offers 0 calibration servers").contains("landmark agents");
        });
  }

  @Test
  void nanCoordinatesFromTheCoordinatorAreABadResponse() {
    service.nanCoordinates = true;
    assertThatThrownBy(() -> client().discover(DiscoveryRequest.defaults()))
        .isInstanceOfSatisfying(ReedClientException.class, e -> {
          assertThat(e.kind()).isEqualTo(ReedClientException.Kind.COORDINATOR_BAD_RESPONSE);
          assertThat(e.coordinatorFault()).isTrue();
          assertThat(e.getMessage()).contains("in-process").contains("0 usable calibration servers (8 invalid, e.g. ");
        });
  }

  @Test
  void someInvalidCalibrationServersAreDroppedAndTheRestUsed() {
    service.wrongDimensionsEvery = 2; // 4 of 8 have 3 components in a 2-D deployment, in each phase's reply
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
    assertThat(r.calibrationProbes()).isBetween(4, CALIB);
    synchronized (prober.sent) {
      assertThat(prober.sent.stream().map(t -> Endpoints.key(t.address())).distinct().count()).isEqualTo(prober.sent.size());
    }
    assertThat(r.servers()).extracting(DiscoveredServer::key).containsExactlyElementsOf(world.closestKeys(10));
  }

  @Test
  void rankedServersWithBadEndpointsAreSkipped() {
    service.badEndpointEvery = 2;
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.exhaustive()));
    assertThat(r.servers()).hasSize(150);
  }

  @Test
  void aPageOfNothingButGarbageIsABadResponse() {
    service.badEndpointEvery = 1;
    assertThatThrownBy(() -> client().discover(DiscoveryRequest.defaults()))
        .isInstanceOfSatisfying(ReedClientException.class, e -> {
          assertThat(e.kind()).isEqualTo(ReedClientException.Kind.COORDINATOR_BAD_RESPONSE);
          assertThat(e.getMessage()).contains("GetOrderedServers").contains("not a literal IP address");
        });
  }

  @Test
  void aStallingCoordinatorHitsTheDeadline() {
    service.stallMillis = 3000;
    ReedClient c = track(builder().rpcDeadline(Duration.ofMillis(200)).build());
    // without the deadline the call would succeed after the stall: the error kind is the proof
    assertThatThrownBy(() -> c.discover(DiscoveryRequest.defaults()))
        .isInstanceOfSatisfying(ReedClientException.class, e -> {
          assertThat(e.kind()).isEqualTo(ReedClientException.Kind.COORDINATOR_DEADLINE);
          assertThat(e.getMessage()).contains("did not answer GetCalibrationServers within 200 ms");
        });
  }

  @Test
  void aCoordinatorThatDiesMidListEndsWithWhatWasFound() {
    service.failPagesAfter = 1; // counts page calls: re-positioning would restart the list and fetch more
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.exhaustive()).withPageSize(20)
        .withReposition(false));
    assertThat(r.stopReason()).isEqualTo(DiscoveryResult.StopReason.COORDINATOR_FAILED);
    assertThat(r.probes()).isEqualTo(CALIB + 20);
    assertThat(r.servers()).hasSize(20);
    assertThat(r.coordinatorFailure()).contains("unreachable").contains("coordinator going down");
  }

  @Test
  void aCoordinatorThatIsDownIsAClearError() throws IOException {
    String target = "127.0.0.1:" + closedPort();
    try (ReedClient c = ReedClient.builder().coordinator(target).prober(prober).rpcDeadline(Duration.ofSeconds(5)).build()) {
      assertThatThrownBy(() -> c.discover(DiscoveryRequest.defaults()))
          .isInstanceOfSatisfying(ReedClientException.class, e -> {
            assertThat(e.kind()).isEqualTo(ReedClientException.Kind.COORDINATOR_UNAVAILABLE);
            assertThat(e.getMessage()).contains("coordinator " + target + " is unreachable (GetCalibrationServers)");
          });
    }
  }

  @Test
  void aCoordinatorDownFallsBackToTraditionalWhenAsked() throws IOException {
    List<ListedServer> list = world.servers.stream().map(s -> new ListedServer(s.address(), s.protocol())).toList();
    List<DiscoveryEvent> events = new CopyOnWriteArrayList<>();
    try (ReedClient c = ReedClient.builder().coordinator("127.0.0.1:" + closedPort()).prober(prober).rate(20_000)
        .traditionalList(ServerListSource.of(list)).fallbackToTraditional(true).build()) {
      DiscoveryResult r = c.discover(DiscoveryRequest.defaults(), events::add);
      assertThat(r.method()).isEqualTo(DiscoveryResult.Method.TRADITIONAL_FALLBACK);
      assertThat(r.probes()).isEqualTo(300);
      assertThat(r.servers()).hasSize(300);
      assertThat(r.coordinatorFailure()).contains("unreachable");
      assertThat(events).first().isInstanceOf(DiscoveryEvent.FallingBack.class);
    }
  }

  @Test
  void somethingThatIsNotACoordinatorIsAClearError() throws Exception {
    try (ServerSocket garbage = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread.ofVirtual().start(() -> {
        while (!garbage.isClosed()) {
          try (var s = garbage.accept()) {
            s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\nthis is not gRPC".getBytes());
          } catch (IOException e) {
            return;
          }
        }
      });
      String target = "127.0.0.1:" + garbage.getLocalPort();
      try (ReedClient c = ReedClient.builder().coordinator(target).prober(prober).rpcDeadline(Duration.ofSeconds(3)).build()) {
        assertThatThrownBy(() -> c.discover(DiscoveryRequest.defaults()))
            .isInstanceOfSatisfying(ReedClientException.class, e -> {
              assertThat(e.coordinatorFault()).isTrue();
              assertThat(e.getMessage()).contains("coordinator " + target);
            });
      }
    }
  }

  @Test
  void groupRankingReturnsOneListWithPerMemberPredictions() {
    List<GroupMember> members = List.of(new GroupMember("alice", Coordinate.of(0, 0)),
        new GroupMember("bob", Coordinate.of(100, 0)));
    GroupRanking g = client().rankForGroup(members, GroupObjective.MIN_MAX, 0, Filter.none(), 10);
    assertThat(g.servers()).hasSize(10);
    assertThat(g.servers()).isSortedAccordingTo(Comparator.comparingDouble(GroupServer::scoreMs));
    for (GroupServer s : g.servers()) {
      assertThat(s.memberPredictedMs()).hasSize(2);
      assertThat(s.scoreMs()).isCloseTo(Math.max(s.memberPredictedMs().get(0), s.memberPredictedMs().get(1)), within(0.01));
    }
    assertThat(prober.sent).isEmpty();
  }

  @Test
  void groupMembersMustShareTheDimensionCount() {
    List<GroupMember> members = List.of(new GroupMember("alice", Coordinate.of(0, 0)),
        new GroupMember("bob", Coordinate.of(1, 2, 3)));
    assertThatThrownBy(() -> client().rankForGroup(members, GroupObjective.MIN_MAX, 0, Filter.none(), 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bob has 3 dimensions");
  }

  @Test
  void theTimeLimitBoundsADiscovery() {
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
    NanoTicker tenMillisPerLook = () -> now.addAndGet(10_000_000L); // time flies: no real waiting
    DiscoveryResult r = track(builder().ticker(tenMillisPerLook).build())
        .discover(DiscoveryRequest.defaults().withStop(StopRule.exhaustive()).withMaxDuration(Duration.ofMillis(400)));
    assertThat(r.stopReason()).isEqualTo(DiscoveryResult.StopReason.TIME_LIMIT);
    assertThat(r.probes()).isLessThan(40);
    assertThat(r.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(400)).isLessThan(Duration.ofMillis(500));
  }

  @Test
  void aRecentPositionIsReusedWhenAllowed() {
    ReedClient c = track(builder().positionMaxAge(Duration.ofMinutes(1)).build());
    DiscoveryResult first = c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
    List<DiscoveryEvent> events = new CopyOnWriteArrayList<>();
    DiscoveryResult again = c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)), events::add);
    assertThat(first.calibrationProbes()).isEqualTo(CALIB);
    assertThat(again.calibrationProbes()).isZero();
    assertThat(again.probes()).isEqualTo(10);
    assertThat(again.position()).isEqualTo(first.position());
    assertThat(events.get(0)).isInstanceOfSatisfying(DiscoveryEvent.Positioned.class, p -> assertThat(p.calibrationReplies()).isZero());
    assertThat(prober.sentTo(world.calibration.get(0).key())).isEqualTo(1);
  }

  @Test
  void byDefaultEveryDiscoveryCalibrates() {
    ReedClient c = client();
    c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(3)));
    assertThat(c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(3))).calibrationProbes()).isEqualTo(CALIB);
  }

  @Test
  void aCalibrationServerThatIsAlsoListedIsNotProbedTwice() {
    FakeWorld.Server beacon = world.calibration.get(0);
    world.servers.add(beacon);
    DiscoveryResult r = client().discover(DiscoveryRequest.defaults().withStop(StopRule.exhaustive()));
    assertThat(prober.sentTo(beacon.key())).isEqualTo(1);
    assertThat(r.probes()).isEqualTo(CALIB + 300);
    assertThat(r.servers()).extracting(DiscoveredServer::key).contains(beacon.key());
    assertThat(r.servers()).hasSize(301);
  }

  @Test
  void builderRejectsBadOptionsClearly() {
    assertThatThrownBy(() -> ReedClient.builder().coordinator("no-port")).hasMessageContaining("HOST:PORT");
    assertThatThrownBy(() -> ReedClient.builder().coordinator("h:99999")).hasMessageContaining("1-65535");
    assertThatThrownBy(() -> ReedClient.builder().rate(0)).hasMessageContaining("rate");
    assertThatThrownBy(() -> ReedClient.builder().build()).hasMessageContaining("coordinator(HOST:PORT)");
    assertThatThrownBy(() -> ReedClient.builder().coordinator("h:1").fallbackToTraditional(true).build())
        .hasMessageContaining("traditionalList");
    assertThatThrownBy(() -> new Filter("", "", 0, false, false, Filter.Password.ANY, Double.NaN)).hasMessageContaining("rttLimitMs");
  }

  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** A stated location goes with every request that takes one; a zero-probe ranking needs no probe. */
  @Test
  void aStatedLocationIsSentAndAZeroProbeRankingProbesNothing() {
    ReedClient c = track(builder().location(35.68, 139.69).build());
    c.discover(DiscoveryRequest.defaults().withStop(StopRule.first(10)));
    dev.reed.proto.v1.GeoPoint tokyo = dev.reed.proto.v1.GeoPoint.newBuilder().setLatitudeDeg(35.68).setLongitudeDeg(139.69)
        .build();
    assertThat(service.calibrationRequests).isNotEmpty().allMatch(r -> r.getLocation().equals(tokyo));
    assertThat(service.pageRequests).isNotEmpty().allMatch(r -> r.getLocation().equals(tokyo) && !r.getIgnoreLocation());
    // the fake places nobody (no client_placement in its calibration answer): no location fix is asked for
    assertThat(service.locateRequests).isEmpty();

    int probesBefore = prober.sent.size();
    service.pageRequests.clear();
    List<PredictedServer> ranked = c.rankByLocation(Filter.none(), 20);
    assertThat(ranked).hasSize(20);
    assertThat(prober.sent).hasSize(probesBefore);
    assertThat(service.pageRequests.getFirst().hasClient()).isFalse();
    for (int i = 1; i < ranked.size(); i++) {
      assertThat(ranked.get(i).predictedMs()).isGreaterThanOrEqualTo(ranked.get(i - 1).predictedMs());
    }
    assertThat(ranked).allSatisfy(p -> {
      assertThat(p.uncertaintyMs()).isCloseTo(p.predictedMs() / 10, org.assertj.core.data.Offset.offset(0.002));
      assertThat(p.country()).isEqualTo("JP");
    });
    // without a location the coordinator cannot place this client: a clear refusal
    ReedClientException e = org.junit.jupiter.api.Assertions.assertThrows(ReedClientException.class,
        () -> client().rankByLocation(Filter.none(), 20));
    assertThat(e.kind()).isEqualTo(ReedClientException.Kind.COORDINATOR_REJECTED);
    assertThat(e.getMessage()).contains("no location prior");
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> builder().location(95, 0));
  }
}
