package dev.reed.coordinates.geo;

/**
 * The physical floor on RTT: light in fibre covers ~200,000 km/s, so a round trip over a
 * great-circle distance of {@code km} takes at least {@code km / 100} ms (real paths are longer).
 * A measured RTT below that, by more than a tolerance for location error and clock granularity,
 * proves one of the two places wrong: a 5 ms RTT cannot span 2,000 km (20 ms). This catches
 * landmarks announcing a wrong location, anycast addresses and stale database entries.
 *
 * @param toleranceMs slack before a pair counts as a contradiction (default 5 ms: 500 km of
 *     location error at the floor)
 */
public record LightBound(double toleranceMs) {
  /** Great-circle km of RTT floor per ms of RTT (light in fibre, there and back). */
  public static final double KM_PER_MS = 100;

  public LightBound {
    if (!(toleranceMs >= 0) || !Double.isFinite(toleranceMs)) {
      throw new IllegalArgumentException("toleranceMs must be finite and >= 0: " + toleranceMs);
    }
  }

  /** The default tolerance (class comment). */
  public static LightBound defaults() {
    return new LightBound(5);
  }

  /** The lowest RTT two places {@code km} apart can have, ms. */
  public static double floorMs(double km) {
    return km / KM_PER_MS;
  }

  /** Whether {@code rttMs} between {@code a} and {@code b} is impossibly low (false when either is unknown or the RTT is NaN). */
  public boolean contradicts(Place a, Place b, double rttMs) {
    return a != null && b != null && Double.isFinite(rttMs) && rttMs + toleranceMs < floorMs(a.kmTo(b));
  }

  /**
   * Which landmark places the mesh contradicts: repeatedly, of the pairs still standing, the
   * landmarks in the most contradicting pairs are marked and their pairs dropped, until no pair
   * contradicts. One wrong place among many contradicts the landmarks near where it really is,
   * so it has the most; when two places only contradict each other nothing tells which is wrong,
   * and both are marked.
   *
   * @param places each landmark's place, or null
   * @param meshMs RTT between landmarks {@code [k][k2]} (NaN = none)
   * @return per landmark, whether its place is contradicted
   */
  public boolean[] contradicted(Place[] places, double[][] meshMs) {
    int l = places.length;
    boolean[] out = new boolean[l];
    while (true) {
      int[] count = new int[l];
      int max = 0;
      for (int a = 0; a < l; a++) {
        for (int b = a + 1; b < l; b++) {
          if (!out[a] && !out[b] && contradicts(places[a], places[b], Math.min(at(meshMs, a, b), at(meshMs, b, a)))) {
            max = Math.max(max, Math.max(++count[a], ++count[b]));
          }
        }
      }
      if (max == 0) {
        return out;
      }
      for (int k = 0; k < l; k++) {
        out[k] |= count[k] == max;
      }
    }
  }

  /**
   * Whether a host's place is contradicted by its RTT to a located landmark whose place stands
   * (a host has many landmarks' word against its one place).
   *
   * @param toLandmark the host's RTT to each landmark (NaN = none)
   */
  public boolean contradicted(Place host, Place[] landmarks, double[] toLandmark) {
    for (int k = 0; k < landmarks.length; k++) {
      if (contradicts(host, landmarks[k], toLandmark[k])) {
        return true;
      }
    }
    return false;
  }

  private static double at(double[][] m, int a, int b) {
    double v = m[a][b];
    return Double.isFinite(v) ? v : Double.POSITIVE_INFINITY;
  }
}
