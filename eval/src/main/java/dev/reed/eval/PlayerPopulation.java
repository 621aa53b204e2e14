package dev.reed.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Players in cities ({@code --players K}): a measured matrix holds one host per site, while a game
 * has many players per city and per network, each behind its own last mile. This adds {@code K}
 * players near every host; a player's RTT to any node is its host's RTT plus the player's own
 * access delay, and to its own host the access delay plus {@link #METRO_MS} (the same city).
 * Players are clients only: never servers, never landmarks. Each has its own GeoIP displacement
 * (they are nodes of their own, {@link GeoErrorModel#displace}), and other players of the same
 * city are the neighbours whose client reports a scored player can learn from.
 *
 * <p>The access delay is log-normal with median {@link #ACCESS_MEDIAN_MS} and 90th percentile
 * {@link #ACCESS_P90_MS}: a modelling choice for home broadband (cable and DSL add roughly 5-25 ms
 * of RTT on the last mile, fibre less), drawn once per player from a fixed population seed, so
 * every landmark seed sees the same players.
 */
final class PlayerPopulation {
  /** Median access delay a player adds to every RTT (ms). */
  static final double ACCESS_MEDIAN_MS = 10;
  /** Its 90th percentile (ms). */
  static final double ACCESS_P90_MS = 25;
  /** RTT between a player's access network and a host in its own city, beyond the access delay (ms). */
  static final double METRO_MS = 1;
  /** Most players one host may get (the matrix grows with the square of the node count). */
  static final int MAX_PER_HOST = 16;

  private static final double Z90 = 1.2815515655446004;
  private static final long POPULATION_SEED = 0x5EED_C17EL;

  private PlayerPopulation() {}

  /**
   * The matrix with {@code perHost} players after the hosts, host by host (players 0..K-1 of host
   * 0, then of host 1, ...).
   *
   * @throws IllegalArgumentException when perHost is outside 1..{@link #MAX_PER_HOST} or the
   *     matrix already holds players
   */
  static RttMatrix of(RttMatrix hosts, int perHost) {
    if (perHost < 1 || perHost > MAX_PER_HOST) {
      throw new IllegalArgumentException("--players must be 1-" + MAX_PER_HOST + ", got " + perHost);
    }
    int h = hosts.size();
    if (hosts.hosts() != h) {
      throw new IllegalArgumentException("the matrix already holds players");
    }
    int n = h + h * perHost;
    int[] home = new int[n];
    double[] access = new double[n];
    List<NodeTable.Node> nodes = new ArrayList<>(hosts.nodes().nodes());
    double sigma = Math.log(ACCESS_P90_MS / ACCESS_MEDIAN_MS) / Z90;
    for (int v = 0; v < n; v++) {
      if (v < h) {
        home[v] = v;
        continue;
      }
      int p = v - h;
      home[v] = p / perHost;
      access[v] = ACCESS_MEDIAN_MS * Math.exp(sigma * new SplittableRandom(POPULATION_SEED + v).nextGaussian());
      NodeTable.Node at = hosts.nodes().node(home[v]);
      nodes.add(new NodeTable.Node("player" + (p % perHost) + "@" + at.name(), at.location(), at.country(), at.asn(),
          at.region()));
    }
    double[][] ms = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        ms[a][b] = a == b ? 0 : rtt(hosts, home, access, a, b);
      }
    }
    return new RttMatrix(ms, new NodeTable(nodes), home);
  }

  private static double rtt(RttMatrix hosts, int[] home, double[] access, int a, int b) {
    int ha = home[a];
    int hb = home[b];
    double between = ha == hb ? METRO_MS : hosts.ms()[ha][hb];
    return between + access[a] + access[b];
  }
}
