package dev.reed.coordinator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.Endpoints;
import dev.reed.proto.RttBound;
import dev.reed.proto.v1.CalibrationKind;
import dev.reed.proto.v1.CalibrationMeasurement;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.FitQuality;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.GroupMember;
import dev.reed.proto.v1.GroupObjective;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ListLandmarksRequest;
import dev.reed.proto.v1.LocateRequest;
import dev.reed.proto.v1.LocateResponse;
import dev.reed.proto.v1.PasswordFilter;
import dev.reed.proto.v1.RankForGroupRequest;
import dev.reed.proto.v1.RankForGroupResponse;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerFilter;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.proto.v1.SnapshotServiceGrpc;
import dev.reed.proto.v1.Stability;
import dev.reed.proto.v1.StreamOrderedServersRequest;
import dev.reed.proto.v1.StreamOrderedServersResponse;
import dev.reed.proto.v1.StreamSnapshotRequest;
import dev.reed.proto.v1.StreamSnapshotResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ReedService and SnapshotService in-process over a state with a known geometry (2-D plane, RTT = distance). */
class ReedServiceTest {
  static final int D = 2;
  Server server;
  ManagedChannel channel;
  ReedServiceGrpc.ReedServiceBlockingStub reed;
  SnapshotServiceGrpc.SnapshotServiceBlockingStub snapshots;
  final Map<String, double[]> truth = new HashMap<>();
  ServingState state;

  static Coordinate coord(double... v) {
    Coordinate.Builder b = Coordinate.newBuilder();
    for (double x : v) b.addComponents(x);
    return b.build();
  }

  /** 400 servers on a plane, 6 landmarks, some badly fitted; exact coordinates. */
  static ServingState world(Map<String, double[]> truth) {
    SplittableRandom r = new SplittableRandom(3);
    double[][] lp = {{0, 0}, {300, 0}, {0, 300}, {300, 300}, {150, 150}, {150, 400}};
    Map<String, ServerCoordinate> servers = new HashMap<>();
    List<ServerEntry> entries = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      double[] p = {r.nextDouble(300), r.nextDouble(300)};
      Endpoint e = Endpoint.newBuilder().setIp("10.0." + (i / 200) + "." + (i % 200 + 1)).setPort(27015).build();
      String key = Endpoints.key(e);
      truth.put(key, p);
      ServerCoordinate c = ServerCoordinate.newBuilder().setEndpoint(e)
          .setProtocol(i % 2 == 0 ? GameProtocol.GAME_PROTOCOL_A2S : GameProtocol.GAME_PROTOCOL_QUAKE3)
          .setCoordinate(coord(p))
          .setFit(FitQuality.newBuilder().setRelativeError(i % 10 == 0 ? 0.5 : 0.02).setLandmarksUsed(6))
          .setServerInfo(ServerInfo.newBuilder().setGame(i % 3 == 0 ? "cstrike" : "baseoa").setMap("Map" + (i % 5))
              .setPlayers(i % 4).setMaxPlayers(3).setPassword(i % 7 == 0))
          .setStability(Stability.newBuilder().setMedianRttUs(1000).setRounds(8))
          .addAllLandmarkRtts(i % 50 == 1 ? List.of() : landmarkRtts(p, lp))
          .build();
      servers.put(key, c);
      entries.add(new ServerEntry(key, CoordinateCodec.fromProto(c.getCoordinate(), D, key),
          CoordinateCodec.attributes(c.getServerInfo(), c.getProtocol())));
    }
    Map<String, LandmarkCoordinate> landmarks = new HashMap<>();
    List<ServingState.Anchor> anchors = new ArrayList<>();
    for (int i = 0; i < lp.length; i++) {
      Endpoint b = Endpoint.newBuilder().setIp("10.9.0." + (i + 1)).setPort(27015).build();
      truth.put(Endpoints.key(b), lp[i]);
      LandmarkCoordinate l = LandmarkCoordinate.newBuilder().setLandmarkId("lm" + i).setBeacon(b).setRegion("r" + i)
          .setCoordinate(coord(lp[i])).setFit(FitQuality.newBuilder().setRelativeError(0.01).setLandmarksUsed(5))
          .setEpoch(3).build();
      landmarks.put("lm" + i, l);
      anchors.add(new ServingState.Anchor("lm" + i, CoordinateCodec.fromProto(l.getCoordinate(), D, "lm")));
    }
    return new ServingState(RankingIndex.of(entries), Map.copyOf(servers), templates(servers), Map.copyOf(landmarks), anchors, Map.of(),
        Map.of(), 3, Instant.parse("2026-11-21T06:00:00Z"), D, false);
  }

  /** Each landmark's RTT to a point (the plane's distance), as the positioning round publishes them. */
  static List<LandmarkRtt> landmarkRtts(double[] p, double[][] lp) {
    List<LandmarkRtt> out = new ArrayList<>();
    for (int l = 0; l < lp.length; l++) {
      out.add(LandmarkRtt.newBuilder().setLandmarkId("lm" + l).setRttUs((int) Math.round(dist(p, lp[l]) * 1000) + 1).build());
    }
    return out;
  }

  static Map<String, dev.reed.coordinator.index.read.RankedTemplate> templates(Map<String, ServerCoordinate> servers) {
    Map<String, dev.reed.coordinator.index.read.RankedTemplate> out = new HashMap<>();
    dev.reed.coordinator.index.read.LandmarkNumbers numbers = new dev.reed.coordinator.index.read.LandmarkNumbers();
    servers.forEach((k, v) -> out.put(k, dev.reed.coordinator.index.read.RankedTemplate.of(v, numbers)));
    return Map.copyOf(out);
  }

  @BeforeEach
  void start() throws Exception {
    state = world(truth);
    Supplier<ServingState> s = () -> state;
    Clock clock = Clock.fixed(Instant.parse("2026-11-21T06:00:00Z"), ZoneOffset.UTC);
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(ServerInterceptors.intercept(new ReedServiceImpl(
            ReedServiceImpl.Dependencies.of(s, new CoordinateConfig(D, false), clock)), new StatusExceptionInterceptor()))
        .addService(ServerInterceptors.intercept(new SnapshotServiceImpl(s), new StatusExceptionInterceptor()))
        .build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    reed = ReedServiceGrpc.newBlockingStub(channel).withInterceptors(new EachCallDeadline(10));
    snapshots = SnapshotServiceGrpc.newBlockingStub(channel).withInterceptors(new EachCallDeadline(10));
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  static double dist(double[] a, double[] b) {
    return Math.hypot(a[0] - b[0], a[1] - b[1]);
  }

  @Test
  void withReportsOffTheReportIsRefusedAndPagesCarryNoFactor() {
    io.grpc.StatusRuntimeException e = org.assertj.core.api.Assertions.catchThrowableOfType(
        io.grpc.StatusRuntimeException.class, () -> reed.reportMeasurements(dev.reed.proto.v1.ReportMeasurementsRequest.newBuilder()
            .setClient(coord(1, 1)).build()));
    assertThat(e.getStatus().getCode()).isEqualTo(io.grpc.Status.Code.FAILED_PRECONDITION);
    assertThat(e.getStatus().getDescription()).contains("--no-reports");
    var page = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(150, 150)).setPageSize(20)
        .addLandmarkRtts(dev.reed.proto.v1.LandmarkRtt.newBuilder().setLandmarkId("lm-0").setRttUs(20_000)).build());
    assertThat(page.getServersList()).hasSize(20).allSatisfy(r -> assertThat(r.hasField(
        dev.reed.proto.v1.RankedServer.getDescriptor().findFieldByName("report_factor"))).isFalse());
    // the client's landmark RTTs are validated even so
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(150, 150))
        .addLandmarkRtts(dev.reed.proto.v1.LandmarkRtt.newBuilder().setLandmarkId("lm-0").setRttUs(0)).build()),
        "landmark_rtts[0].rtt_us must be 1-998999, got 0");
  }

  @Test
  void calibrationServersAreWellFittedOrBeaconsAndFollowTheCount() {
    GetCalibrationServersResponse r = reed.getCalibrationServers(GetCalibrationServersRequest.getDefaultInstance());
    assertThat(r.getServersCount()).isEqualTo(14);
    assertThat(r.getDimensions()).isEqualTo(D);
    Set<String> keys = new HashSet<>();
    r.getServersList().forEach(s -> {
      keys.add(Endpoints.key(s.getEndpoint()));
      assertThat(s.getFit().getRelativeError()).isLessThanOrEqualTo(0.15);
      if (s.getKind() == CalibrationKind.CALIBRATION_KIND_GAME_SERVER) {
        assertThat(state.servers()).containsKey(Endpoints.key(s.getEndpoint()));
      }
    });
    assertThat(keys).hasSize(14);
    GetCalibrationServersResponse q3 = reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(5)
        .setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).build());
    assertThat(q3.getServersList()).hasSize(5).allMatch(s -> s.getProtocol() == GameProtocol.GAME_PROTOCOL_QUAKE3);
    assertInvalid(() -> reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(2).build()),
        "count must be between");
    assertInvalid(() -> reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(65).build()),
        "count must be between");
  }

  @Test
  void nearAsksForTheEligibleCalibrationServersNearestToAPositionNearestFirst() {
    double[] at = {20, 280};
    GetCalibrationServersResponse r = reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(5)
        .setNear(coord(at)).build());
    assertThat(r.getServersCount()).isEqualTo(5);
    // the eligible pool: well-fitted game servers (error <= 0.15) and every landmark beacon
    List<double[]> pool = new ArrayList<>();
    state.servers().forEach((k, c) -> {
      if (c.getFit().getRelativeError() <= 0.15) pool.add(truth.get(k));
    });
    state.landmarks().values().forEach(l -> pool.add(truth.get(Endpoints.key(l.getBeacon()))));
    double[] nearest = pool.stream().mapToDouble(p -> dist(at, p)).sorted().limit(5).toArray();
    for (int i = 0; i < 5; i++) {
      CalibrationServer s = r.getServers(i);
      assertThat(dist(at, truth.get(Endpoints.key(s.getEndpoint())))).as("server %d", i)
          .isCloseTo(nearest[i], org.assertj.core.data.Offset.offset(1e-9));
      assertThat(s.getFit().getRelativeError()).isLessThanOrEqualTo(0.15);
    }
    // a position next to landmark 2's beacon gets that beacon first, with its landmark id
    GetCalibrationServersResponse beacon = reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(1)
        .setNear(coord(0.01, 300)).build());
    assertThat(beacon.getServersList()).singleElement().satisfies(s -> {
      assertThat(s.getKind()).isEqualTo(CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON);
      assertThat(s.getLandmarkId()).isEqualTo("lm2");
    });
    // protocol filter applies to the near phase too
    GetCalibrationServersResponse q3 = reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(8)
        .setNear(coord(at)).setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).build());
    assertThat(q3.getServersList()).hasSize(8).allMatch(s -> s.getProtocol() == GameProtocol.GAME_PROTOCOL_QUAKE3);
  }

  @Test
  void beaconsCarryTheirLandmarkIdAndGameServersNone() {
    GetCalibrationServersResponse r = reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(64).build());
    assertThat(r.getServersList()).anyMatch(s -> s.getKind() == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON);
    for (CalibrationServer s : r.getServersList()) {
      if (s.getKind() == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON) {
        LandmarkCoordinate l = state.landmarks().get(s.getLandmarkId());
        assertThat(l).as("landmark of beacon %s", Endpoints.key(s.getEndpoint())).isNotNull();
        assertThat(l.getBeacon()).isEqualTo(s.getEndpoint());
      } else {
        assertThat(s.getLandmarkId()).isEmpty();
      }
    }
  }

  @Test
  void kindSelectsBeaconsOrGameServersForSpreadAndNearSets() {
    GetCalibrationServersResponse beacons = reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(5)
        .setKind(CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON).build());
    assertThat(beacons.getServersList()).hasSize(5)
        .allMatch(s -> s.getKind() == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON && !s.getLandmarkId().isEmpty());
    // fewer beacons than asked: all six, no game server to make up the count
    assertThat(reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(14)
        .setKind(CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON).build()).getServersList()).hasSize(6);
    GetCalibrationServersResponse nearBeacons = reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(2)
        .setNear(coord(290, 290)).setKind(CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON).build());
    assertThat(nearBeacons.getServersList()).extracting(CalibrationServer::getLandmarkId).containsExactly("lm3", "lm5");
    assertThat(reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(30)
        .setKind(CalibrationKind.CALIBRATION_KIND_GAME_SERVER).build()).getServersList()).hasSize(30)
        .allMatch(s -> s.getKind() == CalibrationKind.CALIBRATION_KIND_GAME_SERVER);
    assertInvalid(() -> reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setKindValue(7).build()),
        "kind: unknown value 7");
  }

  @Test
  void badNearIsInvalidArgument() {
    assertInvalid(() -> reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setNear(coord(1, Double.NaN))
        .build()), "near component 1 is not finite");
    assertInvalid(() -> reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder()
        .setNear(coord(Double.NEGATIVE_INFINITY, 1)).build()), "near component 0 is not finite");
    assertInvalid(() -> reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setNear(coord(1, 2, 3))
        .build()), "near has 3 components, this deployment uses 2 dimensions");
    assertInvalid(() -> reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder()
        .setNear(coord(1, 2).toBuilder().setHeightMs(Double.NaN)).build()), "near height");
    assertInvalid(() -> reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setNear(coord(1, 2))
        .setCount(65).build()), "count must be between 1 and 64 with near");
  }

  @Test
  void rankedServersCarryTheLandmarksRttsInPagesStreamsAndGroupRankings() {
    GetOrderedServersResponse page = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(100, 100))
        .setPageSize(400).build());
    assertThat(page.getServersList()).hasSize(400);
    int without = 0;
    for (RankedServer s : page.getServersList()) {
      String key = Endpoints.key(s.getEndpoint());
      assertThat(s.getLandmarkRttsList()).isEqualTo(state.servers().get(key).getLandmarkRttsList());
      if (s.getLandmarkRttsCount() == 0) without++;
      else assertThat(s.getLandmarkRtts(2).getRttUs() / 1000.0)
          .isCloseTo(dist(truth.get(key), new double[] {0, 300}), org.assertj.core.data.Offset.offset(0.01));
    }
    assertThat(without).as("servers published without landmark RTTs stay without").isEqualTo(8);
    Iterator<StreamOrderedServersResponse> stream = reed.streamOrderedServers(StreamOrderedServersRequest.newBuilder()
        .setClient(coord(100, 100)).setPageSize(60).setMaxServers(100).build());
    List<RankedServer> streamed = new ArrayList<>();
    stream.forEachRemaining(m -> streamed.addAll(m.getServersList()));
    assertThat(streamed).isEqualTo(page.getServersList().subList(0, 100));
    RankForGroupResponse group = reed.rankForGroup(RankForGroupRequest.newBuilder()
        .addMembers(GroupMember.newBuilder().setCoordinate(coord(100, 100))).setPageSize(3).build());
    assertThat(group.getServers(0).getServer().getLandmarkRttsList())
        .isEqualTo(state.servers().get(Endpoints.key(group.getServers(0).getServer().getEndpoint())).getLandmarkRttsList());
  }

  /** The compact landmark RTTs resolved through a response's table, as landmark_rtts would carry them. */
  static List<LandmarkRtt> resolved(RankedServer s, List<String> table) {
    assertThat(s.getLandmarkRttsList()).as("compact servers carry no landmark_rtts").isEmpty();
    assertThat(s.getLandmarkRefsCount()).isEqualTo(s.getLandmarkRttUsCount());
    List<LandmarkRtt> out = new ArrayList<>();
    for (int i = 0; i < s.getLandmarkRefsCount(); i++) {
      assertThat(s.getLandmarkRefs(i)).isLessThan(table.size());
      out.add(LandmarkRtt.newBuilder().setLandmarkId(table.get(s.getLandmarkRefs(i))).setRttUs(s.getLandmarkRttUs(i)).build());
    }
    return out;
  }

  @Test
  void compactLandmarkRttsResolveToTheSameRttsInPagesStreamsAndGroupRankings() {
    GetOrderedServersRequest.Builder req = GetOrderedServersRequest.newBuilder().setClient(coord(100, 100)).setPageSize(230);
    GetOrderedServersResponse full = reed.getOrderedServers(req.build());
    GetOrderedServersResponse compact = reed.getOrderedServers(req.setCompactLandmarkRtts(true).build());
    assertThat(full.getLandmarkIdsList()).isEmpty();
    assertThat(compact.getLandmarkIdsList()).containsExactlyInAnyOrder("lm0", "lm1", "lm2", "lm3", "lm4", "lm5");
    assertThat(compact.getServersCount()).isEqualTo(230);
    int without = 0;
    for (int i = 0; i < 230; i++) {
      RankedServer f = full.getServers(i);
      RankedServer c = compact.getServers(i);
      assertThat(resolved(c, compact.getLandmarkIdsList())).isEqualTo(f.getLandmarkRttsList());
      if (c.getLandmarkRefsCount() == 0) without++;
      assertThat(c.toBuilder().clearLandmarkRefs().clearLandmarkRttUs().build())
          .as("all but the landmark RTTs as before").isEqualTo(f.toBuilder().clearLandmarkRtts().build());
    }
    assertThat(without).as("servers published without landmark RTTs stay without").isPositive();
    assertThat(compact.getSerializedSize()).isLessThan(full.getSerializedSize());
    assertThat(compact.getNextPageToken()).isEqualTo(full.getNextPageToken());

    Iterator<StreamOrderedServersResponse> stream = reed.streamOrderedServers(StreamOrderedServersRequest.newBuilder()
        .setClient(coord(100, 100)).setPageSize(60).setMaxServers(100).setCompactLandmarkRtts(true).build());
    List<LandmarkRtt> streamed = new ArrayList<>();
    stream.forEachRemaining(m -> m.getServersList().forEach(s -> streamed.addAll(resolved(s, m.getLandmarkIdsList()))));
    List<LandmarkRtt> paged = new ArrayList<>();
    full.getServersList().subList(0, 100).forEach(s -> paged.addAll(s.getLandmarkRttsList()));
    assertThat(streamed).isEqualTo(paged);

    RankForGroupResponse group = reed.rankForGroup(RankForGroupRequest.newBuilder()
        .addMembers(GroupMember.newBuilder().setCoordinate(coord(100, 100))).setPageSize(3).setCompactLandmarkRtts(true).build());
    RankedServer first = group.getServers(0).getServer();
    assertThat(resolved(first, group.getLandmarkIdsList()))
        .isEqualTo(state.servers().get(Endpoints.key(first.getEndpoint())).getLandmarkRttsList());
  }

  @Test
  void calibrationSetsRotateOverTime() {
    Set<String> first = calibrationAt(Instant.parse("2026-11-21T06:00:00Z"));
    assertThat(calibrationAt(Instant.parse("2026-11-21T06:05:00Z"))).as("same rotation period").isEqualTo(first);
    Set<String> later = calibrationAt(Instant.parse("2026-11-21T06:10:00Z"));
    assertThat(later).hasSize(14).isNotEqualTo(first);
  }

  Set<String> calibrationAt(Instant t) {
    ReedServiceImpl svc = new ReedServiceImpl(
        ReedServiceImpl.Dependencies.of(() -> state, new CoordinateConfig(D, false), Clock.fixed(t, ZoneOffset.UTC)));
    List<GetCalibrationServersResponse> out = new ArrayList<>();
    svc.getCalibrationServers(GetCalibrationServersRequest.getDefaultInstance(), new io.grpc.stub.StreamObserver<>() {
      @Override
      public void onNext(GetCalibrationServersResponse v) {
        out.add(v);
      }

      @Override
      public void onError(Throwable e) {
        throw new AssertionError(e);
      }

      @Override
      public void onCompleted() {}
    });
    Set<String> keys = new HashSet<>();
    out.getFirst().getServersList().forEach(s -> keys.add(Endpoints.key(s.getEndpoint())));
    return keys;
  }

  @Test
  void locateThenOrderedPagesFollowTrueDistanceAndPageThroughEverything() {
    double[] client = {40, 250};
    GetCalibrationServersResponse cal = reed.getCalibrationServers(GetCalibrationServersRequest.getDefaultInstance());
    LocateRequest.Builder lr = LocateRequest.newBuilder();
    cal.getServersList().forEach(s -> lr.addMeasurements(CalibrationMeasurement.newBuilder().setEndpoint(s.getEndpoint())
        .setRttUs((int) Math.round(dist(client, truth.get(Endpoints.key(s.getEndpoint()))) * 1000))));
    LocateResponse located = reed.locate(lr.build());
    assertThat(located.getCoordinate().getComponents(0)).isCloseTo(40, org.assertj.core.data.Offset.offset(1.0));
    assertThat(located.getCoordinate().getComponents(1)).isCloseTo(250, org.assertj.core.data.Offset.offset(1.0));

    List<RankedServer> all = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      GetOrderedServersResponse page = reed.getOrderedServers(GetOrderedServersRequest.newBuilder()
          .setClient(located.getCoordinate()).setPageSize(37).setPageToken(token).build());
      assertThat(page.getTotalMatching()).isEqualTo(400);
      all.addAll(page.getServersList());
      token = page.getNextPageToken();
      pages++;
    } while (!token.isEmpty());
    assertThat(pages).isEqualTo(11);
    assertThat(all).hasSize(400);
    assertThat(all.stream().map(s -> Endpoints.key(s.getEndpoint())).distinct().count()).isEqualTo(400);
    for (int i = 1; i < all.size(); i++) {
      assertThat(all.get(i).getPredictedRttUs()).isGreaterThanOrEqualTo(all.get(i - 1).getPredictedRttUs());
    }
    RankedServer first = all.getFirst();
    assertThat(first.getPredictedRttUs() / 1000.0)
        .isCloseTo(dist(client, truth.get(Endpoints.key(first.getEndpoint()))), org.assertj.core.data.Offset.offset(1.5));
    assertThat(first.getStability().getRounds()).isEqualTo(8);
    assertThat(first.getServerInfo().getMaxPlayers()).isEqualTo(3);

    Iterator<StreamOrderedServersResponse> stream = reed.streamOrderedServers(StreamOrderedServersRequest.newBuilder()
        .setClient(located.getCoordinate()).setPageSize(50).setMaxServers(120).build());
    List<RankedServer> streamed = new ArrayList<>();
    stream.forEachRemaining(m -> streamed.addAll(m.getServersList()));
    assertThat(streamed).hasSize(120);
    assertThat(streamed).isEqualTo(all.subList(0, 120));
  }

  @Test
  void filtersAndRttLimitApply() {
    GetOrderedServersResponse r = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(150, 150))
        .setFilter(ServerFilter.newBuilder().setGame("CSTRIKE").setNotFull(true).setNotEmpty(true)
            .setPassword(PasswordFilter.PASSWORD_FILTER_EXCLUDE).setRttLimitUs(100_000))
        .setPageSize(5000).build());
    assertThat(r.getServersList()).isNotEmpty().allSatisfy(s -> {
      assertThat(s.getServerInfo().getGame()).isEqualTo("cstrike");
      assertThat(s.getServerInfo().getPlayers()).isBetween(1, 2);
      assertThat(s.getServerInfo().getPassword()).isFalse();
      assertThat(s.getPredictedRttUs()).isLessThanOrEqualTo(100_000);
    });
    long expected = truth.entrySet().stream().filter(e -> state.servers().containsKey(e.getKey())).filter(e -> {
      ServerInfo i = state.servers().get(e.getKey()).getServerInfo();
      return i.getGame().equals("cstrike") && i.getPlayers() >= 1 && i.getPlayers() < 3 && !i.getPassword()
          && dist(e.getValue(), new double[] {150, 150}) <= 100;
    }).count();
    assertThat(r.getServersCount()).isEqualTo((int) expected);
    GetOrderedServersResponse q3 = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(1, 1))
        .setFilter(ServerFilter.newBuilder().setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).setMap("map1")).build());
    assertThat(q3.getServersList()).isNotEmpty()
        .allMatch(s -> s.getProtocol() == GameProtocol.GAME_PROTOCOL_QUAKE3 && s.getServerInfo().getMap().equals("Map1"));
  }

  @Test
  void badInputIsInvalidArgumentWithAMessageThatSaysWhatIsWrong() {
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(1, Double.NaN)).build()),
        "not finite");
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder()
        .setClient(coord(1, Double.POSITIVE_INFINITY)).build()), "not finite");
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(1, 2, 3)).build()),
        "3 components, this deployment uses 2 dimensions");
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.getDefaultInstance()), "client is required");
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(1, 2))
        .setPageSize(5001).build()), "page_size is too large");
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(1, 2))
        .setPageToken("garbage!!").build()), "page_token");
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(1, 2))
        .setFilter(ServerFilter.newBuilder().setPasswordValue(9)).build()), "filter.password");
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder()
        .setClient(coord(1, 2).toBuilder().setHeightMs(-1)).build()), "height");
    assertInvalid(() -> reed.locate(LocateRequest.newBuilder().addMeasurements(CalibrationMeasurement.newBuilder()
        .setEndpoint(Endpoint.newBuilder().setIp("10.0.0.1").setPort(27015)).setRttUs(1000)).build()), "measurements");
    LocateRequest.Builder unknown = LocateRequest.newBuilder();
    for (int i = 1; i <= 3; i++) {
      unknown.addMeasurements(CalibrationMeasurement.newBuilder()
          .setEndpoint(Endpoint.newBuilder().setIp("192.0.2." + i).setPort(1)).setRttUs(1000));
    }
    assertInvalid(() -> reed.locate(unknown.build()), "is not a server with a coordinate");
    LocateRequest.Builder badRtt = LocateRequest.newBuilder();
    for (int i = 1; i <= 3; i++) {
      badRtt.addMeasurements(CalibrationMeasurement.newBuilder()
          .setEndpoint(Endpoint.newBuilder().setIp("10.0.0." + i).setPort(27015)).setRttUs(i == 2 ? 0 : 1000));
    }
    assertInvalid(() -> reed.locate(badRtt.build()), "rtt_us must be 1-" + RttBound.MAX_US);
    assertInvalid(() -> reed.rankForGroup(RankForGroupRequest.getDefaultInstance()), "members");
    assertInvalid(() -> reed.rankForGroup(RankForGroupRequest.newBuilder().addMembers(GroupMember.newBuilder()
        .setMemberId("alice").setCoordinate(coord(Double.NaN, 1))).build()), "alice");
    assertInvalid(() -> snapshots.streamSnapshot(StreamSnapshotRequest.newBuilder().setChunkSize(20_000).build()).hasNext(),
        "chunk_size");
  }

  @Test
  void groupRankingMinimisesTheWorstMember() {
    double[] a = {10, 10};
    double[] b = {290, 10};
    RankForGroupResponse r = reed.rankForGroup(RankForGroupRequest.newBuilder()
        .addMembers(GroupMember.newBuilder().setMemberId("a").setCoordinate(coord(a)))
        .addMembers(GroupMember.newBuilder().setMemberId("b").setCoordinate(coord(b)))
        .setObjective(GroupObjective.GROUP_OBJECTIVE_MIN_MAX).setPageSize(10).build());
    assertThat(r.getServersCount()).isEqualTo(10);
    assertThat(r.getNextPageToken()).isNotEmpty();
    double best = truth.entrySet().stream().filter(e -> state.servers().containsKey(e.getKey()))
        .mapToDouble(e -> Math.max(dist(a, e.getValue()), dist(b, e.getValue()))).min().orElseThrow();
    assertThat(r.getServers(0).getServer().getPredictedRttUs() / 1000.0).isCloseTo(best, org.assertj.core.data.Offset.offset(0.01));
    assertThat(r.getServers(0).getMemberPredictedRttUsCount()).isEqualTo(2);
    RankForGroupResponse next = reed.rankForGroup(RankForGroupRequest.newBuilder()
        .addMembers(GroupMember.newBuilder().setCoordinate(coord(a)))
        .addMembers(GroupMember.newBuilder().setCoordinate(coord(b)))
        .setPageSize(10).setPageToken(r.getNextPageToken()).build());
    assertThat(next.getServers(0).getServer().getPredictedRttUs())
        .isGreaterThanOrEqualTo(r.getServers(9).getServer().getPredictedRttUs());
  }

  @Test
  void snapshotServiceStreamsTheWholeIndexAndTheLandmarks() {
    assertThat(snapshots.listLandmarks(ListLandmarksRequest.getDefaultInstance()).getLandmarksList())
        .hasSize(6).extracting(LandmarkCoordinate::getLandmarkId).startsWith("lm0", "lm1");
    Iterator<StreamSnapshotResponse> it = snapshots.streamSnapshot(StreamSnapshotRequest.newBuilder().setChunkSize(150).build());
    StreamSnapshotResponse head = it.next();
    assertThat(head.getHeader().getServerCount()).isEqualTo(400);
    assertThat(head.getHeader().getLandmarkEpoch()).isEqualTo(3);
    int n = 0;
    int chunks = 0;
    while (it.hasNext()) {
      n += it.next().getChunk().getServersCount();
      chunks++;
    }
    assertThat(n).isEqualTo(400);
    assertThat(chunks).isEqualTo(3);
  }

  @Test
  void anExpiredDeadlineIsReportedAsDeadlineExceeded() {
    assertThatThrownBy(() -> reed.withDeadlineAfter(0, TimeUnit.NANOSECONDS)
        .getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(1, 1)).build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
  }

  @Test
  void withoutALocationDatabaseNothingAboutLocationsIsServed() {
    // a stated location is validated, and otherwise changes nothing: no placement, no geo fields
    GetOrderedServersResponse plain = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(20, 30))
        .setPageSize(50).build());
    GetOrderedServersResponse located = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(20, 30))
        .setLocation(dev.reed.proto.v1.GeoPoint.newBuilder().setLatitudeDeg(35).setLongitudeDeg(139)).setPageSize(50).build());
    assertThat(located).isEqualTo(plain);
    assertThat(plain.getServersList()).allMatch(r -> !r.hasPlacement() && r.getGeoPredictedRttUs() == 0 && r.getUncertaintyUs() == 0);
    GetCalibrationServersResponse cal = reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder()
        .setLocation(dev.reed.proto.v1.GeoPoint.newBuilder().setLatitudeDeg(35).setLongitudeDeg(139)).build());
    assertThat(cal.hasClientPlacement()).isFalse();
    assertThat(cal.hasFusion()).isFalse();
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder()
        .setLocation(dev.reed.proto.v1.GeoPoint.newBuilder().setLatitudeDeg(35).setLongitudeDeg(139)).build()),
        "client is required");
    assertInvalid(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(20, 30))
        .setLocation(dev.reed.proto.v1.GeoPoint.newBuilder().setLatitudeDeg(35).setLongitudeDeg(181)).build()), "longitude_deg");
  }

  @Test
  void aZeroProbeRankingBeforeTheFirstTrainingIsUnavailable() throws Exception {
    dev.reed.coordinator.location.GeoModel untrained = new dev.reed.coordinator.location.GeoModel(true, Map.of(), Map.of(), null, Map.of(), 10,
        Instant.EPOCH);
    String name = InProcessServerBuilder.generateName();
    Server s = InProcessServerBuilder.forName(name).directExecutor()
        .addService(ServerInterceptors.intercept(new ReedServiceImpl(ReedServiceImpl.Dependencies
            .of(() -> state, new CoordinateConfig(D, false), Clock.systemUTC()).withGeo(() -> untrained, null)), new StatusExceptionInterceptor()))
        .build().start();
    ManagedChannel ch = InProcessChannelBuilder.forName(name).directExecutor().build();
    try {
      ReedServiceGrpc.ReedServiceBlockingStub stub = ReedServiceGrpc.newBlockingStub(ch);
      dev.reed.proto.v1.GeoPoint tokyo = dev.reed.proto.v1.GeoPoint.newBuilder().setLatitudeDeg(35).setLongitudeDeg(139).build();
      assertThatThrownBy(() -> stub.getOrderedServers(GetOrderedServersRequest.newBuilder().setLocation(tokyo).build()))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(e.getStatus().getDescription()).contains("not trained yet");
          });
      // without location or address (in-process: no peer address) there is no prior at all
      assertInvalid(() -> stub.getOrderedServers(GetOrderedServersRequest.getDefaultInstance()), "location");
      // with a coordinate: today's order, the stated location echoed as the client's placement
      GetOrderedServersResponse page = stub.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(20, 30))
          .setLocation(tokyo).setPageSize(20).build());
      assertThat(page.getServersList()).extracting(RankedServer::getEndpoint).containsExactlyElementsOf(
          reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(coord(20, 30)).setPageSize(20).build())
              .getServersList().stream().map(RankedServer::getEndpoint).toList());
      assertThat(stub.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setLocation(tokyo).build())
          .getClientPlacement().getSource()).isEqualTo(dev.reed.proto.v1.LocationSource.LOCATION_SOURCE_CLIENT);
    } finally {
      ch.shutdownNow();
      s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  static void assertInvalid(Runnable call, String messagePart) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
      assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThat(e.getStatus().getDescription()).contains(messagePart);
    });
  }
}
