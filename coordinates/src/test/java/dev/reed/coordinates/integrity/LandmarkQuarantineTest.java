package dev.reed.coordinates.integrity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkEmbedder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A Euclidean world with jitter, simulated round by round with windows of 8 samples per pair, as
 * the coordinator keeps them: honest landmarks are never quarantined, a liar is within
 * {@code quarantineAfter} rounds and readmitted after it turns honest and its window flushed.
 */
class LandmarkQuarantineTest {
  private static final int L = 12;
  private static final int S = 150;
  private static final int W = 8;
  private static final CoordinateConfig CFG = CoordinateConfig.defaults();

  enum Lie { NONE, SHIFT30, RANDOM, OFFSET10, SCALE13 }

  /** The world: true positions, and rolling windows of samples per (server, landmark) and mesh pair. */
  private static final class World {
    final SplittableRandom rnd;
    final double[][] truthServer = new double[S][L];
    final double[][] truthMesh = new double[L][L];
    final double[][][] serverWindow = new double[S][L][W];
    final double[][][] meshWindow = new double[L][L][W]; // [reporter][peer]
    int round;

    World(long seed) {
      rnd = new SplittableRandom(seed);
      double[][] lm = new double[L][];
      for (int i = 0; i < L; i++) lm[i] = point();
      for (int s = 0; s < S; s++) {
        double[] p = point();
        for (int i = 0; i < L; i++) truthServer[s][i] = dist(p, lm[i]);
      }
      for (int i = 0; i < L; i++) for (int j = 0; j < L; j++) truthMesh[i][j] = i == j ? 0 : dist(lm[i], lm[j]);
    }

    double[] point() {
      double[] p = new double[4];
      for (int d = 0; d < 4; d++) p[d] = rnd.nextDouble(0, 150);
      return p;
    }

    static double dist(double[] a, double[] b) {
      double s = 0;
      for (int d = 0; d < a.length; d++) s += (a[d] - b[d]) * (a[d] - b[d]);
      return 5 + Math.sqrt(s); // 5 ms of access delay that no Euclidean point absorbs: honest fit error
    }

    double sample(double truth, int landmark, Map<Integer, Lie> liars) {
      double honest = truth + rnd.nextDouble() * (1 + 0.03 * truth); // queueing: positive jitter
      return switch (liars.getOrDefault(landmark, Lie.NONE)) {
        case NONE -> honest;
        case SHIFT30 -> rnd.nextBoolean() ? honest + 30 : honest;
        case RANDOM -> rnd.nextDouble(1, 400);
        case OFFSET10 -> honest + 10;
        case SCALE13 -> honest * 1.3;
      };
    }

    void round(Map<Integer, Lie> liars) {
      int slot = round++ % W;
      for (int s = 0; s < S; s++) for (int i = 0; i < L; i++) serverWindow[s][i][slot] = sample(truthServer[s][i], i, liars);
      for (int i = 0; i < L; i++) for (int j = 0; j < L; j++) {
        if (i != j) meshWindow[i][j][slot] = sample(truthMesh[i][j], i, liars);
      }
    }

    int filled() {
      return Math.min(round, W);
    }

    double[][] mesh() {
      double[][] m = new double[L][L];
      for (int i = 0; i < L; i++) for (int j = 0; j < L; j++) {
        m[i][j] = i == j ? 0 : Math.min(min(meshWindow[i][j]), min(meshWindow[j][i])); // both directions, as MeshWindows
      }
      return m;
    }

    double min(double[] w) {
      double m = Double.POSITIVE_INFINITY;
      for (int k = 0; k < filled(); k++) m = Math.min(m, w[k]);
      return m;
    }
  }

  private final LandmarkResiduals residuals = new LandmarkResiduals(new HostPositioner(CFG), QuarantineConfig.defaults());

  /** Runs rounds; returns per round the quarantined set. The embedding is re-fitted without the quarantined ones. */
  private List<Set<String>> run(World w, LandmarkQuarantine q, int rounds, Map<Integer, Lie> liars) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < L; i++) ids.add("l" + i);
    List<Set<String>> out = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      w.round(liars);
      double[][] mesh = w.mesh();
      List<Integer> kept = new ArrayList<>();
      for (int i = 0; i < L; i++) if (!q.quarantined().contains(ids.get(i))) kept.add(i);
      double[][] sub = new double[kept.size()][kept.size()];
      for (int a = 0; a < kept.size(); a++) for (int b = 0; b < kept.size(); b++) sub[a][b] = mesh[kept.get(a)][kept.get(b)];
      List<Coordinate> emb = new LandmarkEmbedder(CFG, new SplittableRandom(7)).embed(sub, null).coordinates();
      Map<String, Coordinate> trusted = new HashMap<>();
      for (int a = 0; a < kept.size(); a++) trusted.put(ids.get(kept.get(a)), emb.get(a));
      double[][] min = new double[S][L];
      double[][] spread = new double[S][L];
      double[][] newest = new double[S][L];
      for (int s = 0; s < S; s++) for (int i = 0; i < L; i++) {
        min[s][i] = w.min(w.serverWindow[s][i]);
        spread[s][i] = LandmarkResiduals.spread(w.serverWindow[s][i], w.filled());
        newest[s][i] = w.serverWindow[s][i][(w.round - 1) % W];
      }
      out.add(q.update(residuals.measure(ids, mesh, trusted, min, spread, newest), CFG.dimensions() + 2).quarantined());
    }
    return out;
  }

  @Test
  void honestWorldQuarantinesNobody() {
    for (long seed = 1; seed <= 3; seed++) {
      List<Set<String>> rounds = run(new World(seed), new LandmarkQuarantine(QuarantineConfig.defaults(), Set.of()), 12, Map.of());
      for (Set<String> q : rounds) assertEquals(Set.of(), q, "seed " + seed);
    }
  }

  @Test
  void aPatientLiarAddingTenMsOrThirtyPercentToEverySampleIsQuarantinedByItsStep() {
    for (Lie lie : List.of(Lie.OFFSET10, Lie.SCALE13)) {
      World w = new World(5);
      LandmarkQuarantine q = new LandmarkQuarantine(QuarantineConfig.defaults(), Set.of());
      assertEquals(Set.of(), run(w, q, 10, Map.of()).getLast(), "honest first: a full window");
      List<Set<String>> lying = run(w, q, 4, Map.of(5, lie));
      assertEquals(Set.of(), lying.get(1), lie + ": never before 3 outlier rounds");
      assertEquals(Set.of("l5"), lying.get(2), lie + ": its newest samples stand above its window's minima");
    }
  }

  @Test
  void theStepSignalIsOffWithAnInfiniteFloor() {
    QuarantineConfig d = QuarantineConfig.defaults();
    QuarantineConfig off = new QuarantineConfig(d.madFactor(), d.residualFloor(), d.spreadFloor(), d.quarantineAfter(),
        d.readmitAfter(), d.maxQuarantinedFraction(), d.maxServers(), d.minServers(), Double.POSITIVE_INFINITY,
        Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
    World w = new World(5);
    LandmarkQuarantine q = new LandmarkQuarantine(off, Set.of());
    run(w, q, 10, Map.of());
    assertEquals(Set.of(), run(w, q, 4, Map.of(5, Lie.OFFSET10)).getLast(), "a patient liar the older signals miss");
  }

  @Test
  void randomRttsAreQuarantinedAfterThreeOutlierRoundsAndReadmittedOnceHonest() {
    World w = new World(4);
    LandmarkQuarantine q = new LandmarkQuarantine(QuarantineConfig.defaults(), Set.of());
    List<Set<String>> lying = run(w, q, 6, Map.of(3, Lie.RANDOM));
    assertEquals(Set.of(), lying.get(1), "never before 3 outlier rounds");
    // round 1's window has one sample (no spread) and its residuals stay under the 0.7 floor: rounds 2-4
    assertEquals(Set.of("l3"), lying.get(3), "quarantined in round 4");
    assertEquals(Set.of("l3"), lying.get(5));
    List<Set<String>> honest = run(w, q, 14, Map.of());
    int readmitted = honest.indexOf(Set.of()) + 1;
    // its random minima stay in the window W rounds, then readmitAfter clean rounds
    assertTrue(readmitted > 3 && readmitted <= W + 3, "readmitted after " + readmitted + " honest rounds");
    assertEquals(Set.of(), honest.getLast());
  }

  @Test
  void thirtyMsOnHalfTheSamplesIsCaughtByTheWindowSpread() {
    List<Set<String>> rounds = run(new World(5), new LandmarkQuarantine(QuarantineConfig.defaults(), Set.of()), 8,
        Map.of(7, Lie.SHIFT30));
    System.out.println("shift30: " + rounds);
    assertEquals(Set.of("l7"), rounds.get(5), "quarantined by round 6 (the window needs a few samples to show the spread)");
    assertEquals(Set.of("l7"), rounds.getLast());
  }

  @Test
  void neverQuarantinesMoreThanTheCap() {
    Map<Integer, Lie> many = Map.of(0, Lie.RANDOM, 1, Lie.RANDOM, 2, Lie.SHIFT30, 5, Lie.SHIFT30, 9, Lie.RANDOM);
    List<Set<String>> rounds = run(new World(6), new LandmarkQuarantine(QuarantineConfig.defaults(), Set.of()), 12, many);
    for (int r = 1; r < rounds.size(); r++) {
      assertTrue(rounds.get(r).size() - rounds.get(r - 1).size() <= 1, "one at a time: " + rounds);
      assertTrue(rounds.get(r).size() <= 3, "at most 25 % of 12: " + rounds.get(r));
    }
    assertEquals(3, rounds.getLast().size(), rounds.toString());
    assertTrue(many.keySet().stream().map(i -> "l" + i).collect(java.util.stream.Collectors.toSet())
        .containsAll(rounds.getLast()), "only liars: " + rounds.getLast());
  }

  @Test
  void aNewLeaderContinuesFromThePublishedSet() {
    LandmarkQuarantine q = new LandmarkQuarantine(QuarantineConfig.defaults(), List.of("l2"));
    List<Set<String>> rounds = run(new World(8), q, 2, Map.of());
    assertEquals(Set.of("l2"), rounds.get(1), "still quarantined until readmitAfter clean rounds");
  }
}
