package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinates.geo.Place;
import dev.reed.coordinator.api.EachCallDeadline;
import dev.reed.coordinator.location.GeoModel;
import dev.reed.geo.Asn;
import dev.reed.geo.GeoFiles;
import dev.reed.geo.IpRangeCsvWriter;
import dev.reed.geo.Location;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.CalibrationKind;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LocationSource;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerFilter;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.proto.v1.SnapshotServiceGrpc;
import dev.reed.proto.v1.StreamOrderedServersRequest;
import dev.reed.proto.v1.StreamSnapshotRequest;
import dev.reed.testbed.kafka.KafkaExtension;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Locations in a running coordinator: a geographic world (landmarks at real cities, RTT = 1 ms +
 * 1 ms per 80 km + each end's access delay) published to a real Kafka, a location database written
 * by the testbed's writer for its loopback addresses, and the API over real gRPC. One landmark
 * announces Sydney while its RTTs put it next to Frankfurt.
 */
@Tag("integration")
class GeoCoordinatorTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir static Path dir;

  static final String[] CITIES = {"Frankfurt", "London", "New York", "Tokyo", "Sydney", "Sao Paulo", "Singapore", "Paris"};
  static final double[][] LANDMARKS = {{50.11, 8.68}, {51.51, -0.13}, {40.71, -74.01}, {35.68, 139.69}, {-33.87, 151.21},
      {-23.55, -46.63}, {1.35, 103.82}, {48.86, 2.35}};
  static final int LIAR = 7; // really in Paris, announces Sydney
  static final double[] CLIENT_ADDRESS_AT = {40.42, -3.70}; // 127.0.0.1 is in Madrid
  static final double[] FORWARDED_AT = {35.01, 135.77}; // 198.51.100.9 is in Kyoto
  static final int SERVERS = 90;
  static final double[][] at = new double[SERVERS][];
  static final double[] access = new double[SERVERS];
  static Coordinator coordinator;
  static Path city;
  static Path asn;
  static ManagedChannel channel;
  static ReedServiceGrpc.ReedServiceBlockingStub reed;

  static double km(double[] a, double[] b) {
    return new Place(a[0], a[1], null).kmTo(new Place(b[0], b[1], null));
  }

  static double rttMs(double[] a, double accessA, double[] b, double accessB) {
    return 1 + km(a, b) / 80 + accessA + accessB;
  }

  static Endpoint beacon(int i) {
    return Endpoint.newBuilder().setIp("127.0.3." + (i + 1)).setPort(27015).build();
  }

  static Endpoint server(int s) {
    return Endpoint.newBuilder().setIp("127.0.4." + (s + 1)).setPort(27960).build();
  }

  /** Every fifth server is not in the database: positioned from RTTs alone. */
  static boolean located(int s) {
    return s % 5 != 4;
  }

  @BeforeAll
  static void start() throws Exception {
    SplittableRandom r = new SplittableRandom(15);
    double[][] clusters = {{50, 8}, {40, -90}, {35, 135}, {-30, 145}, {48, 2}};
    for (int s = 0; s < SERVERS; s++) {
      double[] c = clusters[s % clusters.length];
      at[s] = new double[] {c[0] + r.nextDouble(-6, 6), c[1] + r.nextDouble(-10, 10)};
      access[s] = r.nextDouble(0.5, 6);
    }
    Map<InetAddress, Location> db = new HashMap<>();
    Map<InetAddress, Asn> asns = new HashMap<>();
    for (int s = 0; s < SERVERS; s++) {
      if (located(s)) db.put(Endpoints.literal(server(s).getIp()), new Location(at[s][0], at[s][1], Double.NaN, "DE"));
      asns.put(Endpoints.literal(server(s).getIp()), new Asn(64500 + s % 3, "Example"));
    }
    for (int i = 0; i < LANDMARKS.length; i++) {
      db.put(Endpoints.literal(beacon(i).getIp()), Location.of(LANDMARKS[i][0], LANDMARKS[i][1]));
    }
    db.put(Endpoints.literal("127.0.0.1"), new Location(CLIENT_ADDRESS_AT[0], CLIENT_ADDRESS_AT[1], Double.NaN, "ES"));
    db.put(Endpoints.literal("198.51.100.9"), new Location(FORWARDED_AT[0], FORWARDED_AT[1], Double.NaN, "JP"));
    city = dir.resolve("city.csv");
    asn = dir.resolve("asn.csv");
    IpRangeCsvWriter.writeLocations(city, db);
    IpRangeCsvWriter.writeAsns(asn, asns);

    String bootstrap = KAFKA.broker().bootstrapServers();
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap)) {
      for (int i = 0; i < LANDMARKS.length; i++) {
        double[] announced = i == LIAR ? LANDMARKS[4] : LANDMARKS[i];
        Landmark l = Landmark.newBuilder().setLandmarkId("lm-" + i).setRegion(CITIES[i]).setBeacon(beacon(i))
            .setVersion("test").setAnnounceTime(SyntheticWorld.ts(Instant.now())).setRound(1).setRoundIntervalMs(1000)
            .setLocation(GeoPoint.newBuilder().setLatitudeDeg(announced[0]).setLongitudeDeg(announced[1])).build();
        p.send(new ProducerRecord<>(Topic.LANDMARKS.name(), SyntheticWorld.key("lm-" + i), l.toByteArray()));
      }
      p.flush();
      for (int round = 1; round <= 2; round++) {
        for (int i = 0; i < LANDMARKS.length; i++) {
          for (int j = 0; j < LANDMARKS.length; j++) {
            if (i == j) continue;
            int us = (int) Math.round((rttMs(LANDMARKS[i], 0.5, LANDMARKS[j], 0.5) + r.nextDouble(0.5)) * 1000);
            MeshSample m = MeshSample.newBuilder().setLandmarkId("lm-" + i).setPeerLandmarkId("lm-" + j).setRound(round)
                .setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(us).setProbesSent(4).setProbesAnswered(4)
                .setSendTime(SyntheticWorld.ts(Instant.now())).setPeerBeacon(beacon(j)).build();
            p.send(new ProducerRecord<>(Topic.MESH_SAMPLES.name(), SyntheticWorld.key("lm-" + i + ">lm-" + j), m.toByteArray()));
          }
          for (int s = 0; s < SERVERS; s++) {
            int us = (int) Math.round((rttMs(LANDMARKS[i], 0.5, at[s], access[s]) + r.nextDouble(0.5)) * 1000);
            RttSample sample = RttSample.newBuilder().setLandmarkId("lm-" + i).setRound(round).setTarget(server(s))
                .setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(us)
                .setSendTime(SyntheticWorld.ts(Instant.now()))
                .setServerInfo(ServerInfo.newBuilder().setName("s" + s).setGame("baseoa").setMap("oa_dm" + (s % 3))
                    .setPlayers(1).setMaxPlayers(8))
                .build();
            p.send(new ProducerRecord<>(Topic.SAMPLES.name(), SyntheticWorld.key(Endpoints.key(server(s))), sample.toByteArray()));
          }
        }
      }
    }
    CoordinatorConfig config = CoordinatorConfig.builder(bootstrap).loopbackEphemeral().dimensions(4)
        .roundInterval(Duration.ofMillis(500)).geo(new GeoFiles(List.of(city), List.of(asn), true)).build();
    coordinator = Coordinator.start(config);
    await().atMost(Duration.ofSeconds(90)).until(() -> coordinator.servingState().servers().size() == SERVERS
        && coordinator.geoModel().trained() && coordinator.geoModel().servers().size() == SERVERS);
    channel = Grpc.newChannelBuilder("127.0.0.1:" + coordinator.grpcAddress().getPort(), InsecureChannelCredentials.create())
        .build();
    reed = ReedServiceGrpc.newBlockingStub(channel).withInterceptors(new EachCallDeadline(30));
  }

  @AfterAll
  static void stop() throws Exception {
    if (channel != null) channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    if (coordinator != null) coordinator.close();
  }

  static GeoPoint point(double[] p) {
    return GeoPoint.newBuilder().setLatitudeDeg(p[0]).setLongitudeDeg(p[1]).build();
  }

  static int index(RankedServer r) {
    return Integer.parseInt(r.getEndpoint().getIp().substring("127.0.4.".length())) - 1;
  }

  @Test
  void locatedServersCarryTheirPlacementAndUnlocatedOnesAreStillRanked() {
    Coordinate client = coordinator.servingState().servers().get(Endpoints.key(server(0))).getCoordinate();
    GetOrderedServersResponse all = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(client)
        .setPageSize(200).build());
    assertThat(all.getServersCount()).isEqualTo(SERVERS);
    for (RankedServer r : all.getServersList()) {
      int s = index(r);
      assertThat(r.getPlacement().getAsn()).isEqualTo(64500 + s % 3);
      if (located(s)) {
        assertThat(r.getPlacement().getSource()).isEqualTo(LocationSource.LOCATION_SOURCE_DATABASE);
        assertThat(r.getPlacement().getCountry()).isEqualTo("DE");
        assertThat(r.getPlacement().getPoint().getLatitudeDeg()).isEqualTo(at[s][0], org.assertj.core.api.Assertions.within(1e-6));
        // the prior is the address's (Madrid): every located server gets a geographic prediction
        assertThat(r.getGeoPredictedRttUs()).isPositive();
      } else {
        assertThat(r.getPlacement().hasPoint()).isFalse();
        assertThat(r.getGeoPredictedRttUs()).isZero();
      }
      assertThat(r.getUncertaintyUs()).as("server %d", s).isPositive();
    }
    // the snapshot stream carries placements and each located server's excess over the distance model
    Iterator<dev.reed.proto.v1.StreamSnapshotResponse> stream = SnapshotServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(30, TimeUnit.SECONDS).streamSnapshot(StreamSnapshotRequest.getDefaultInstance());
    stream.next();
    List<ServerCoordinate> snap = new ArrayList<>();
    stream.forEachRemaining(x -> snap.addAll(x.getChunk().getServersList()));
    assertThat(snap).hasSize(SERVERS);
    long withExcess = snap.stream().filter(c -> c.getPlacement().hasPoint() && c.getGeoExcessUs() != 0).count();
    assertThat(withExcess).isGreaterThan(SERVERS / 2);
    assertThat(snap.stream().filter(c -> !located(Integer.parseInt(c.getEndpoint().getIp().substring(8)) - 1)))
        .allMatch(c -> !c.getPlacement().hasPoint() && c.getGeoExcessUs() == 0);
  }

  /**
   * A client in Tokyo whose address the database puts in Madrid: Locate with its RTTs to the
   * beacons moves it to a host next to Tokyo (MEASURED), with a geographic prediction per
   * measurement close to what it measured; a client that states where it really is keeps its place.
   */
  @Test
  void locateCorrectsAWrongLocationPriorFromTheCalibrationRtts() {
    double[] tokyo = {35.68, 139.69};
    dev.reed.proto.v1.LocateRequest.Builder req = dev.reed.proto.v1.LocateRequest.newBuilder();
    for (int i = 0; i < LANDMARKS.length; i++) {
      if (i == LIAR) continue;
      req.addMeasurements(dev.reed.proto.v1.CalibrationMeasurement.newBuilder().setEndpoint(beacon(i))
          .setRttUs((int) Math.round(rttMs(tokyo, 2, LANDMARKS[i], 0.5) * 1000)));
    }
    dev.reed.proto.v1.LocateResponse moved = reed.locate(req.build()); // prior: 127.0.0.1 = Madrid
    assertThat(moved.getPlacement().getSource()).isEqualTo(LocationSource.LOCATION_SOURCE_MEASURED);
    double[] fixed = {moved.getPlacement().getPoint().getLatitudeDeg(), moved.getPlacement().getPoint().getLongitudeDeg()};
    assertThat(km(fixed, tokyo)).isLessThan(1_500).isLessThan(km(CLIENT_ADDRESS_AT, tokyo) / 5);
    assertThat(moved.getGeoPredictedRttUsCount()).isEqualTo(req.getMeasurementsCount());
    assertThat(moved.hasFusion()).isTrue();
    for (int m = 0; m < req.getMeasurementsCount(); m++) {
      double measured = req.getMeasurements(m).getRttUs();
      assertThat((double) moved.getGeoPredictedRttUs(m)).as("measurement %d", m).isCloseTo(measured,
          org.assertj.core.api.Assertions.within(Math.max(15_000, 0.35 * measured)));
    }
    dev.reed.proto.v1.LocateResponse kept = reed.locate(req.setLocation(point(tokyo)).build());
    assertThat(kept.getPlacement().getSource()).isEqualTo(LocationSource.LOCATION_SOURCE_CLIENT);
    assertThat(kept.getPlacement().getPoint()).isEqualTo(point(tokyo));
    // a client that distrusts its prior asks for coordinates alone: no fused prediction
    Coordinate c = kept.getCoordinate();
    RankedServer first = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(c).setLocation(point(tokyo))
        .setIgnoreLocation(true).setPageSize(1).build()).getServers(0);
    assertThat(first.getGeoPredictedRttUs()).isZero();
  }

  /**
   * A first page of 10 without a probe for a client at {@code client}: only located servers match,
   * each among the 15 truly nearest, in ascending geographic prediction with its uncertainty.
   *
   * @return the last server's predicted RTT in us
   */
  static int assertGeographicOrder(GetOrderedServersResponse page, double[] client) {
    assertThat(page.getServersCount()).isEqualTo(10);
    // only located servers can be predicted without a probe
    assertThat(page.getTotalMatching()).isEqualTo((int) java.util.stream.IntStream.range(0, SERVERS).filter(GeoCoordinatorTest::located).count());
    List<Double> truth = new ArrayList<>();
    for (int s = 0; s < SERVERS; s++) if (located(s)) truth.add(rttMs(client, 2, at[s], access[s]));
    truth.sort(null);
    int previous = 0;
    for (RankedServer r : page.getServersList()) {
      int s = index(r);
      assertThat(rttMs(client, 2, at[s], access[s])).as("server %d", s).isLessThanOrEqualTo(truth.get(14));
      assertThat(r.getPredictedRttUs()).isEqualTo(r.getGeoPredictedRttUs()).isGreaterThanOrEqualTo(previous);
      assertThat(r.getUncertaintyUs()).isPositive().isLessThan(r.getPredictedRttUs());
      previous = r.getPredictedRttUs();
    }
    return previous;
  }

  @Test
  void zeroProbeRankingOrdersByTheGeographicPrediction() {
    // the location model is retrained as rounds go on, and a retraining can move every prediction
    // between two of these requests: the comparisons hold on any one model, so they are retried
    // until one lasts through them
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      double[] tokyo = {35.68, 139.69};
      GetOrderedServersResponse page = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setLocation(point(tokyo))
          .setPageSize(10).build());
      int previous = assertGeographicOrder(page, tokyo);
      // pages continue where the first ended; RTT_limit applies to the served prediction
      GetOrderedServersResponse next = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setLocation(point(tokyo))
          .setPageSize(10).setPageToken(page.getNextPageToken()).build());
      assertThat(next.getServers(0).getPredictedRttUs()).isGreaterThanOrEqualTo(previous);
      assertThat(next.getServersList()).noneMatch(x -> page.getServersList().stream().anyMatch(y -> y.getEndpoint().equals(x.getEndpoint())));
      int limit = page.getServers(4).getPredictedRttUs();
      GetOrderedServersResponse limited = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setLocation(point(tokyo))
          .setFilter(ServerFilter.newBuilder().setRttLimitUs(limit)).setPageSize(50).build());
      assertThat(limited.getServersList()).allMatch(x -> x.getPredictedRttUs() <= limit).hasSizeGreaterThanOrEqualTo(5);
      // the stream orders alike
      List<RankedServer> streamed = new ArrayList<>();
      reed.streamOrderedServers(StreamOrderedServersRequest.newBuilder().setLocation(point(tokyo)).setPageSize(4)
          .setMaxServers(10).build()).forEachRemaining(x -> streamed.addAll(x.getServersList()));
      assertThat(streamed).extracting(RankedServer::getEndpoint)
          .containsExactlyElementsOf(page.getServersList().stream().map(RankedServer::getEndpoint).toList());
      assertThat(streamed.getFirst().getPlacement().getSource()).isEqualTo(LocationSource.LOCATION_SOURCE_DATABASE);
    });
  }

  /**
   * A serving replica ({@code --serve-only}) with the same databases reads the landmark mesh and
   * trains its own location model: a zero-probe request gets the geographic order there too.
   */
  @Test
  void aServingReplicaTrainsTheLocationModelAndRanksWithoutProbes() throws Exception {
    CoordinatorConfig config = CoordinatorConfig.builder(KAFKA.broker().bootstrapServers()).loopbackEphemeral().dimensions(4)
        .roundInterval(Duration.ofMillis(500)).geo(new GeoFiles(List.of(city), List.of(asn), true)).identity("serving")
        .serveOnly(true).build();
    try (Coordinator serving = Coordinator.start(config)) {
      await().atMost(Duration.ofSeconds(60)).until(() -> serving.servingState().servers().size() == SERVERS
          && serving.geoModel().trained() && serving.geoModel().servers().size() == SERVERS);
      assertThat(serving.targetsOwned()).as("no share of reed.samples").isZero();
      ManagedChannel ch = Grpc.newChannelBuilder("127.0.0.1:" + serving.grpcAddress().getPort(),
          InsecureChannelCredentials.create()).build();
      try {
        double[] tokyo = {35.68, 139.69};
        GetOrderedServersResponse page = ReedServiceGrpc.newBlockingStub(ch).withDeadlineAfter(30, TimeUnit.SECONDS)
            .getOrderedServers(GetOrderedServersRequest.newBuilder().setLocation(point(tokyo)).setPageSize(10).build());
        assertGeographicOrder(page, tokyo);
      } finally {
        ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void theClientsStatedLocationWinsOverItsAddress() {
    GetCalibrationServersResponse byAddress = reed.getCalibrationServers(GetCalibrationServersRequest.getDefaultInstance());
    assertThat(byAddress.getClientPlacement().getSource()).isEqualTo(LocationSource.LOCATION_SOURCE_DATABASE);
    assertThat(byAddress.getClientPlacement().getCountry()).isEqualTo("ES");
    assertThat(byAddress.hasFusion()).isTrue();
    assertThat(byAddress.getFusion().getGeo() + byAddress.getFusion().getCoordinates() + byAddress.getFusion().getRelay())
        .isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(byAddress.getServersList()).anyMatch(c -> c.getGeoPredictedRttUs() > 0);

    GetCalibrationServersResponse stated = reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder()
        .setLocation(point(LANDMARKS[4])).setCount(64).build());
    assertThat(stated.getClientPlacement().getSource()).isEqualTo(LocationSource.LOCATION_SOURCE_CLIENT);
    assertThat(stated.getClientPlacement().getPoint()).isEqualTo(point(LANDMARKS[4]));
    // Sydney's own beacon is predicted nearest of the beacons
    CalibrationServer sydney = stated.getServersList().stream()
        .filter(c -> c.getKind() == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON && c.getLandmarkId().equals("lm-4"))
        .findFirst().orElseThrow();
    assertThat(stated.getServersList()).filteredOn(c -> c.getKind() == CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON)
        .allMatch(c -> c.getGeoPredictedRttUs() >= sydney.getGeoPredictedRttUs());

    // zero-probe from the address (Madrid) and from a stated Sydney: different nearest servers
    RankedServer fromMadrid = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setPageSize(1).build()).getServers(0);
    RankedServer fromSydney = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setPageSize(1)
        .setLocation(point(LANDMARKS[4])).build()).getServers(0);
    assertThat(km(at[index(fromMadrid)], CLIENT_ADDRESS_AT)).isLessThan(2500);
    assertThat(km(at[index(fromSydney)], LANDMARKS[4])).isLessThan(2500);

    // out of range: INVALID_ARGUMENT naming the field
    assertThatThrownBy(() -> reed.getOrderedServers(GetOrderedServersRequest.newBuilder()
        .setLocation(GeoPoint.newBuilder().setLatitudeDeg(91).setLongitudeDeg(0)).build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
          assertThat(e.getStatus().getDescription()).contains("latitude_deg");
        });
    assertThatThrownBy(() -> reed.getCalibrationServers(GetCalibrationServersRequest.newBuilder()
        .setLocation(GeoPoint.newBuilder().setLatitudeDeg(0).setLongitudeDeg(Double.NaN)).build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
  }

  @Test
  void withAClientCoordinateAndAPriorTheOrderIsTheFusedPrediction() {
    Coordinate client = coordinator.servingState().servers().get(Endpoints.key(server(2))).getCoordinate();
    GetOrderedServersResponse page = reed.getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(client)
        .setLocation(point(at[2])).setPageSize(SERVERS).build());
    assertThat(page.getServersCount()).isEqualTo(SERVERS);
    GeoModel g = coordinator.geoModel();
    int previous = 0;
    for (RankedServer r : page.getServersList()) {
      assertThat(r.getPredictedRttUs()).isGreaterThanOrEqualTo(previous);
      previous = r.getPredictedRttUs();
    }
    // the server itself and its cluster come first, by either source
    assertThat(page.getServersList().subList(0, 5)).allMatch(r -> km(at[index(r)], at[2]) < 3000);
    // a located server's served prediction is the fusion of its two predictions, with the fitted weights
    double wg = g.estimator().weights().geo();
    double wc = g.estimator().weights().coordinate();
    dev.reed.coordinates.Coordinate me = dev.reed.coordinator.index.CoordinateCodec.fromProto(client, 4, "client");
    for (RankedServer r : page.getServersList().subList(0, 20)) {
      if (!located(index(r)) || wg + wc == 0) continue;
      double coordinateMs = me.distanceTo(dev.reed.coordinator.index.CoordinateCodec.fromProto(r.getCoordinate(), 4, "s"));
      double expected = (wg * r.getGeoPredictedRttUs() / 1000.0 + wc * coordinateMs) / (wg + wc);
      assertThat(r.getPredictedRttUs() / 1000.0).as("server %d", index(r))
          .isCloseTo(expected, org.assertj.core.api.Assertions.within(0.05));
    }
  }

  @Test
  void aLandmarkAnnouncingAnImpossibleLocationIsIgnoredAndCounted() {
    // lm-7's RTTs (a few ms to Frankfurt and London) contradict the Sydney it announces: it falls back
    // to the database's answer for its beacon (Paris); the honest landmarks keep their announcements
    GeoModel g = coordinator.geoModel();
    assertThat(g.beacons().get(Endpoints.key(beacon(LIAR))).placement().getSource())
        .isEqualTo(LocationSource.LOCATION_SOURCE_DATABASE);
    assertThat(g.beacons().get(Endpoints.key(beacon(LIAR))).place().lat()).isEqualTo(LANDMARKS[LIAR][0]);
    for (int i = 0; i < LIAR; i++) {
      assertThat(g.beacons().get(Endpoints.key(beacon(i))).placement().getSource()).as(CITIES[i])
          .isEqualTo(LocationSource.LOCATION_SOURCE_ANNOUNCED);
    }
    // counted once, however many rounds have trained since
    await().atMost(Duration.ofSeconds(20)).until(() -> coordinator.meterRegistry().find("reed_geo_trainings").functionCounter()
        .count() >= 3);
    assertThat(coordinator.meterRegistry().find("reed_geo_locations_ignored").tag("reason", "contradicted")
        .functionCounter().count()).isEqualTo(1.0);
    assertThat(coordinator.meterRegistry().scrape()).contains("reed_geo_locations_ignored_total{reason=\"contradicted\"} 1.0");
  }

  @Test
  void forwardedForIsBelievedOnlyFromATrustedProxy() throws Exception {
    Metadata h = new Metadata();
    h.put(Metadata.Key.of("x-forwarded-for", Metadata.ASCII_STRING_MARSHALLER), "198.51.100.9");
    // this coordinator trusts no proxy: the header is ignored, the peer 127.0.0.1 (Madrid) is the client
    GetCalibrationServersResponse untrusted = reed.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
        .getCalibrationServers(GetCalibrationServersRequest.getDefaultInstance());
    assertThat(untrusted.getClientPlacement().getCountry()).isEqualTo("ES");
    // a replica trusting loopback as its proxy believes the header
    CoordinatorConfig trusting = CoordinatorConfig.builder(KAFKA.broker().bootstrapServers()).loopbackEphemeral()
        .dimensions(4).groupId("trusting").trustedProxies(List.of("127.0.0.0/8"))
        .geo(new GeoFiles(List.of(dir.resolve("city.csv")), List.of(), true)).build();
    try (Coordinator c = Coordinator.start(trusting)) {
      ManagedChannel ch = Grpc.newChannelBuilder("127.0.0.1:" + c.grpcAddress().getPort(), InsecureChannelCredentials.create())
          .build();
      try {
        ReedServiceGrpc.ReedServiceBlockingStub stub = ReedServiceGrpc.newBlockingStub(ch).withInterceptors(new EachCallDeadline(30));
        GetCalibrationServersResponse forwarded = stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h))
            .getCalibrationServers(GetCalibrationServersRequest.getDefaultInstance());
        assertThat(forwarded.getClientPlacement().getCountry()).isEqualTo("JP");
        assertThat(forwarded.getClientPlacement().getPoint()).isEqualTo(point(FORWARDED_AT));
        // a client cannot spoof past the proxy: the rightmost untrusted hop is the client
        Metadata spoofed = new Metadata();
        spoofed.put(Metadata.Key.of("x-forwarded-for", Metadata.ASCII_STRING_MARSHALLER), "127.0.0.1, 198.51.100.9, 127.0.0.5");
        assertThat(stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(spoofed))
            .getCalibrationServers(GetCalibrationServersRequest.getDefaultInstance()).getClientPlacement().getCountry())
            .isEqualTo("JP");
        assertThat(stub.getCalibrationServers(GetCalibrationServersRequest.getDefaultInstance()).getClientPlacement()
            .getCountry()).isEqualTo("ES");
      } finally {
        ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }
}
