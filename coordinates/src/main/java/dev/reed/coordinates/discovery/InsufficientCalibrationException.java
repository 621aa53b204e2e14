package dev.reed.coordinates.discovery;

/** Too few calibration points were offered or answered to position the client (fewer than D+1). */
public final class InsufficientCalibrationException extends RuntimeException {
  public InsufficientCalibrationException(String message) {
    super(message);
  }
}
