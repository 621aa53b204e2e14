package dev.reed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.discovery.PageRequest;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.coordinator.api.ApiServer;
import dev.reed.coordinator.api.ReedServiceImpl;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.LandmarkNumbers;
import dev.reed.coordinator.index.read.RankedTemplate;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.FitQuality;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.ServerCoordinate;
import io.grpc.BindableService;
import io.grpc.ForwardingServerCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The compact landmark RTTs over real gRPC: the SDK against the real coordinator service (which
 * answers its compact_landmark_rtts with refs and a table) gets the same landmark RTTs per server
 * as against a coordinator that predates the flag (the same service, the flag cleared on arrival,
 * so it answers landmark_rtts).
 */
class CompactLandmarkRttsTest {
  static final String[] LANDMARKS = {"aws-eu-west-1", "gcp-us-east4", "azure-japaneast", "landmark-07", "hetzner-fsn1"};
  final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open.reversed()) c.close();
  }

  /** 300 servers on a plane; every seventh without landmark RTTs, the rest with 3-5 landmarks' RTTs in varying order. */
  static ServingState world() {
    SplittableRandom r = new SplittableRandom(7);
    LandmarkNumbers numbers = new LandmarkNumbers();
    numbers.number("retired-landmark"); // numbered before, in no template now: the table may hold more than a page uses
    Map<String, ServerCoordinate> servers = new HashMap<>();
    Map<String, RankedTemplate> ranked = new HashMap<>();
    List<ServerEntry> entries = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Endpoint e = Endpoint.newBuilder().setIp("10.1." + (i / 200) + "." + (i % 200 + 1)).setPort(27960).build();
      ServerCoordinate.Builder c = ServerCoordinate.newBuilder().setEndpoint(e).setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3)
          .setCoordinate(Coordinate.newBuilder().addComponents(r.nextDouble(-100, 100)).addComponents(r.nextDouble(-100, 100)))
          .setFit(FitQuality.newBuilder().setRelativeError(0.02).setLandmarksUsed(5));
      if (i % 7 != 0) {
        int first = r.nextInt(LANDMARKS.length);
        for (int k = 0; k < 3 + i % 3; k++) {
          c.addLandmarkRtts(LandmarkRtt.newBuilder().setLandmarkId(LANDMARKS[(first + k) % LANDMARKS.length])
              .setRttUs(r.nextInt(1, 998_999)));
        }
      }
      ServerCoordinate sc = c.build();
      String key = Endpoints.key(e);
      servers.put(key, sc);
      ranked.put(key, RankedTemplate.of(sc, numbers));
      entries.add(new ServerEntry(key, CoordinateCodec.fromProto(sc.getCoordinate(), 2, key),
          CoordinateCodec.attributes(sc.getServerInfo(), sc.getProtocol())));
    }
    return new ServingState(RankingIndex.of(entries), Map.copyOf(servers), Map.copyOf(ranked), Map.of(), List.of(), Map.of(),
        Map.of(), 1, Instant.now(), 2, false, numbers.table(), Map.of());
  }

  /** Runs {@code change} on every GetOrderedServersRequest as it arrives, after noting whether it asked for the compact form. */
  static BindableService rewriting(BindableService service, List<Boolean> askedCompact, boolean clearFlag) {
    ServerInterceptor rewrite = new ServerInterceptor() {
      @Override
      public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
          @Override
          @SuppressWarnings("unchecked")
          public void onMessage(Q message) {
            if (message instanceof GetOrderedServersRequest req) {
              askedCompact.add(req.getCompactLandmarkRtts());
              if (clearFlag) message = (Q) req.toBuilder().clearCompactLandmarkRtts().build();
            }
            super.onMessage(message);
          }
        };
      }
    };
    return () -> ServerInterceptors.intercept(service.bindService(), rewrite);
  }

  CoordinatorClient client(BindableService service) throws Exception {
    ApiServer server = ApiServer.start(new InetSocketAddress("127.0.0.1", 0), null, null, null, List.of(service));
    open.add(server);
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.address().getPort()).usePlaintext().build();
    CoordinatorClient c = new CoordinatorClient(channel, "127.0.0.1:" + server.address().getPort(), Duration.ofSeconds(10), true, null);
    open.add(c);
    c.calibrationServers(14); // learns the dimensions
    return c;
  }

  @Test
  void theSdkGetsTheSameLandmarkRttsFromTheCompactFormAsFromACoordinatorWithoutIt() throws Exception {
    ServingState state = world();
    ReedServiceImpl service = new ReedServiceImpl(
        ReedServiceImpl.Dependencies.of(() -> state, new CoordinateConfig(2, false), Clock.systemUTC()));
    List<Boolean> newAsked = new CopyOnWriteArrayList<>();
    List<Boolean> oldAsked = new CopyOnWriteArrayList<>();
    CoordinatorClient current = client(rewriting(service, newAsked, false));
    CoordinatorClient older = client(rewriting(service, oldAsked, true));

    PageRequest request = new PageRequest(CoordinateCodec.fromProto(Coordinate.newBuilder().addComponents(5).addComponents(-8)
        .build(), 2, "client"), "", 0, null, false, Map.of());
    CoordinatorClient.Page compact = current.orderedPage(request, Filter.none(), 230);
    CoordinatorClient.Page full = older.orderedPage(request, Filter.none(), 230);
    assertThat(newAsked).containsOnly(true);
    assertThat(compact.servers()).hasSize(230);
    assertThat(compact.dropped()).isZero();
    int with = 0;
    for (int i = 0; i < 230; i++) {
      Candidate c = compact.servers().get(i);
      Candidate f = full.servers().get(i);
      assertThat(c.key()).isEqualTo(f.key());
      assertThat(c.landmarkRtts()).isEqualTo(f.landmarkRtts()).isEqualTo(state.servers().get(c.key()).getLandmarkRttsList());
      assertThat(c.ranked().landmarkRttMs()).isEqualTo(f.ranked().landmarkRttMs());
      if (!c.landmarkRtts().isEmpty()) with++;
    }
    assertThat(with).isBetween(180, 220);
    assertThat(compact.nextToken()).isEqualTo(full.nextToken());

    // what went over the wire: the compact form is the smaller one
    ManagedChannel raw = NettyChannelBuilder.forAddress("127.0.0.1", ((ApiServer) open.get(0)).address().getPort()).usePlaintext().build();
    try {
      GetOrderedServersRequest.Builder req = GetOrderedServersRequest.newBuilder().setClient(Coordinate.newBuilder()
          .addComponents(5).addComponents(-8)).setPageSize(230);
      GetOrderedServersResponse fullPage = ReedServiceGrpc.newBlockingStub(raw).getOrderedServers(req.build());
      GetOrderedServersResponse compactPage = ReedServiceGrpc.newBlockingStub(raw).getOrderedServers(req.setCompactLandmarkRtts(true).build());
      assertThat(compactPage.getLandmarkIdsList()).contains(LANDMARKS).contains("retired-landmark");
      assertThat(compactPage.getServersList()).allMatch(s -> s.getLandmarkRttsCount() == 0);
      assertThat(compactPage.getSerializedSize()).isLessThan(fullPage.getSerializedSize() * 2 / 3);
    } finally {
      raw.shutdownNow();
    }
  }

  @Test
  void aCompactServerThatDoesNotResolveIsInvalid() {
    RankedServer s = RankedServer.newBuilder().addLandmarkRefs(0).addLandmarkRttUs(20_000).addLandmarkRefs(2).addLandmarkRttUs(30_000).build();
    assertThat(CoordinatorClient.landmarkRtts(s, List.of("a", "b", "c")))
        .extracting(LandmarkRtt::getLandmarkId, LandmarkRtt::getRttUs)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("a", 20_000), org.assertj.core.groups.Tuple.tuple("c", 30_000));
    assertThatThrownBy(() -> CoordinatorClient.landmarkRtts(s, List.of("a", "b")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("landmark ref 2 outside the page's table of 2");
    assertThatThrownBy(() -> CoordinatorClient.landmarkRtts(s.toBuilder().addLandmarkRttUs(1).build(), List.of("a", "b", "c")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 landmark refs for 3 landmark RTTs");
    RankedServer old = RankedServer.newBuilder().addLandmarkRtts(LandmarkRtt.newBuilder().setLandmarkId("x").setRttUs(5)).build();
    assertThat(CoordinatorClient.landmarkRtts(old, List.of())).isEqualTo(old.getLandmarkRttsList());
  }
}
