package dev.reed.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.client.DiscoveryEvent;
import dev.reed.client.DiscoveryRequest;
import dev.reed.client.DiscoveryResult;
import dev.reed.client.ReedClient;
import dev.reed.client.StopRule;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.discovery.CalibrationPoint;
import dev.reed.coordinates.discovery.CalibrationSource;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.coordinates.discovery.LocationFix;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.discovery.RankedCandidate;
import dev.reed.probe.ProbeCounters;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.probe.Prober;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.CalibrationKind;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.FitQuality;
import dev.reed.proto.v1.CalibrationMeasurement;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.LocateRequest;
import dev.reed.proto.v1.LocateResponse;
import dev.reed.proto.v1.LocationSource;
import dev.reed.proto.v1.Placement;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.ServerInfo;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evaluator and the client SDK run one discovery policy: on one small world, the SDK (real
 * gRPC in-process, its probe loop, a prober answering from the matrix at once) probes servers in
 * exactly the order {@code ./reed eval} records for the same client, calibration probes included.
 * If either side re-implemented a step of the policy, the sequences would part.
 */
class SdkParityTest {
  private static final int PORT = 27960;

  @TempDir
  Path dir;

  @Test
  void theSdkProbesInTheOrderTheEvaluatorMeasures() throws Exception {
    RttMatrix m = RttMatrix.load(EvalCommandTest.smallMatrix(dir, 60), null);
    assertParity(m, EvalSettings.builder().coordinates(new CoordinateConfig(3, true)).model(DiscoveryModel.defaults(), 1000)
        .landmarks(10, null).seeds(1, 1).threads(1).build(), 8);
  }

  /**
   * On a located world with GeoIP-like client locations the SDK takes the coordinator's location
   * fix (Locate), fuses the geographic predictions and sends the fixed place with its page
   * requests, exactly as the evaluator's policy does.
   */
  @Test
  void theSdkFusesLocationsAsTheEvaluatorDoes() throws Exception {
    Path[] w = BaselinesTest.locatedWorld(dir, 70, 0, 25);
    RttMatrix m = RttMatrix.load(w[1], w[0]);
    EvalSettings s = EvalSettings.builder().coordinates(new CoordinateConfig(3, true)).model(DiscoveryModel.defaults(), 1000)
        .landmarks(10, null).seeds(1, 1).threads(1).baselines(false, GeoErrorModel.parse("geoip:300:1000:0.1")).build();
    assertParity(m, s, 8);
  }

  /**
   * With {@code localProbes} the SDK calibrates from the coordinator's zero-probe page (GetOrderedServers
   * without a coordinate) as the evaluator's policy calibrates from its zero-probe ranking.
   */
  @Test
  void theSdkCalibratesFromTheZeroProbeRankingAsTheEvaluatorDoes() throws Exception {
    Path[] w = BaselinesTest.locatedWorld(dir, 70, 0, 25);
    RttMatrix m = RttMatrix.load(w[1], w[0]);
    DiscoveryModel local = DiscoveryModel.of(propertiesOf("localProbes", "10"));
    EvalSettings s = EvalSettings.builder().coordinates(new CoordinateConfig(3, true)).model(local, 1000)
        .landmarks(10, null).seeds(1, 1).threads(1).baselines(false, GeoErrorModel.parse("geoip")).build();
    assertParity(m, s, 8);
  }

  private static java.util.Properties propertiesOf(String key, String value) {
    java.util.Properties p = new java.util.Properties();
    p.setProperty(key, value);
    return p;
  }

  private void assertParity(RttMatrix m, EvalSettings s, int clients) throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    SeedRun.Output o;
    try {
      o = new SeedRun(m, s, false).run(1, true, pool);
    } finally {
      pool.shutdownNow();
    }
    int compared = 0;
    for (Map.Entry<Integer, SeedRun.Sequence> e : o.sequences().entrySet()) {
      if (compared++ == clients) {
        break;
      }
      int client = e.getKey();
      List<Integer> evaluated = Arrays.stream(e.getValue().servers()).boxed().toList();
      Run sdk = discover(m, o, client, s.model());
      assertThat(sdk.calibrationProbes()).as("client %d calibration", client)
          .isEqualTo(o.clients().stream().filter(r -> r.client() == client).findFirst().orElseThrow().calibrationProbes());
      assertThat(sdk.order()).as("client %d probe order", client).isEqualTo(evaluated);
    }
    assertThat(compared).isGreaterThan(clients);
  }

  /** What the SDK did for one client: its calibration probes, then every server in the order it handed them out. */
  record Run(int calibrationProbes, List<Integer> order) {}

  private static Run discover(RttMatrix m, SeedRun.Output o, int client, DiscoveryModel model)
      throws Exception {
    SimulatedCoordinator.Session world = o.coordinator().session(client, client + 7919L * o.seed());
    String name = "parity-" + client;
    Server server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new WorldService(world, dims(o), o)).build().start();
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    List<Integer> order = new CopyOnWriteArrayList<>();
    try (ReedClient sdk = ReedClient.builder().channel(channel, name).prober(new MatrixProber(m, client)).model(model)
        .rate(100_000).build()) {
      DiscoveryResult r = sdk.discover(DiscoveryRequest.defaults().withStop(StopRule.exhaustive()).withPageSize(1000), event -> {
        if (event instanceof DiscoveryEvent.ServerFound f) {
          order.add(node(f.server().address()));
        } else if (event instanceof DiscoveryEvent.NoReply n) {
          order.add(node(n.address()));
        }
      });
      return new Run(r.calibrationProbes(), List.copyOf(order));
    } finally {
      channel.shutdownNow();
      server.shutdownNow();
    }
  }

  private static int dims(SeedRun.Output o) {
    for (Coordinate c : o.coords()) {
      if (c != null) {
        return c.dimensions();
      }
    }
    throw new IllegalStateException("no coordinate");
  }

  private static InetSocketAddress address(int node) {
    return new InetSocketAddress("127.7." + (node / 250) + "." + (node % 250 + 1), PORT);
  }

  private static int node(InetSocketAddress a) {
    byte[] b = a.getAddress().getAddress();
    return (b[2] & 0xff) * 250 + (b[3] & 0xff) - 1;
  }

  private static String key(int node) {
    return Endpoints.key(address(node));
  }

  private static dev.reed.proto.v1.Coordinate proto(Coordinate c) {
    var b = dev.reed.proto.v1.Coordinate.newBuilder().setHeightMs(c.height());
    for (double x : c.components()) {
      b.addComponents(x);
    }
    return b.build();
  }

  /** The evaluator's simulated coordinator behind the real gRPC API. */
  private static final class WorldService extends ReedServiceGrpc.ReedServiceImplBase {
    private final SimulatedCoordinator.Session world;
    private final int dims;
    private final SeedRun.Output seed;

    WorldService(SimulatedCoordinator.Session world, int dims, SeedRun.Output seed) {
      this.world = world;
      this.dims = dims;
      this.seed = seed;
    }

    private boolean landmark(int v) {
      return Arrays.stream(seed.landmarks()).anyMatch(l -> l == v);
    }

    /** Locate as the coordinator answers it with a location database: the evaluator's location fix, over the API. */
    @Override
    public void locate(LocateRequest req, StreamObserver<LocateResponse> out) {
      List<CalibrationPoint> probed = new ArrayList<>();
      Map<String, Double> rtt = new java.util.HashMap<>();
      for (CalibrationMeasurement cm : req.getMeasurementsList()) {
        int v = node(Endpoints.toSocketAddress(cm.getEndpoint()));
        probed.add(new CalibrationPoint(Integer.toString(v), seed.coords()[v], landmark(v) ? Integer.toString(v) : ""));
        rtt.put(Integer.toString(v), cm.getRttUs() / 1000.0);
      }
      LocateResponse.Builder b = LocateResponse.newBuilder().setCoordinate(proto(seed.coords()[node(
          Endpoints.toSocketAddress(req.getMeasurements(0).getEndpoint()))]));
      LocationFix fix = world.locate(probed, rtt);
      if (fix != null) {
        b.setPlacement(Placement.newBuilder().setPoint(GeoPoint.newBuilder().setLatitudeDeg(fix.place().lat())
            .setLongitudeDeg(fix.place().lon())).setSource(fix.moved() ? LocationSource.LOCATION_SOURCE_MEASURED
            : LocationSource.LOCATION_SOURCE_DATABASE));
        for (CalibrationPoint p : probed) {
          Double g = fix.geoMs().get(p.key());
          b.addGeoPredictedRttUs(g == null ? 0 : (int) Math.round(g * 1000));
        }
        b.setFusion(weights(fix.weights()));
      }
      out.onNext(b.build());
      out.onCompleted();
    }

    private static dev.reed.proto.v1.FusionWeights weights(dev.reed.coordinates.geo.FusionWeights w) {
      return dev.reed.proto.v1.FusionWeights.newBuilder().setGeo(w.geo()).setCoordinates(w.coordinate()).setRelay(w.relay())
          .build();
    }

    @Override
    public void getCalibrationServers(GetCalibrationServersRequest req, StreamObserver<GetCalibrationServersResponse> out) {
      CalibrationSource.Kind kind = req.getKind() == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON
          ? CalibrationSource.Kind.BEACON : CalibrationSource.Kind.ANY;
      List<CalibrationPoint> points = req.hasNear()
          ? world.nearest(coordinate(req.getNear()), req.getCount(), kind) : world.spread(req.getCount(), kind);
      GetCalibrationServersResponse.Builder b = GetCalibrationServersResponse.newBuilder().setDimensions(dims).setHeightModel(true);
      if (world.locatesClient()) {
        b.setClientPlacement(Placement.newBuilder().setSource(LocationSource.LOCATION_SOURCE_DATABASE)).setFusion(weights(world.fusion()));
      }
      for (CalibrationPoint p : points) {
        int v = Integer.parseInt(p.key());
        b.addServers(CalibrationServer.newBuilder().setEndpoint(Endpoints.of(address(v))).setProtocol(GameProtocol.GAME_PROTOCOL_A2S)
            .setCoordinate(proto(p.coordinate()))
            .setKind(p.beacon() ? CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON : CalibrationKind.CALIBRATION_KIND_GAME_SERVER)
            .setLandmarkId(p.beacon() ? key(Integer.parseInt(p.landmarkId())) : "")
            .setFit(FitQuality.newBuilder().setRelativeError(0.05).setLandmarksUsed(10)));
      }
      out.onNext(b.build());
      out.onCompleted();
    }

    @Override
    public void getOrderedServers(GetOrderedServersRequest req, StreamObserver<GetOrderedServersResponse> out) {
      if (!req.hasClient()) {
        // a zero-probe ranking: the servers by the geographic prediction from the client's prior
        GetOrderedServersResponse.Builder b = GetOrderedServersResponse.newBuilder();
        for (CalibrationPoint p : world.local(req.getPageSize())) {
          b.addServers(RankedServer.newBuilder().setEndpoint(Endpoints.of(address(Integer.parseInt(p.key()))))
              .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setCoordinate(proto(p.coordinate())));
        }
        out.onNext(b.setTotalMatching(b.getServersCount()).build());
        out.onCompleted();
        return;
      }
      Place at = req.hasLocation() && !req.getIgnoreLocation()
          ? Place.of(req.getLocation().getLatitudeDeg(), req.getLocation().getLongitudeDeg()) : null;
      SimulatedCoordinator.Session.Page page = world.page(coordinate(req.getClient()), req.getPageToken(), at);
      GetOrderedServersResponse.Builder b = GetOrderedServersResponse.newBuilder().setNextPageToken(page.nextCursor());
      for (RankedCandidate c : page.servers()) {
        RankedServer.Builder r = RankedServer.newBuilder().setEndpoint(Endpoints.of(address(Integer.parseInt(c.key()))))
            .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setPredictedRttUs((int) Math.round(c.predictedMs() * 1000))
            .setCoordinate(proto(c.coordinate()));
        if (Double.isFinite(c.geoMs())) {
          r.setGeoPredictedRttUs((int) Math.round(c.geoMs() * 1000));
        }
        if (c.place() != null) {
          r.setPlacement(Placement.newBuilder().setSource(LocationSource.LOCATION_SOURCE_DATABASE)
              .setPoint(GeoPoint.newBuilder().setLatitudeDeg(c.place().lat()).setLongitudeDeg(c.place().lon())));
        }
        c.landmarkRttMs().forEach((landmark, ms) -> r.addLandmarkRtts(LandmarkRtt.newBuilder()
            .setLandmarkId(key(Integer.parseInt(landmark))).setRttUs((int) Math.round(ms * 1000))));
        b.addServers(r);
      }
      out.onNext(b.setTotalMatching(b.getServersCount()).build());
      out.onCompleted();
    }

    private static Coordinate coordinate(dev.reed.proto.v1.Coordinate c) {
      return new Coordinate(c.getComponentsList().stream().mapToDouble(Double::doubleValue).toArray(), c.getHeightMs());
    }
  }

  /** Answers at once with the client's RTT from the matrix; a missing cell is a timeout. */
  private record MatrixProber(RttMatrix m, int client) implements Prober {
    @Override
    public CompletableFuture<ProbeResult> probe(ProbeTarget target) {
      double ms = m.rtt(client, node(target.address()));
      ProbeResult r = Double.isFinite(ms)
          ? new ProbeResult(target, ProbeStatus.PROBE_STATUS_OK, Math.round(ms * 1e6), 0, Instant.EPOCH,
              ServerInfo.newBuilder().setName("node " + node(target.address())).build(), null)
          : new ProbeResult(target, ProbeStatus.PROBE_STATUS_TIMEOUT, 0, 0, Instant.EPOCH, null, null);
      return CompletableFuture.completedFuture(r);
    }

    @Override
    public CompletableFuture<List<ProbeResult>> probeBurst(ProbeTarget target, int count) {
      throw new UnsupportedOperationException("discovery never bursts");
    }

    @Override
    public ProbeCounters counters() {
      return new ProbeCounters(0, 0, 0, 0, 0, 0, 0);
    }

    @Override
    public void close() {}
  }
}
