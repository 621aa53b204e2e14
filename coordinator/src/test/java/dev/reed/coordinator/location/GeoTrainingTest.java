package dev.reed.coordinator.location;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkEmbedder;
import dev.reed.coordinates.LandmarkEmbedding;
import dev.reed.coordinates.geo.EstimatorModel;
import dev.reed.coordinates.geo.LightBound;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.geo.GeoFiles;
import dev.reed.geo.IpLocator;
import dev.reed.geo.IpRangeCsvWriter;
import dev.reed.geo.Location;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.LocationSource;
import dev.reed.proto.v1.ServerCoordinate;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's training on a serving state built by hand: a geographic world of L landmarks
 * and N servers (RTT = 1 ms + 1 ms per 80 km + access delays), landmarks embedded and servers
 * positioned as the rounds would. Also measures what one training costs.
 */
class GeoTrainingTest {
  static final int D = 4;
  @TempDir Path dir;

  /** A world and the serving state the rounds would have built from it. */
  record World(ServingState state, MeshWindows.Mesh mesh, IpLocator locator, double[][] serverAt) {}

  static Endpoint server(int s) {
    return Endpoint.newBuilder().setIp("127.1." + (s / 250) + "." + (s % 250 + 1)).setPort(27960).build();
  }

  static Endpoint beacon(int k) {
    return Endpoint.newBuilder().setIp("127.2.0." + (k + 1)).setPort(27015).build();
  }

  static double rtt(double[] a, double accessA, double[] b, double accessB) {
    return 1 + new Place(a[0], a[1], null).kmTo(new Place(b[0], b[1], null)) / 80 + accessA + accessB;
  }

  World world(int l, int n, Map<Integer, double[]> databaseOverride) throws Exception {
    SplittableRandom r = new SplittableRandom(42);
    double[][] lm = new double[l][];
    for (int k = 0; k < l; k++) lm[k] = new double[] {r.nextDouble(-40, 60), r.nextDouble(-120, 150)};
    double[][] at = new double[n][];
    double[] access = new double[n];
    for (int s = 0; s < n; s++) {
      at[s] = new double[] {r.nextDouble(-40, 60), r.nextDouble(-120, 150)};
      access[s] = r.nextDouble(0.5, 8);
    }
    double[][] mesh = new double[l][l];
    for (int a = 0; a < l; a++) for (int b = 0; b < l; b++) mesh[a][b] = a == b ? 0 : rtt(lm[a], 0.5, lm[b], 0.5);
    CoordinateConfig cfg = new CoordinateConfig(D, false);
    LandmarkEmbedding e = new LandmarkEmbedder(cfg, new java.util.Random(1)).embed(mesh, null);
    HostPositioner positioner = new HostPositioner(cfg);
    Map<String, ServerCoordinate> servers = new HashMap<>();
    Map<InetAddress, Location> db = new HashMap<>();
    for (int s = 0; s < n; s++) {
      double[] ms = new double[l];
      ServerCoordinate.Builder b = ServerCoordinate.newBuilder().setEndpoint(server(s));
      for (int k = 0; k < l; k++) {
        ms[k] = rtt(lm[k], 0.5, at[s], access[s]);
        b.addLandmarkRtts(LandmarkRtt.newBuilder().setLandmarkId(String.format("lm%02d", k)).setRttUs((int) Math.round(ms[k] * 1000)));
      }
      Coordinate c = positioner.position(e.coordinates(), ms, null).coordinate();
      servers.put(Endpoints.key(server(s)), b.setCoordinate(CoordinateCodec.toProto(c)).build());
      double[] dbAt = databaseOverride.getOrDefault(s, at[s]);
      db.put(Endpoints.literal(server(s).getIp()), Location.of(dbAt[0], dbAt[1]));
    }
    Map<String, LandmarkCoordinate> landmarks = new HashMap<>();
    Map<String, Landmark> announcements = new HashMap<>();
    List<ServingState.Anchor> anchors = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (int k = 0; k < l; k++) {
      String id = String.format("lm%02d", k);
      ids.add(id);
      landmarks.put(id, LandmarkCoordinate.newBuilder().setLandmarkId(id).setBeacon(beacon(k))
          .setCoordinate(CoordinateCodec.toProto(e.coordinates().get(k))).setEpoch(1).build());
      announcements.put(id, Landmark.newBuilder().setLandmarkId(id).setBeacon(beacon(k))
          .setLocation(GeoPoint.newBuilder().setLatitudeDeg(lm[k][0]).setLongitudeDeg(lm[k][1])).build());
      anchors.add(new ServingState.Anchor(id, e.coordinates().get(k)));
    }
    Path csv = dir.resolve("city-" + l + "-" + n + ".csv");
    IpRangeCsvWriter.writeLocations(csv, db);
    ServingState state = new ServingState(RankingIndex.of(List.of()), servers, Map.of(), landmarks, anchors, announcements,
        Map.of(), 1, Instant.now(), D, false);
    return new World(state, new MeshWindows.Mesh(ids, mesh), IpLocator.open(new GeoFiles(List.of(csv), List.of(), true)), at);
  }

  GeoTraining training(IpLocator locator, int maxServers) {
    return new GeoTraining(new HostLocations(locator), EstimatorModel.defaults(), new CoordinateConfig(D, false), maxServers,
        LightBound.defaults(), Clock.systemUTC());
  }

  @Test
  void trainsOnADeterministicSampleAndPredictsEveryServer() throws Exception {
    World w = world(10, 300, Map.of());
    try (IpLocator locator = w.locator(); GeoTraining t = training(locator, 100)) {
      GeoModel a = t.train(w.mesh(), w.state());
      assertThat(t.lastTrainedServers()).isEqualTo(100);
      assertThat(a.trained()).isTrue();
      assertThat(a.errors().geo()).isLessThan(0.05);
      GeoModel b = t.train(w.mesh(), w.state());
      assertThat(b.estimator().weights()).isEqualTo(a.estimator().weights());
      assertThat(b.errors()).isEqualTo(a.errors());
      // every server has its excess and a prediction, sampled or not
      Place client = new Place(48.85, 2.35, null);
      for (int s = 0; s < 300; s++) {
        HostGeo h = a.server(Endpoints.key(server(s)));
        assertThat(h.located()).isTrue();
        assertThat(h.placement().getSource()).isEqualTo(LocationSource.LOCATION_SOURCE_DATABASE);
        double truth = rtt(new double[] {48.85, 2.35}, 0.5, w.serverAt()[s], 0); // access is in the server's excess
        assertThat(a.geoMs(client, h)).as("server %d", s).isBetween(truth - 15, truth + 15);
      }
    }
  }

  @Test
  void aServerWhoseRttsContradictItsDatabaseLocationIsNotLocated() throws Exception {
    // server 3's address is said to be 12,000 km from where its RTTs put it (anycast, a stale entry)
    World w = world(8, 40, Map.of(3, new double[] {-45, 170}));
    try (IpLocator locator = w.locator(); GeoTraining t = training(locator, 2000)) {
      HostLocations locations = new HostLocations(locator);
      GeoTraining counted = new GeoTraining(locations, EstimatorModel.defaults(), new CoordinateConfig(D, false), 2000,
          LightBound.defaults(), Clock.systemUTC());
      GeoModel m = counted.train(w.mesh(), w.state());
      counted.train(w.mesh(), w.state());
      counted.close();
      double[] s3 = w.serverAt()[3];
      boolean contradicted = false;
      for (int k = 0; k < 8; k++) {
        double[] lm = {w.state().announcements().get(String.format("lm%02d", k)).getLocation().getLatitudeDeg(),
            w.state().announcements().get(String.format("lm%02d", k)).getLocation().getLongitudeDeg()};
        contradicted |= rtt(lm, 0.5, s3, 8) + 5 < new Place(-45, 170, null).kmTo(new Place(lm[0], lm[1], null)) / 100;
      }
      assertThat(contradicted).as("the world makes server 3's database entry impossible").isTrue();
      assertThat(m.server(Endpoints.key(server(3))).located()).isFalse();
      assertThat(m.server(Endpoints.key(server(3))).placement().hasPoint()).isFalse();
      assertThat(m.server(Endpoints.key(server(4))).located()).isTrue();
      assertThat(locations.ignored(HostLocations.Reason.CONTRADICTED)).isEqualTo(1); // two trainings, counted once
    }
  }

  /** The cost of one training: L x S leave-one-out host fits dominate it. Printed; bounded loosely. */
  @Test
  void costOfOneTraining() throws Exception {
    for (int[] ln : new int[][] {{16, 500}, {16, 2000}, {16, 10_000}}) {
      World w = world(ln[0], ln[1], Map.of());
      try (IpLocator locator = w.locator(); GeoTraining t = training(locator, GeoTraining.DEFAULT_MAX_SERVERS)) {
        t.train(w.mesh(), w.state()); // warm-up (JIT, address cache)
        long t0 = System.nanoTime();
        GeoModel m = t.train(w.mesh(), w.state());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("geo training: %d landmarks x %d servers (trained on %d): %d ms, cv median error geo %.3f served %.3f%n",
            ln[0], ln[1], t.lastTrainedServers(), ms, m.errors().geo(), m.errors().geoAndCoordinates());
        assertThat(m.trained()).isTrue();
        assertThat(t.lastTrainedServers()).isEqualTo(Math.min(ln[1], GeoTraining.DEFAULT_MAX_SERVERS));
        assertThat(ms).isLessThan(60_000);
        if (ln[1] == 10_000) {
          // the zero-probe and fused rankings scan every server: what one page costs
          List<dev.reed.coordinates.ranking.ServerEntry> entries = new ArrayList<>();
          w.state().servers().forEach((k, c) -> entries.add(new dev.reed.coordinates.ranking.ServerEntry(k,
              CoordinateCodec.fromProto(c.getCoordinate(), D, k), null)));
          RankingIndex index = RankingIndex.of(entries);
          Place client = new Place(48.85, 2.35, null);
          Coordinate me = entries.get(0).coordinate();
          dev.reed.coordinates.ranking.RankingFilter none = dev.reed.coordinates.ranking.RankingFilter.none();
          for (int warm = 0; warm < 50; warm++) index.scan(null, (key, c) -> m.geoMs(client, m.server(key)), none, null, 230);
          int q = 200;
          long s0 = System.nanoTime();
          for (int i = 0; i < q; i++) index.scan(null, (key, c) -> m.geoMs(client, m.server(key)), none, null, 230);
          long s1 = System.nanoTime();
          for (int i = 0; i < q; i++) index.scan(me, (key, c) -> m.estimator().servedMs(m.geoMs(client, m.server(key)), c), none, null, 230);
          long s2 = System.nanoTime();
          for (int i = 0; i < q; i++) index.query(me, none, null, 230);
          long s3 = System.nanoTime();
          System.out.printf("ranking 10000 servers, page of 230: zero-probe scan %.2f ms, fused scan %.2f ms, tree (no prior) %.3f ms%n",
              (s1 - s0) / 1e6 / q, (s2 - s1) / 1e6 / q, (s3 - s2) / 1e6 / q);
        }
      }
    }
  }
}
