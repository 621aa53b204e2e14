package dev.reed.eval;

/**
 * Orders servers by great-circle distance from where the client is believed to be, with no probe
 * at all: what web server lists do today from a GeoIP lookup of the player and of every server.
 * An unlocated server comes last. Predictions are the distance through a {@link DistanceLine}
 * fitted on the landmarks' measurements, or none without one.
 */
final class GeoDistance {
  private final GeoPoint[] believed;
  private final DistanceLine line;

  /**
   * @param believed where each node is believed to be (true locations, or displaced ones), null = unknown
   * @param line km to ms, or null
   */
  GeoDistance(GeoPoint[] believed, DistanceLine line) {
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
      GeoPoint at = believed[c.servers()[j]];
      km[j] = at == null ? Double.NaN : from.kmTo(at);
      pred[j] = line == null || at == null ? Double.NaN : line.ms(km[j]);
    }
    return StaticOrder.uncalibrated(Orders.ascending(km), pred, line != null);
  }
}
