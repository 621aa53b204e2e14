package dev.reed.client;

/**
 * What the second calibration phase probes: the calibration points nearest to the client's rough
 * position from the spread phase (client/README.md, "Two-phase calibration", has the numbers).
 */
public enum NearCalibration {
  /**
   * The nearest landmark beacons predicted within 100 ms, topped up with the nearest calibration
   * servers of any kind. Default: the beacons' RTTs tighten the landmark comparison's bounds, which
   * ordered the first page best on PlanetLab (P@10 0.63 against 0.37-0.46 for ANY).
   */
  BEACONS,
  /**
   * The nearest calibration servers of any kind, in a deployment almost all game servers. Their
   * replies count as servers found, so First N_close needs fewer probes, but the first page is
   * worse. On seattle99 this saved about 2 probes on Intelligent N_close.
   */
  ANY
}
