package dev.reed.client;

/**
 * What the second calibration phase probes: the calibration points nearest to the client's rough
 * position from the spread phase (client/README.md, "Two-phase calibration", has the numbers).
 */
public enum NearCalibration {
  /**
   * The nearest landmark beacons, topped up with calibration servers of any kind when the beacons
   * run out. Default: the beacons' RTTs tighten the landmark comparison's bounds, which ordered
   * the first page best on PlanetLab (P@10 0.65 against 0.37-0.46). It costs time where the
   * nearest beacons are far away: the phase waits for their replies.
   */
  BEACONS,
  /**
   * The nearest calibration servers of any kind, in a deployment almost all game servers. Their
   * replies count as servers found, and they answer sooner; with few landmarks (say 8 worldwide)
   * this is the faster choice.
   */
  ANY
}
