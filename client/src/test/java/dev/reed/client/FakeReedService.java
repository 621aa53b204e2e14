package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.PositionFit;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.CalibrationKind;
import dev.reed.proto.v1.CalibrationMeasurement;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.FitQuality;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.GroupRankedServer;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.LocateRequest;
import dev.reed.proto.v1.LocateResponse;
import dev.reed.proto.v1.RankForGroupRequest;
import dev.reed.proto.v1.RankForGroupResponse;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.ReportMeasurementsRequest;
import dev.reed.proto.v1.ReportMeasurementsResponse;
import dev.reed.proto.v1.ServerFilter;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory ReedService over a {@link FakeWorld}, for the SDK's pure-logic tests (the real
 * coordinator is exercised in {@link EndToEndTest}). Knobs make it misbehave the ways a real one
 * can: stall past the deadline, answer garbage, fail after some pages.
 */
final class FakeReedService extends ReedServiceGrpc.ReedServiceImplBase {
  final FakeWorld world;
  final List<GetOrderedServersRequest> pageRequests = new CopyOnWriteArrayList<>();
  final List<LocateRequest> locateRequests = new CopyOnWriteArrayList<>();
  final AtomicInteger calls = new AtomicInteger();

  volatile long stallMillis;            // every call sleeps this long first
  volatile boolean nanCoordinates;       // calibration coordinates carry NaN
  volatile int wrongDimensionsEvery;     // every n-th calibration server has 3 components (0 = never)
  volatile int failPagesAfter = -1;      // GetOrderedServers fails with UNAVAILABLE after this many pages
  volatile Status failLocate;            // Locate fails with this status
  volatile int badEndpointEvery;         // every n-th ranked server has a host name instead of an IP (0 = never)
  volatile boolean landmarkRtts = true;   // ranked servers carry the beacons' RTTs to them (from their true position)
  volatile boolean coordinates = true;    // ranked servers carry their coordinates
  volatile int beacons = Integer.MAX_VALUE; // calibration servers from this index on are game servers, not beacons
  final List<GetCalibrationServersRequest> calibrationRequests = new CopyOnWriteArrayList<>();
  final List<ReportMeasurementsRequest> reportRequests = new CopyOnWriteArrayList<>();
  /** RankedServer.report_factor by server key (absent: unset). */
  final java.util.Map<String, Double> reportFactors = new java.util.concurrent.ConcurrentHashMap<>();
  /** Server keys the (fake) integrity check flags: RankedServer.predicted_rtt_unreliable, kind ANYCAST_OR_PROXY. */
  final java.util.Set<String> flagged = java.util.concurrent.ConcurrentHashMap.newKeySet();
  volatile Status failReports;            // ReportMeasurements fails with this status
  volatile java.util.concurrent.CountDownLatch holdReports; // ReportMeasurements answers only once this opens (null: at once)

  FakeReedService(FakeWorld world) {
    this.world = world;
  }

  @Override
  public void getCalibrationServers(GetCalibrationServersRequest req, StreamObserver<GetCalibrationServersResponse> out) {
    if (stall(out)) return;
    GetCalibrationServersResponse.Builder b = GetCalibrationServersResponse.newBuilder().setDimensions(2).setHeightModel(false);
    int n = req.getCount() == 0 ? 14 : req.getCount();
    calibrationRequests.add(req);
    int i = 0;
    List<FakeWorld.Server> order = new ArrayList<>(world.calibration);
    if (req.hasNear()) {
      Coordinate near = new Coordinate(req.getNear().getComponentsList().stream().mapToDouble(Double::doubleValue).toArray(), 0);
      order.sort(Comparator.comparingDouble(s -> near.distanceTo(s.coordinate())));
    }
    for (FakeWorld.Server s : order) {
      if (i >= n) break;
      boolean beacon = world.calibration.indexOf(s) < beacons;
      if (req.getKind() == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON && !beacon) continue;
      if (req.getKind() == CalibrationKind.CALIBRATION_KIND_GAME_SERVER && beacon) continue;
      dev.reed.proto.v1.Coordinate c = proto(s.coordinate());
      if (nanCoordinates) c = c.toBuilder().setComponents(0, Double.NaN).build();
      if (wrongDimensionsEvery > 0 && i % wrongDimensionsEvery == 0) c = c.toBuilder().addComponents(1).build();
      b.addServers(CalibrationServer.newBuilder().setEndpoint(Endpoints.of(s.address())).setProtocol(s.protocol())
          .setCoordinate(c).setKind(beacon ? CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON : CalibrationKind.CALIBRATION_KIND_GAME_SERVER)
          .setLandmarkId(beacon ? "lm" + world.calibration.indexOf(s) : "")
          .setFit(FitQuality.newBuilder().setRelativeError(0.05).setLandmarksUsed(8)));
      i++;
    }
    out.onNext(b.build());
    out.onCompleted();
  }

  @Override
  public void locate(LocateRequest req, StreamObserver<LocateResponse> out) {
    locateRequests.add(req);
    if (stall(out)) return;
    if (failLocate != null) {
      out.onError(failLocate.asRuntimeException());
      return;
    }
    List<Coordinate> anchors = new ArrayList<>();
    double[] rtt = new double[req.getMeasurementsCount()];
    for (int i = 0; i < rtt.length; i++) {
      CalibrationMeasurement m = req.getMeasurements(i);
      FakeWorld.Server s = world.find(Endpoints.toSocketAddress(m.getEndpoint()));
      if (s == null) {
        out.onError(Status.INVALID_ARGUMENT.withDescription("unknown server " + Endpoints.key(m.getEndpoint())).asRuntimeException());
        return;
      }
      anchors.add(s.coordinate());
      rtt[i] = m.getRttUs() / 1000.0;
    }
    PositionFit fit = new HostPositioner(new CoordinateConfig(2, false)).position(anchors, rtt, null);
    out.onNext(LocateResponse.newBuilder().setCoordinate(proto(fit.coordinate()))
        .setFit(FitQuality.newBuilder().setRelativeError(fit.relativeError()).setLandmarksUsed(fit.anchorsUsed())).build());
    out.onCompleted();
  }

  @Override
  public void getOrderedServers(GetOrderedServersRequest req, StreamObserver<GetOrderedServersResponse> out) {
    pageRequests.add(req);
    if (stall(out)) return;
    if (failPagesAfter >= 0 && pageRequests.size() > failPagesAfter) {
      out.onError(Status.UNAVAILABLE.withDescription("coordinator going down").asRuntimeException());
      return;
    }
    if (!req.hasClient()) {
      zeroProbe(req, out);
      return;
    }
    Coordinate client = new Coordinate(req.getClient().getComponentsList().stream().mapToDouble(Double::doubleValue).toArray(),
        req.getClient().getHeightMs());
    List<FakeWorld.Server> matching = world.servers.stream().filter(s -> matches(s, req.getFilter(), client))
        .sorted(Comparator.comparingDouble((FakeWorld.Server s) -> client.distanceTo(s.coordinate())).thenComparing(FakeWorld.Server::key))
        .toList();
    int from = req.getPageToken().isEmpty() ? 0 : Integer.parseInt(req.getPageToken());
    int size = req.getPageSize() == 0 ? 230 : req.getPageSize();
    int to = Math.min(matching.size(), from + size);
    GetOrderedServersResponse.Builder b = GetOrderedServersResponse.newBuilder().setTotalMatching(matching.size())
        .setNextPageToken(to < matching.size() ? Integer.toString(to) : "");
    int i = 0;
    for (FakeWorld.Server s : matching.subList(from, to)) {
      RankedServer r = ranked(s, client.distanceTo(s.coordinate()));
      if (badEndpointEvery > 0 && i++ % badEndpointEvery == 0) {
        r = r.toBuilder().setEndpoint(r.getEndpoint().toBuilder().setIp("server.example.com")).build();
      }
      b.addServers(r);
    }
    out.onNext(b.build());
    out.onCompleted();
  }

  /**
   * A zero-probe ranking as the coordinator answers it: servers by a stand-in geographic prediction
   * (their coordinate's distance from the origin), with an uncertainty; INVALID_ARGUMENT without a
   * location (this fake has no database for the client's address).
   */
  private void zeroProbe(GetOrderedServersRequest req, StreamObserver<GetOrderedServersResponse> out) {
    if (!req.hasLocation()) {
      out.onError(Status.INVALID_ARGUMENT.withDescription("no client coordinate and no location prior").asRuntimeException());
      return;
    }
    Coordinate origin = Coordinate.of(0, 0);
    GetOrderedServersResponse.Builder b = GetOrderedServersResponse.newBuilder();
    world.servers.stream().sorted(Comparator.comparingDouble((FakeWorld.Server s) -> origin.distanceTo(s.coordinate())))
        .limit(req.getPageSize()).forEach(s -> {
          double ms = origin.distanceTo(s.coordinate());
          b.addServers(ranked(s, ms).toBuilder().setGeoPredictedRttUs((int) Math.round(ms * 1000))
              .setUncertaintyUs((int) Math.round(ms * 100)).setPlacement(dev.reed.proto.v1.Placement.newBuilder()
                  .setCountry("JP").setSource(dev.reed.proto.v1.LocationSource.LOCATION_SOURCE_DATABASE)
                  .setPoint(req.getLocation())));
        });
    out.onNext(b.setTotalMatching(world.servers.size()).build());
    out.onCompleted();
  }

  @Override
  public void reportMeasurements(ReportMeasurementsRequest req, StreamObserver<ReportMeasurementsResponse> out) {
    reportRequests.add(req);
    var hold = holdReports;
    if (hold != null) {
      try {
        hold.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (failReports != null) {
      out.onError(failReports.asRuntimeException());
      return;
    }
    out.onNext(ReportMeasurementsResponse.newBuilder().setAccepted(req.getServersCount()).build());
    out.onCompleted();
  }

  @Override
  public void rankForGroup(RankForGroupRequest req, StreamObserver<RankForGroupResponse> out) {
    if (stall(out)) return;
    List<Coordinate> members = req.getMembersList().stream().map(m -> new Coordinate(
        m.getCoordinate().getComponentsList().stream().mapToDouble(Double::doubleValue).toArray(), m.getCoordinate().getHeightMs())).toList();
    Comparator<FakeWorld.Server> byWorst = Comparator.comparingDouble(s -> members.stream().mapToDouble(m -> m.distanceTo(s.coordinate())).max().orElseThrow());
    RankForGroupResponse.Builder b = RankForGroupResponse.newBuilder();
    world.servers.stream().filter(s -> matches(s, req.getFilter(), null)).sorted(byWorst).limit(req.getPageSize()).forEach(s -> {
      GroupRankedServer.Builder g = GroupRankedServer.newBuilder();
      double worst = 0;
      for (Coordinate m : members) {
        double d = m.distanceTo(s.coordinate());
        worst = Math.max(worst, d);
        g.addMemberPredictedRttUs((int) Math.round(d * 1000));
      }
      b.addServers(g.setServer(ranked(s, worst)));
    });
    out.onNext(b.build());
    out.onCompleted();
  }

  private RankedServer ranked(FakeWorld.Server s, double predictedMs) {
    RankedServer.Builder b = RankedServer.newBuilder().setEndpoint(Endpoints.of(s.address())).setProtocol(s.protocol())
        .setPredictedRttUs((int) Math.round(predictedMs * 1000)).setServerInfo(s.info());
    if (coordinates) b.setCoordinate(proto(s.coordinate()));
    Double factor = reportFactors.get(s.key());
    if (factor != null) b.setReportFactor(factor);
    if (flagged.contains(s.key())) {
      b.setPredictedRttUnreliable(true).setIntegrity(dev.reed.proto.v1.ServerIntegrity.newBuilder()
          .setKind(dev.reed.proto.v1.IntegrityKind.INTEGRITY_KIND_ANYCAST_OR_PROXY));
    }
    if (landmarkRtts) {
      for (int l = 0; l < Math.min(beacons, world.calibration.size()); l++) {
        double ms = world.calibration.get(l).coordinate().distanceTo(world.trueCoordinate(s));
        b.addLandmarkRtts(LandmarkRtt.newBuilder().setLandmarkId("lm" + l).setRttUs((int) Math.max(1, Math.round(ms * 1000))));
      }
    }
    return b.build();
  }

  private static boolean matches(FakeWorld.Server s, ServerFilter f, Coordinate client) {
    if (!f.getGame().isEmpty() && !f.getGame().equalsIgnoreCase(s.info().getGame())) return false;
    if (!f.getMap().isEmpty() && !f.getMap().equalsIgnoreCase(s.info().getMap())) return false;
    if (f.getNotFull() && s.info().getPlayers() >= s.info().getMaxPlayers()) return false;
    if (f.getNotEmpty() && s.info().getPlayers() == 0) return false;
    if (client != null && f.getRttLimitUs() > 0 && client.distanceTo(s.coordinate()) * 1000 > f.getRttLimitUs()) return false;
    return true;
  }

  private boolean stall(StreamObserver<?> out) {
    calls.incrementAndGet();
    if (stallMillis <= 0) return false;
    try {
      Thread.sleep(stallMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    out.onError(Status.CANCELLED.withDescription("stalled").asRuntimeException());
    return true;
  }

  static dev.reed.proto.v1.Coordinate proto(Coordinate c) {
    var b = dev.reed.proto.v1.Coordinate.newBuilder().setHeightMs(c.height());
    for (double x : c.components()) b.addComponents(x);
    return b.build();
  }
}
