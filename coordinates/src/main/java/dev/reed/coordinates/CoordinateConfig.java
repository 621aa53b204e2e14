package dev.reed.coordinates;

/**
 * Settings of the coordinate engine. {@link #defaults()} is what won on the measured PlanetLab
 * matrix (see coordinates/README.md for the experiments and numbers).
 *
 * @param dimensions Euclidean dimensions D (2, 3, 4, 5, 8, 10 are the tested ones; 1..10 allowed).
 *     REED (Armitage &amp; Heyde 2011, section 5.1) found 4-D best for FPS server discovery; GNP
 *     (Ng &amp; Zhang 2002) saw diminishing returns beyond 5-7.
 * @param height height model (Vivaldi, Dabek et al. 2004, section 5.5): predicted RTT is
 *     {@code ||x - y|| + hx + hy}; the height absorbs access-link delay that no Euclidean point can.
 * @param restarts landmark-embedding restarts; the best of classical MDS and {@code restarts - 1}
 *     random starts is kept (GNP's simplex solver also restarted to escape local minima).
 * @param maxIterations iteration cap of one least-squares solve.
 * @param minRttMs floor of an RTT in the relative-error denominator, so a 0.1 ms LAN pair does not
 *     dominate a whole fit (GNP's relative error is undefined at 0).
 * @param robustThreshold Huber threshold on the relative residual; residuals beyond it are weighted
 *     down (iteratively reweighted least squares) so one congested or wrong RTT cannot drag a host
 *     (Ledlie et al., "Network coordinates in the wild", NSDI 2007, filter outliers); 0 = plain GNP.
 * @param calibrationCount N_calib of REED Algorithm 3 (paper default 14, must be &gt;= D+1).
 * @param calibrationMaxError fit error (median relative error) a server may have to calibrate clients.
 */
public record CoordinateConfig(
    int dimensions,
    boolean height,
    int restarts,
    int maxIterations,
    double minRttMs,
    double robustThreshold,
    int calibrationCount,
    double calibrationMaxError) {

  public CoordinateConfig {
    if (dimensions < 1 || dimensions > 10) {
      throw new IllegalArgumentException("dimensions must be 1..10, got " + dimensions);
    }
    if (restarts < 1) {
      throw new IllegalArgumentException("restarts must be >= 1, got " + restarts);
    }
    if (maxIterations < 5) {
      throw new IllegalArgumentException("maxIterations must be >= 5, got " + maxIterations);
    }
    if (!(minRttMs > 0) || !Double.isFinite(minRttMs)) {
      throw new IllegalArgumentException("minRttMs must be finite and > 0, got " + minRttMs);
    }
    if (!(robustThreshold >= 0) || !Double.isFinite(robustThreshold)) {
      throw new IllegalArgumentException("robustThreshold must be finite and >= 0, got " + robustThreshold);
    }
    if (calibrationCount < dimensions + 1) {
      throw new IllegalArgumentException(
          "calibrationCount must be >= dimensions + 1 = " + (dimensions + 1) + ", got " + calibrationCount);
    }
    if (!(calibrationMaxError > 0) || !Double.isFinite(calibrationMaxError)) {
      throw new IllegalArgumentException("calibrationMaxError must be finite and > 0, got " + calibrationMaxError);
    }
  }

  /** The given model with every other setting at its default. */
  public CoordinateConfig(int dimensions, boolean height) {
    this(dimensions, height, DEFAULT_RESTARTS, DEFAULT_MAX_ITERATIONS, DEFAULT_MIN_RTT_MS,
        DEFAULT_ROBUST_THRESHOLD, Math.max(DEFAULT_CALIBRATION_COUNT, dimensions + 1),
        DEFAULT_CALIBRATION_MAX_ERROR);
  }

  static final int DEFAULT_DIMENSIONS = 4;
  static final boolean DEFAULT_HEIGHT = false;
  static final int DEFAULT_RESTARTS = 4;
  static final int DEFAULT_MAX_ITERATIONS = 200;
  static final double DEFAULT_MIN_RTT_MS = 1.0;
  static final double DEFAULT_ROBUST_THRESHOLD = 0.3;
  static final int DEFAULT_CALIBRATION_COUNT = 14;
  static final double DEFAULT_CALIBRATION_MAX_ERROR = 0.15;

  /** The defaults: see the constants and coordinates/README.md for why. */
  public static CoordinateConfig defaults() {
    return new CoordinateConfig(DEFAULT_DIMENSIONS, DEFAULT_HEIGHT);
  }

  /** Number of free parameters of one host: D, plus 1 with the height model. */
  public int parametersPerHost() {
    return dimensions + (height ? 1 : 0);
  }

  /** Fewest usable RTTs that determine a host's position: D + 1. */
  public int minAnchors() {
    return dimensions + 1;
  }

  public CoordinateConfig withDimensions(int d) {
    return new CoordinateConfig(d, height, restarts, maxIterations, minRttMs, robustThreshold,
        Math.max(calibrationCount, d + 1), calibrationMaxError);
  }

  public CoordinateConfig withHeight(boolean h) {
    return new CoordinateConfig(dimensions, h, restarts, maxIterations, minRttMs, robustThreshold,
        calibrationCount, calibrationMaxError);
  }

  public CoordinateConfig withRestarts(int r) {
    return new CoordinateConfig(dimensions, height, r, maxIterations, minRttMs, robustThreshold,
        calibrationCount, calibrationMaxError);
  }

  public CoordinateConfig withRobustThreshold(double t) {
    return new CoordinateConfig(dimensions, height, restarts, maxIterations, minRttMs, t,
        calibrationCount, calibrationMaxError);
  }

  public CoordinateConfig withCalibrationCount(int n) {
    return new CoordinateConfig(dimensions, height, restarts, maxIterations, minRttMs, robustThreshold,
        n, calibrationMaxError);
  }

  public CoordinateConfig withCalibrationMaxError(double e) {
    return new CoordinateConfig(dimensions, height, restarts, maxIterations, minRttMs, robustThreshold,
        calibrationCount, e);
  }
}
