package dev.reed.coordinator.location;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.ranking.RankingFilter;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinates.ranking.ServerEntry;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.geo.IpLocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one location training costs (L x S leave-one-out host fits dominate it) at 500, 2,000 and
 * 10,000 servers, and what a page of the scanned rankings costs at 10,000, on the worlds of
 * {@link GeoTrainingTest}:
 *
 * <pre>
 * ./reed bench coordinator dev.reed.coordinator.location.GeoTrainingHarness
 * </pre>
 */
public final class GeoTrainingHarness {
  private GeoTrainingHarness() {}

  public static void main(String[] args) throws Exception {
    GeoTrainingTest worlds = new GeoTrainingTest();
    worlds.dir = Files.createTempDirectory("reed-geo-training-");
    for (int[] ln : new int[][] {{16, 500}, {16, 2000}, {16, 10_000}}) {
      GeoTrainingTest.World w = worlds.world(ln[0], ln[1], Map.of());
      try (IpLocator locator = w.locator(); GeoTraining t = worlds.training(locator, GeoTraining.DEFAULT_MAX_SERVERS)) {
        t.train(w.mesh(), w.state()); // warm-up (JIT, address cache)
        long t0 = System.nanoTime();
        GeoModel m = t.train(w.mesh(), w.state());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("geo training: %d landmarks x %d servers (trained on %d): %d ms, cv median error geo %.3f served %.3f%n",
            ln[0], ln[1], t.lastTrainedServers(), ms, m.errors().geo(), m.errors().geoAndCoordinates());
        if (ln[1] == 10_000) pageCosts(w, m);
      }
    }
  }

  /** The zero-probe and fused rankings scan every server: what one page costs beside the tree's. */
  private static void pageCosts(GeoTrainingTest.World w, GeoModel m) {
    List<ServerEntry> entries = new ArrayList<>();
    w.state().servers().forEach((k, c) -> entries.add(new ServerEntry(k,
        CoordinateCodec.fromProto(c.getCoordinate(), GeoTrainingTest.D, k), null)));
    RankingIndex index = RankingIndex.of(entries);
    Place client = new Place(48.85, 2.35, null);
    Coordinate me = entries.get(0).coordinate();
    RankingFilter none = RankingFilter.none();
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
