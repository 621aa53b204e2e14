package dev.reed.coordinates.discovery;

import java.util.Map;
import dev.reed.coordinates.Coordinate;
import java.util.List;

/**
 * Where the policy gets calibration points: the coordinator's GetCalibrationServers in the SDK, a
 * simulated coordinator over a matrix in the evaluator.
 */
public interface CalibrationSource {

  /** Which calibration points a call returns. */
  enum Kind { BEACON, ANY }

  /** Algorithm 3: up to {@code count} points of this kind spread over the space, in the coordinator's order. */
  List<CalibrationPoint> spread(int count, Kind kind);

  /**
   * Up to {@code count} points of this kind nearest to {@code around}, nearest first; null when the
   * source cannot answer now (the policy then probes the rest of the spread set).
   */
  List<CalibrationPoint> nearest(Coordinate around, int count, Kind kind);

  /**
   * The first {@code count} servers of the coordinator's zero-probe ranking for this client: by its
   * geographic prediction from where it places the client (a location the client stated, or its
   * database's answer for the client's address), nearest first; null when it places the client
   * nowhere. Each is a discovery as much as a calibration point: the client probes the servers it
   * would probe first anyway, and positions itself from their replies.
   */
  default List<CalibrationPoint> local(int count) {
    return null;
  }

  /**
   * Where the coordinator places the client given its calibration RTTs (Locate in the SDK), or null
   * when it has no location knowledge or cannot answer now.
   *
   * @param probed the calibration points probed
   * @param rttMs the RTT of each that answered, by key
   */
  default LocationFix locate(List<CalibrationPoint> probed, Map<String, Double> rttMs) {
    return null;
  }
}
