package dev.reed.eval;

/**
 * RTT as a straight line of great-circle distance, {@code interceptMs + msPerKm * km}, fitted by
 * least squares on what a deployment measures with locations known on both ends: every landmark's
 * RTT to every located node. It gives geographic distance a scale in ms, so the geo baselines
 * predict RTTs (their relative error) and the RTT-based auto-stop policies can use them.
 */
record DistanceLine(double interceptMs, double msPerKm) {

  double ms(double km) {
    return interceptMs + msPerKm * km;
  }

  /**
   * Fits the line on the landmark-measured RTTs of one seed.
   *
   * @param at where each node is believed to be, null = unknown
   * @param servers the nodes the landmarks measured
   * @return the line, or null when fewer than 2 distinct located pairs were measured
   */
  static DistanceLine fit(GeoPoint[] at, int[] landmarks, int[] servers, double[][] landmarkRtt) {
    double n = 0;
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (int k = 0; k < landmarks.length; k++) {
      GeoPoint l = at[landmarks[k]];
      if (l == null) {
        continue;
      }
      for (int v : servers) {
        GeoPoint p = at[v];
        double y = landmarkRtt[v][k];
        if (p == null || !Double.isFinite(y)) {
          continue;
        }
        double x = l.kmTo(p);
        n++;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
      }
    }
    double var = n * sxx - sx * sx;
    if (n < 2 || !(var > 1e-9 * Math.max(1, n * sxx))) {
      return null;
    }
    double slope = (n * sxy - sx * sy) / var;
    return new DistanceLine((sy - slope * sx) / n, slope);
  }
}
