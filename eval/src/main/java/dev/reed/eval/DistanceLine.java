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
   * @return the line, or null when fewer than 2 distinct located pairs were measured
   */
  static DistanceLine fit(NodeTable nodes, int[] landmarks, double[][] landmarkRtt) {
    double n = 0;
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (int k = 0; k < landmarks.length; k++) {
      GeoPoint l = nodes.node(landmarks[k]).location();
      if (l == null) {
        continue;
      }
      for (int v = 0; v < nodes.size(); v++) {
        GeoPoint p = nodes.node(v).location();
        double y = landmarkRtt[v][k];
        if (v == landmarks[k] || p == null || !Double.isFinite(y)) {
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
