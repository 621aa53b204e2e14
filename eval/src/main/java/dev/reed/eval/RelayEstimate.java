package dev.reed.eval;

/**
 * Valve's relay estimate (GameNetworkingSockets' "ping location"): the client pings every
 * landmark (relay), and the RTT to a server is estimated as the best route through one of them,
 * {@code min over l of rtt(client, l) + rtt(l, server)}, with {@code rtt(l, server)} what the
 * landmark measured. Every landmark ping is a calibration probe; a landmark that does not answer
 * still cost one.
 */
final class RelayEstimate {

  StaticOrder order(ClientView c) {
    int[] lm = c.landmarks();
    double[] toLandmark = new double[lm.length];
    int probes = 0;
    for (int k = 0; k < lm.length; k++) {
      if (lm[k] == c.client()) {
        toLandmark[k] = 0; // a landmark is its own relay, free of charge
        continue;
      }
      probes++;
      toLandmark[k] = c.rttTo(lm[k]);
    }
    int ns = c.servers().length;
    double[] pred = new double[ns];
    for (int j = 0; j < ns; j++) {
      double best = Double.NaN;
      double[] fromLandmarks = c.landmarkRtt()[c.servers()[j]];
      for (int k = 0; k < lm.length; k++) {
        double v = toLandmark[k] + fromLandmarks[k];
        if (Double.isFinite(v) && !(v >= best)) {
          best = v;
        }
      }
      pred[j] = best;
    }
    return new StaticOrder(Orders.ascending(pred), pred, probes, new boolean[ns], true);
  }
}
