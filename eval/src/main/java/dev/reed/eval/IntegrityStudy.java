package dev.reed.eval;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkEmbedder;
import dev.reed.coordinates.LandmarkEmbedding;
import dev.reed.coordinates.PositionFit;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.integrity.IntegrityConfig;
import dev.reed.coordinates.integrity.IntegrityKind;
import dev.reed.coordinates.integrity.IntegrityVerdict;
import dev.reed.coordinates.integrity.MeshBounds;
import dev.reed.coordinates.integrity.ReplyEvidence;
import dev.reed.coordinates.integrity.ServerConsistency;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Hosts that lie on a measured matrix: every non-landmark node is a server, checked by
 * the coordinator's {@link ServerConsistency} from the RTTs the landmarks measured to it. With no
 * attack every flag is a false alarm. With an attack, a share of the servers lie:
 *
 * <ul>
 *   <li>{@code anycast}: the server's queries are answered by the nearest of three sites, its own
 *       and two other nodes at least 80 ms from it and from each other (other continents on the
 *       located matrices), so each landmark measures the minimum over the three; the game itself
 *       runs at the server's own node.</li>
 *   <li>{@code proxy}: a query proxy beside one landmark (1 ms from it, chosen among those 50 ms or
 *       more from the server) answers that landmark; every other landmark measures the real RTT plus
 *       a 5 ms detour through the proxy.</li>
 * </ul>
 *
 * <p>Reply digests (the agents' reply forensics): every landmark gets the same reply from an honest
 * server and from a proxy (its one stored reply); from an anycast server each landmark gets the
 * reply of the site that answers it, one state per site. They name flagged servers ANYCAST or PROXY
 * and never flag one. The challenge tells are not simulated: a matrix has no replies to forge, and
 * a proxy that gives them is flagged whatever its RTTs (measured against real parts instead).
 *
 * <p>Ranking quality of honest clients: each honest server is a client in turn, positioned from
 * the landmarks' true RTTs to it; it ranks servers by predicted RTT (coordinate distance), and
 * P@10 is the share of the first ten that are among its ten truly nearest honest servers. Lists:
 * honest servers only (no attack), with the attackers at their lying positions (include), flagged
 * servers last (demote) and flagged servers left out (hide); demote and hide also move the honest
 * servers flagged by mistake.
 */
final class IntegrityStudy {
  /** The attack simulated. */
  enum Attack { NONE, ANYCAST, PROXY }

  /** What to run. */
  record Settings(IntegrityConfig integrity, Attack attack, double share, CoordinateConfig coordinates, int landmarks,
      LandmarkStrategy strategy, double kmedoidsCapMs, long seed, int seeds, int clientsPerSeed) {}

  /** One landmark seed's figures. */
  record SeedResult(long seed, int servers, int honestFlagged, int attackers, int attackersFlagged,
      Map<IntegrityKind, Integer> honestKinds, Map<IntegrityKind, Integer> attackerKinds, int clients,
      double p10Clean, double p10Include, double p10Demote, double p10Hide) {}

  private static final double ANYCAST_SITE_MIN_MS = 80;
  private static final double PROXY_MIN_MS = 50;
  private static final double PROXY_DETOUR_MS = 5;
  private static final int TOP = 10;

  private final RttMatrix m;
  private final Settings s;

  IntegrityStudy(RttMatrix m, Settings s) {
    this.m = m;
    this.s = s;
  }

  List<SeedResult> run() {
    List<SeedResult> out = new ArrayList<>();
    for (int i = 0; i < s.seeds(); i++) {
      out.add(runSeed(s.seed() + i));
    }
    return out;
  }

  SeedResult runSeed(long seed) {
    int n = m.size();
    int[] lm = s.strategy().choose(m, s.landmarks(), seed, s.kmedoidsCapMs());
    int l = lm.length;
    boolean[] isLandmark = new boolean[n];
    for (int k : lm) isLandmark[k] = true;
    int[] servers = java.util.stream.IntStream.range(0, n).filter(v -> !isLandmark[v]).toArray();
    Place[] lmPlaces = new Place[l];
    for (int k = 0; k < l; k++) lmPlaces[k] = place(lm[k]);
    ServerConsistency check = new ServerConsistency(s.integrity());
    MeshBounds bounds = check.bounds(m.sub(lm), lmPlaces, null);

    SplittableRandom rng = new SplittableRandom(seed * 31 + 7);
    boolean[] attacker = new boolean[n];
    int attackers = 0;
    if (s.attack() != Attack.NONE) {
      int want = (int) Math.max(1, Math.round(s.share() * servers.length));
      int[] shuffled = servers.clone();
      for (int i = shuffled.length - 1; i > 0; i--) {
        int j = rng.nextInt(i + 1);
        int t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
      }
      for (int i = 0; i < want && i < shuffled.length; i++) attacker[shuffled[i]] = true;
      attackers = Math.min(want, shuffled.length);
    }

    double[][] rows = new double[n][];
    long[][] digests = new long[n][];
    for (int v : servers) {
      double[] r = new double[l];
      for (int k = 0; k < l; k++) r[k] = m.rtt(lm[k], v);
      // one host, one game state: every landmark gets the same reply bytes (a proxy's stored reply too)
      long[] d = new long[l];
      java.util.Arrays.fill(d, v + 1L);
      if (attacker[v]) r = lie(v, r, d, lm, servers, rng);
      rows[v] = r;
      digests[v] = d;
    }

    EnumMap<IntegrityKind, Integer> honestKinds = new EnumMap<>(IntegrityKind.class);
    EnumMap<IntegrityKind, Integer> attackerKinds = new EnumMap<>(IntegrityKind.class);
    boolean[] flagged = new boolean[n];
    for (int v : servers) {
      // the server's own location stands for what a location database would say of its address
      IntegrityVerdict verdict = check.check(bounds, rows[v], place(v), lmPlaces, new ReplyEvidence(0, digests[v]));
      flagged[v] = verdict.flagged();
      (attacker[v] ? attackerKinds : honestKinds).merge(verdict.kind(), 1, Integer::sum);
    }
    int honestFlagged = 0;
    int attackersFlagged = 0;
    for (int v : servers) {
      if (flagged[v]) {
        if (attacker[v]) attackersFlagged++;
        else honestFlagged++;
      }
    }

    CoordinateConfig cfg = s.coordinates();
    LandmarkEmbedding emb = new LandmarkEmbedder(cfg, new SplittableRandom(seed)).embed(m.sub(lm), null);
    HostPositioner positioner = new HostPositioner(cfg);
    Coordinate[] served = new Coordinate[n]; // an honest server's is also where it is as a client
    for (int v : servers) served[v] = fit(positioner, emb, rows[v]);
    int[] honest = Arrays.stream(servers).filter(v -> !attacker[v] && served[v] != null).toArray();
    int[] clients = honest.clone();
    for (int i = clients.length - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = clients[i];
      clients[i] = clients[j];
      clients[j] = t;
    }
    if (clients.length > s.clientsPerSeed()) clients = Arrays.copyOf(clients, s.clientsPerSeed());
    double clean = 0, include = 0, demote = 0, hide = 0;
    int scored = 0;
    for (int c : clients) {
      Coordinate me = served[c];
      int[] truth = Arrays.stream(honest).filter(v -> v != c && !Double.isNaN(m.rtt(c, v))).boxed()
          .sorted(Comparator.comparingDouble(v -> m.rtt(c, v))).limit(TOP).mapToInt(Integer::intValue).toArray();
      if (truth.length < TOP) continue;
      boolean[] relevant = new boolean[n];
      for (int v : truth) relevant[v] = true;
      Integer[] all = Arrays.stream(servers).filter(v -> v != c && served[v] != null).boxed().toArray(Integer[]::new);
      Arrays.sort(all, Comparator.comparingDouble(v -> me.distanceTo(served[v])));
      clean += precision(all, relevant, v -> !attacker[v], v -> 0);
      include += precision(all, relevant, v -> true, v -> 0);
      demote += precision(all, relevant, v -> true, v -> flagged[v] ? 1 : 0);
      hide += precision(all, relevant, v -> !flagged[v], v -> 0);
      scored++;
    }
    return new SeedResult(seed, servers.length, honestFlagged, attackers, attackersFlagged, honestKinds, attackerKinds,
        scored, clean / scored, include / scored, demote / scored, hide / scored);
  }

  /** P@10 of the list (already in predicted order) filtered by {@code keep}, stably moved back by {@code tier}. */
  private static double precision(Integer[] ordered, boolean[] relevant, java.util.function.IntPredicate keep,
      java.util.function.IntUnaryOperator tier) {
    int hits = 0;
    int taken = 0;
    for (int t = 0; t <= 1 && taken < TOP; t++) {
      for (int v : ordered) {
        if (taken == TOP) break;
        if (!keep.test(v) || tier.applyAsInt(v) != t) continue;
        taken++;
        if (relevant[v]) hits++;
      }
    }
    return hits / (double) TOP;
  }

  /**
   * The attacker's RTTs; {@code digests} (each landmark's reply digest, filled with the server's
   * own) is rewritten for anycast: each site runs its own instance, with its own state.
   */
  private double[] lie(int v, double[] honest, long[] digests, int[] lm, int[] servers, SplittableRandom rng) {
    double[] r = honest.clone();
    switch (s.attack()) {
      case ANYCAST -> {
        int[] sites = farSites(v, servers, rng);
        for (int k = 0; k < lm.length; k++) {
          for (int site : sites) {
            double d = m.rtt(lm[k], site);
            if (d < r[k] || Double.isNaN(r[k])) {
              r[k] = d;
              digests[k] = -(site + 1L);
            }
          }
        }
      }
      case PROXY -> {
        int[] far = java.util.stream.IntStream.range(0, lm.length).filter(k -> honest[k] >= PROXY_MIN_MS).toArray();
        if (far.length == 0) return r;
        int a = far[rng.nextInt(far.length)];
        for (int k = 0; k < lm.length; k++) r[k] = k == a ? 1 : honest[k] + PROXY_DETOUR_MS;
      }
      case NONE -> { }
    }
    return r;
  }

  /** Two nodes at least 80 ms from {@code v} and from each other (the farthest found in 500 tries otherwise). */
  private int[] farSites(int v, int[] servers, SplittableRandom rng) {
    int[] best = null;
    double bestScore = -1;
    for (int tries = 0; tries < 500; tries++) {
      int a = servers[rng.nextInt(servers.length)];
      int b = servers[rng.nextInt(servers.length)];
      if (a == v || b == v || a == b) continue;
      double score = Math.min(m.rtt(v, a), Math.min(m.rtt(v, b), m.rtt(a, b)));
      if (Double.isNaN(score)) continue;
      if (score > bestScore) {
        bestScore = score;
        best = new int[] {a, b};
      }
      if (score >= ANYCAST_SITE_MIN_MS) break;
    }
    return best == null ? new int[0] : best;
  }

  private Coordinate fit(HostPositioner positioner, LandmarkEmbedding emb, double[] r) {
    try {
      PositionFit f = positioner.position(emb.coordinates(), r, null);
      return f.coordinate();
    } catch (IllegalArgumentException | ArithmeticException e) {
      return null;
    }
  }

  private Place place(int v) {
    GeoPoint p = m.nodes().nodes().get(v).location();
    return p == null ? null : Place.of(p.lat(), p.lon());
  }
}
