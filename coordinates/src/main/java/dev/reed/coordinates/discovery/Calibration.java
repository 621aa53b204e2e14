package dev.reed.coordinates.discovery;

import dev.reed.coordinates.Coordinate;
import java.util.List;
import java.util.Map;

/**
 * What a calibration measured and where it put the client.
 *
 * @param probed every calibration point probed, in probe order
 * @param rttMs the RTT (ms) of each that answered, by key
 * @param position the client's coordinate fitted from those RTTs, or null when the local fit failed
 *     (the driver may then ask the coordinator to solve it)
 * @param fitError median relative error of that fit (NaN without a position)
 * @param anchorsUsed replies the fit used
 * @param location where the coordinator places the client, or null when it has no location
 *     knowledge (no location database, or the client's location is unknown)
 */
public record Calibration(List<CalibrationPoint> probed, Map<String, Double> rttMs, Coordinate position, double fitError,
    int anchorsUsed, LocationFix location) {
  public Calibration {
    probed = List.copyOf(probed);
    rttMs = Map.copyOf(rttMs);
  }

  /** A calibration without location knowledge. */
  public Calibration(List<CalibrationPoint> probed, Map<String, Double> rttMs, Coordinate position, double fitError,
      int anchorsUsed) {
    this(probed, rttMs, position, fitError, anchorsUsed, null);
  }

  /** The same calibration with where the coordinator places the client (null: nowhere). */
  public Calibration withLocation(LocationFix fix) {
    return new Calibration(probed, rttMs, position, fitError, anchorsUsed, fix);
  }

  /** Calibration probes sent. */
  public int probes() {
    return probed.size();
  }

  /** The client's RTT to each landmark beacon that answered, by landmark id (the lowest if one was probed twice). */
  public Map<String, Double> landmarkRttMs() {
    Map<String, Double> out = new java.util.TreeMap<>();
    for (CalibrationPoint p : probed) {
      Double ms = rttMs.get(p.key());
      if (p.beacon() && ms != null) {
        out.merge(p.landmarkId(), ms, Math::min);
      }
    }
    return out;
  }
}
