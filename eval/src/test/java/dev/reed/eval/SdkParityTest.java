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
import dev.reed.coordinates.discovery.RankedCandidate;
import dev.reed.probe.ProbeCounters;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.probe.Prober;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.CalibrationKind;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.FitQuality;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.LandmarkRtt;
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
    CoordinateConfig geometry = new CoordinateConfig(3, true);
    EvalSettings s = EvalSettings.builder().coordinates(geometry).model(DiscoveryModel.defaults(), 1000)
        .landmarks(10, null).seeds(1, 1).threads(1).build();
    ExecutorService pool = Executors.newSingleThreadExecutor();
    SeedRun.Output o;
    try {
      o = new SeedRun(m, s, false).run(1, true, pool);
    } finally {
      pool.shutdownNow();
    }
    int compared = 0;
    for (Map.Entry<Integer, SeedRun.Sequence> e : o.sequences().entrySet()) {
      if (compared++ == 8) {
        break;
      }
      int client = e.getKey();
      List<Integer> evaluated = Arrays.stream(e.getValue().servers()).boxed().toList();
      Run sdk = discover(m, o, client, s.model());
      assertThat(sdk.calibrationProbes()).as("client %d calibration", client)
          .isEqualTo(o.clients().stream().filter(r -> r.client() == client).findFirst().orElseThrow().calibrationProbes());
      assertThat(sdk.order()).as("client %d probe order", client).isEqualTo(evaluated);
    }
    assertThat(compared).isGreaterThan(8);
  }

  /** What the SDK did for one client: its calibration probes, then every server in the order it handed them out. */
  record Run(int calibrationProbes, List<Integer> order) {}

  private static Run discover(RttMatrix m, SeedRun.Output o, int client, DiscoveryModel model)
      throws Exception {
    MatrixCoordinator.Session world = o.coordinator().session(client, client + 7919L * o.seed());
    String name = "parity-" + client;
    Server server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new WorldService(world, dims(o))).build().start();
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
    private final MatrixCoordinator.Session world;
    private final int dims;

    WorldService(MatrixCoordinator.Session world, int dims) {
      this.world = world;
      this.dims = dims;
    }

    @Override
    public void getCalibrationServers(GetCalibrationServersRequest req, StreamObserver<GetCalibrationServersResponse> out) {
      CalibrationSource.Kind kind = req.getKind() == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON
          ? CalibrationSource.Kind.BEACON : CalibrationSource.Kind.ANY;
      List<CalibrationPoint> points = req.hasNear()
          ? world.nearest(coordinate(req.getNear()), req.getCount(), kind) : world.spread(req.getCount(), kind);
      GetCalibrationServersResponse.Builder b = GetCalibrationServersResponse.newBuilder().setDimensions(dims).setHeightModel(true);
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
      MatrixCoordinator.Session.Page page = world.page(coordinate(req.getClient()), req.getPageToken(), null);
      GetOrderedServersResponse.Builder b = GetOrderedServersResponse.newBuilder().setNextPageToken(page.nextCursor());
      for (RankedCandidate c : page.servers()) {
        RankedServer.Builder r = RankedServer.newBuilder().setEndpoint(Endpoints.of(address(Integer.parseInt(c.key()))))
            .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setPredictedRttUs((int) Math.round(c.predictedMs() * 1000))
            .setCoordinate(proto(c.coordinate()));
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
