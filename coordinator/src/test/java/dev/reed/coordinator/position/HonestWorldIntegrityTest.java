package dev.reed.coordinator.position;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.integrity.IntegrityConfig;
import dev.reed.coordinates.integrity.MeshBounds;
import dev.reed.coordinates.integrity.ServerConsistency;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.proto.v1.IntegrityKind;
import dev.reed.proto.v1.ServerIntegrity;
import dev.reed.testbed.world.Region;
import dev.reed.testbed.world.SyntheticWorldModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The host integrity check on an honest emulated world of 5,000 game servers (testbed
 * {@link SyntheticWorldModel}: routes inflated log-normally, 4 % of them detoured 1.6x, access
 * delays, as calibrated on planetlab490), with what a coordinator really holds: window minima of 8
 * noisy rounds (congestion adds up to 10 % or 2 ms) and the mesh's minima. No server may be
 * flagged. Also the cost of a round's checks at 10,000 servers.
 */
class HonestWorldIntegrityTest {
  @Test
  void noneOf5000HonestServersIsFlaggedAndTenThousandChecksAreCheap() {
    SyntheticWorldModel.Builder b = SyntheticWorldModel.builder(5000);
    List<Integer> lm = new ArrayList<>();
    for (Region r : List.of(Region.EU, Region.EU, Region.EU, Region.EU, Region.NA, Region.NA, Region.NA, Region.SA,
        Region.AS, Region.AS, Region.OC, Region.AF, Region.ME, Region.EU, Region.NA, Region.AS)) {
      lm.add(b.addLandmark("lm-" + lm.size(), r));
    }
    int first = b.addGameServers(10_000);
    SyntheticWorldModel world = b.build();
    SplittableRandom noise = new SplittableRandom(1);
    int l = lm.size();
    List<String> ids = new ArrayList<>();
    for (int k = 0; k < l; k++) ids.add("lm-" + k);
    double[][] mesh = new double[l][l];
    for (int a = 0; a < l; a++) {
      for (int c = 0; c < l; c++) mesh[a][c] = a == c ? 0 : windowMinimum(world.rttMs(lm.get(a), lm.get(c)), noise, 32);
    }
    HostIntegrity integrity = new HostIntegrity(new ServerConsistency(IntegrityConfig.defaults()));
    MeshBounds bounds = integrity.bounds(ids, new MeshWindows.Mesh(ids, mesh), Map.of());
    double[][] rows = new double[10_000][l];
    for (int s = 0; s < rows.length; s++) {
      for (int k = 0; k < l; k++) rows[s][k] = windowMinimum(world.rttMs(lm.get(k), first + s), noise, 8);
    }
    int flagged = 0;
    int withViolations = 0;
    for (int s = 0; s < 5000; s++) {
      ServerIntegrity v = integrity.verdict(bounds, rows[s]);
      assertThat(v.getPairsChecked()).isPositive();
      if (v.getKind() != IntegrityKind.INTEGRITY_KIND_OK) flagged++;
      if (v.getViolatingPairs() > 0) withViolations++;
    }
    System.out.printf("integrity: honest world: %d of 5000 servers flagged, %d with a violated pair%n", flagged,
        withViolations);
    assertThat(flagged).isZero();

    // cost: what a round adds at 10,000 servers (the positioning itself takes ~60 us a server)
    long best = Long.MAX_VALUE;
    for (int rep = 0; rep < 5; rep++) {
      long t0 = System.nanoTime();
      MeshBounds again = integrity.bounds(ids, new MeshWindows.Mesh(ids, mesh), Map.of());
      int n = 0;
      for (double[] row : rows) if (integrity.verdict(again, row).getKind() == IntegrityKind.INTEGRITY_KIND_OK) n++;
      best = Math.min(best, System.nanoTime() - t0);
      assertThat(n).isPositive();
    }
    System.out.printf("integrity: 10,000 servers x %d landmarks checked in %.1f ms (%.2f us a server, best of 5)%n", l,
        best / 1e6, best / 1e3 / rows.length);
  }

  /** The minimum of {@code rounds} samples, each the RTT plus congestion (up to 10 % of it or 2 ms). */
  private static double windowMinimum(double rttMs, SplittableRandom noise, int rounds) {
    double min = Double.POSITIVE_INFINITY;
    for (int i = 0; i < rounds; i++) min = Math.min(min, rttMs + noise.nextDouble(Math.max(2, 0.1 * rttMs)));
    return Math.round(min * 1000) / 1000.0;
  }
}
