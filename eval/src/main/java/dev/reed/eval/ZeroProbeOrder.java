package dev.reed.eval;

import dev.reed.coordinates.geo.FusedEstimator;
import dev.reed.coordinates.geo.Place;
import java.util.HashMap;
import java.util.Map;

/**
 * REED's zero-probe ranking for one client: what the coordinator serves to a
 * GetOrderedServers without a client coordinate, servers by the geographic prediction from where
 * the client is believed to be ({@link FusedEstimator#geoMs}: the distance line plus the server's
 * excess and a typical client's), without a probe. The web page and privacy-minded clients use it.
 */
final class ZeroProbeOrder {
  private final FusedEstimator estimator;
  private final Place[] believed;
  private final Map<Integer, Integer> serverIndex = new HashMap<>();

  /**
   * @param estimator trained on this seed ({@link FusedTraining}); its servers are {@code servers}
   * @param servers the seed's positioned servers, in the estimator's order
   * @param believed where each client is believed to be, by node (null = unknown)
   */
  ZeroProbeOrder(FusedEstimator estimator, int[] servers, Place[] believed) {
    this.estimator = estimator;
    this.believed = believed;
    for (int j = 0; j < servers.length; j++) {
      serverIndex.put(servers[j], j);
    }
  }

  /** The ranking; null when the client's location is unknown (the coordinator refuses such a request). */
  StaticOrder order(ClientView c) {
    Place at = believed[c.client()];
    if (at == null) {
      return null;
    }
    int ns = c.servers().length;
    double[] pred = new double[ns];
    for (int j = 0; j < ns; j++) {
      pred[j] = estimator.geoMs(at, serverIndex.get(c.servers()[j]));
    }
    return StaticOrder.uncalibrated(Orders.ascending(pred), pred, true);
  }
}
