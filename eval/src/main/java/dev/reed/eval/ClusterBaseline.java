package dev.reed.eval;

import dev.reed.coordinates.clustering.ClusterConfig;
import dev.reed.coordinates.clustering.ClusterOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * Armitage's client-side clustering as a baseline: {@link ClusterOrder} (the same code the SDK's
 * fallback runs) driven over the matrix. The master list's order, which the clustering keeps within
 * a cluster, is drawn at random per client (a master server lists servers in no useful order). The
 * samples are the method's calibration probes; a sample comes in its cluster's turn as already
 * measured. The stand-in prediction for the auto-stop policies is {@link ClusterOrder}'s (a
 * sample's RTT, its cluster's statistic for the others); it is no RTT estimate (no relative error).
 */
final class ClusterBaseline {
  private final IntFunction<String> clusterOf;
  private final ClusterConfig config;

  /** @param clusterOf a server node's cluster label, or null when unknown */
  ClusterBaseline(IntFunction<String> clusterOf, ClusterConfig config) {
    this.clusterOf = clusterOf;
    this.config = config;
  }

  StaticOrder order(ClientView c) {
    int ns = c.servers().length;
    SplittableRandom r = new SplittableRandom(c.seed() * 0x9E3779B97F4A7C15L + 31L * c.client() + 7);
    int[] listed = Orders.shuffled(ns, r);
    List<ClusterOrder.Server> list = new ArrayList<>(ns);
    for (int j : listed) {
      list.add(new ClusterOrder.Server(Integer.toString(j), clusterOf.apply(c.servers()[j])));
    }
    ClusterOrder cluster = new ClusterOrder(config, list);
    boolean[] sampled = new boolean[ns];
    int[] order = new int[ns];
    double[] pred = new double[ns];
    int probes = 0;
    int k = 0;
    ClusterOrder.Pick p;
    while ((p = cluster.next()) != null) {
      int j = Integer.parseInt(p.key());
      if (p.kind() == ClusterOrder.Kind.SAMPLE) {
        sampled[j] = true;
        probes++;
      } else {
        order[k++] = j;
        pred[j] = p.predictedMs();
      }
      if (p.kind() != ClusterOrder.Kind.MEASURED) {
        double ms = c.actual()[j];
        if (Double.isFinite(ms)) {
          cluster.replied(p.key(), ms);
        } else {
          cluster.noReply(p.key());
        }
      }
    }
    if (k != ns) {
      throw new IllegalStateException("the clustering handed out " + k + " of " + ns + " servers");
    }
    return new StaticOrder(order, pred, probes, sampled, false);
  }
}
