package dev.reed.eval;

/**
 * Orders servers by great-circle distance from where the client is believed to be, with no probe
 * at all: what web server lists do today from a GeoIP lookup. Servers are where the node list says
 * (a game server's hosting location is well known); an unlocated server comes last. Predictions
 * are the distance through a {@link DistanceLine} fitted on the landmarks' measurements, or none
 * without one.
 */
final class GeoDistance {
  private final NodeTable nodes;
  private final GeoPoint[] believed;
  private final DistanceLine line;

  /**
   * @param believed where each client is believed to be (its true location, or a displaced one)
   * @param line km to ms, or null
   */
  GeoDistance(NodeTable nodes, GeoPoint[] believed, DistanceLine line) {
    this.nodes = nodes;
    this.believed = believed;
    this.line = line;
  }

  /** The client's order, or null when its location is unknown (it cannot use this method). */
  StaticOrder order(ClientView c) {
    GeoPoint from = believed[c.client()];
    if (from == null) {
      return null;
    }
    int ns = c.servers().length;
    double[] km = new double[ns];
    double[] pred = new double[ns];
    for (int j = 0; j < ns; j++) {
      GeoPoint at = nodes.node(c.servers()[j]).location();
      km[j] = at == null ? Double.NaN : from.kmTo(at);
      pred[j] = line == null || at == null ? Double.NaN : line.ms(km[j]);
    }
    return StaticOrder.uncalibrated(Orders.ascending(km), pred, line != null);
  }
}
