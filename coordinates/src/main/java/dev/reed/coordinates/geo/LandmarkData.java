package dev.reed.coordinates.geo;

/**
 * What a deployment measures and knows, the only data the estimator learns from: the landmarks'
 * mesh RTTs, every landmark's RTT to every server, and where each host is.
 *
 * @param landmarks each landmark's place, or null when unknown
 * @param meshMs RTT between landmarks {@code [k][k2]} (NaN = not measured; the diagonal is ignored)
 * @param servers each server's place, or null when unknown
 * @param serverMs RTT from each landmark to each server, {@code [server][landmark]} (NaN = not measured)
 */
public record LandmarkData(Place[] landmarks, double[][] meshMs, Place[] servers, double[][] serverMs) {
  public LandmarkData {
    int l = landmarks.length;
    if (meshMs.length != l) {
      throw new IllegalArgumentException("mesh has " + meshMs.length + " rows for " + l + " landmarks");
    }
    for (double[] row : meshMs) {
      if (row.length != l) {
        throw new IllegalArgumentException("mesh row of " + row.length + " for " + l + " landmarks");
      }
    }
    if (serverMs.length != servers.length) {
      throw new IllegalArgumentException(serverMs.length + " server RTT rows for " + servers.length + " servers");
    }
    for (double[] row : serverMs) {
      if (row.length != l) {
        throw new IllegalArgumentException("server RTT row of " + row.length + " for " + l + " landmarks");
      }
    }
  }

  /**
   * Valve's relay bound (GameNetworkingSockets' ping location): {@code min over landmarks k of
   * clientToLandmark[k] + serverMs[server][k]}, skipping landmark {@code skip} (-1 = none), or NaN
   * when no landmark has both RTTs.
   */
  public double relayMs(double[] clientToLandmark, int server, int skip) {
    double best = Double.NaN;
    for (int k = 0; k < clientToLandmark.length; k++) {
      double v = clientToLandmark[k] + serverMs[server][k];
      if (k != skip && Double.isFinite(v) && !(v >= best)) {
        best = v;
      }
    }
    return best;
  }
}
