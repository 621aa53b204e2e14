package dev.reed.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * Armitage's client-side clustering, the published predecessor of REED (G. Armitage, "Optimising
 * online FPS game server discovery through clustering servers by origin autonomous system",
 * NOSSDAV 2008; and the country-code variant of the same group's client-side search
 * optimisation): servers are grouped by a key from the master list and the databases (country
 * code, or origin AS); the client probes a few servers of every cluster, then probes whole
 * clusters in ascending order of the lowest RTT it measured in each. The sample probes are its
 * calibration; a sampled server comes in its cluster's turn as already measured. Within a cluster
 * the rest follow in the master list's order, which the evaluator draws at random per client
 * (a master server lists servers in no useful order). Servers without a key form one cluster of
 * their own. The stand-in prediction for the auto-stop policies is the measured RTT of a sampled
 * server and its cluster's lowest sample for the others; it is no RTT estimate (no relative error).
 */
final class ClusterOrder {
  private final IntFunction<String> clusterOf;
  private final int perCluster;

  /**
   * @param clusterOf a server node's cluster key, or null when unknown
   * @param perCluster servers probed per cluster before ordering (Armitage used a few)
   */
  ClusterOrder(IntFunction<String> clusterOf, int perCluster) {
    if (perCluster < 1) {
      throw new IllegalArgumentException("probe at least one server per cluster: " + perCluster);
    }
    this.clusterOf = clusterOf;
    this.perCluster = perCluster;
  }

  StaticOrder order(ClientView c) {
    int ns = c.servers().length;
    SplittableRandom r = new SplittableRandom(c.seed() * 0x9E3779B97F4A7C15L + 31L * c.client() + 7);
    int[] listed = Orders.shuffled(ns, r);
    Map<String, List<Integer>> clusters = new LinkedHashMap<>();
    for (int j : listed) {
      String key = clusterOf.apply(c.servers()[j]);
      clusters.computeIfAbsent(key == null ? "" : key, k -> new ArrayList<>()).add(j);
    }
    boolean[] sampled = new boolean[ns];
    double[] measured = new double[ns];
    Arrays.fill(measured, Double.NaN);
    int probes = 0;
    List<List<Integer>> ranked = new ArrayList<>(clusters.values());
    double[] best = new double[ranked.size()];
    for (int q = 0; q < ranked.size(); q++) {
      List<Integer> members = ranked.get(q);
      best[q] = Double.NaN;
      for (int i = 0; i < Math.min(perCluster, members.size()); i++) {
        int j = members.get(i);
        sampled[j] = true;
        probes++;
        measured[j] = c.actual()[j];
        if (Double.isFinite(measured[j]) && !(measured[j] >= best[q])) {
          best[q] = measured[j];
        }
      }
    }
    int[] clusterRank = Orders.ascending(best);
    int[] order = new int[ns];
    double[] pred = new double[ns];
    int k = 0;
    for (int q : clusterRank) {
      List<Integer> members = ranked.get(q);
      List<Integer> samples = new ArrayList<>(members.subList(0, Math.min(perCluster, members.size())));
      samples.sort((a, b) -> Double.compare(finiteOrMax(measured[a]), finiteOrMax(measured[b])));
      for (int j : samples) {
        order[k++] = j;
        pred[j] = measured[j];
      }
      for (int j : members.subList(samples.size(), members.size())) {
        order[k++] = j;
        pred[j] = best[q];
      }
    }
    return new StaticOrder(order, pred, probes, sampled, false);
  }

  private static double finiteOrMax(double v) {
    return Double.isFinite(v) ? v : Double.MAX_VALUE;
  }
}
