package dev.reed.coordinates.discovery;

import java.util.List;
import java.util.Map;

/** Probes one batch of calibration points: real sockets in the SDK, matrix look-ups in the evaluator. */
public interface CalibrationProber {

  /**
   * Probes every point of the batch (concurrently where the driver can) and returns the RTT (ms) of
   * each that answered, by key. {@code minReplies} is what positioning needs from this batch; a
   * driver may stop waiting for stragglers once it has them.
   */
  Map<String, Double> probe(List<CalibrationPoint> batch, int minReplies);
}
