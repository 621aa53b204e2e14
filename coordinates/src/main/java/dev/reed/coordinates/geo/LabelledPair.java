package dev.reed.coordinates.geo;

/**
 * One RTT a deployment measured between two located hosts (a landmark pair of the mesh, or a
 * landmark and a server): a labelled example of RTT as a function of distance.
 *
 * @param km great-circle distance between the ends
 * @param rttMs the measured RTT
 * @param regionA region of one end, or null
 * @param regionB region of the other end, or null
 */
public record LabelledPair(double km, double rttMs, String regionA, String regionB) {
  public LabelledPair {
    if (!(km >= 0) || !Double.isFinite(km) || !(rttMs >= 0) || !Double.isFinite(rttMs)) {
      throw new IllegalArgumentException("a labelled pair needs finite km >= 0 and RTT >= 0: " + km + ", " + rttMs);
    }
  }

  /** The unordered region pair, or null when either end has no region. */
  String regionPair() {
    return DistanceRttModel.regionPair(regionA, regionB);
  }
}
