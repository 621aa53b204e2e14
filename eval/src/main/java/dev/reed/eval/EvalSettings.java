package dev.reed.eval;

import dev.reed.coordinates.CoordinateConfig;

/**
 * What one evaluation run does.
 *
 * @param coordinates coordinate model and solver settings
 * @param landmarks number of landmarks (ignored when landmarkList is set)
 * @param landmarkList fixed landmark node indices, or null
 * @param strategy how landmarks are chosen when not listed
 * @param clients ALL (every non-landmark node is a client in turn) or LANDMARKS (paper 5.1.2)
 * @param nClose N_close
 * @param window W of Intelligent N_close
 * @param windowMarginMs an improvement of the N_close set by no more than this does not restart
 *     Intelligent N_close's window (0 = the paper's Algorithm 6)
 * @param rate probes per second (time = probes / rate)
 * @param calibration calibration probes per client (0 = every landmark)
 * @param calibrationSpread of those, how many Algorithm 3 spreads over the space; the rest are the
 *     landmarks nearest to the client's position from the spread ones (CalibrationSelector#nearest)
 * @param reposition re-fit the client after each answered probe, from every RTT it has measured
 * @param repositionLimit stop re-fitting after this many probes (the rest of the order is fixed)
 * @param serverSigmaMs expected coordinate error of a server, ms: a probed server's RTT d weighs
 *     (d / (d + sigma))^2 in the re-fit, so a 2 ms neighbour with a few ms of coordinate error cannot
 *     dominate it (landmarks weigh 1); 0 = plain relative error
 * @param kernelMs width of the residual kernel of the adaptive order (AdaptiveOrder)
 * @param comparison use what the client's and the servers' landmark RTTs say (LandmarkComparison):
 *     bounds on every prediction, the near-landmark difference in the order
 * @param lowerBoundBeyondMs predictions beyond this are raised to the triangle-inequality lower bound
 * @param nearDifferenceWeight weight of the near-landmark difference in the probe order
 * @param kmedoidsCapMs k-medoids landmark choice counts RTTs above this as this (LandmarkStrategy)
 * @param clientStride evaluate every k-th client only (1 = all; for quick experiments)
 * @param seed first landmark seed
 * @param seeds number of landmark seeds (seed, seed+1, ...); results are averaged over them
 * @param threads worker threads
 */
public record EvalSettings(
    CoordinateConfig coordinates,
    int landmarks,
    int[] landmarkList,
    LandmarkStrategy strategy,
    ClientMode clients,
    int nClose,
    int window,
    double windowMarginMs,
    double rate,
    int calibration,
    int calibrationSpread,
    boolean reposition,
    int repositionLimit,
    double serverSigmaMs,
    double kernelMs,
    boolean comparison,
    double lowerBoundBeyondMs,
    double nearDifferenceWeight,
    double kmedoidsCapMs,
    int clientStride,
    long seed,
    int seeds,
    int threads) {

  /** Who plays the clients. */
  public enum ClientMode { ALL, LANDMARKS }

  public EvalSettings {
    if (nClose < 1 || window < 1) {
      throw new IllegalArgumentException("--n-close and --window must be >= 1");
    }
    if (!(windowMarginMs >= 0) || Double.isInfinite(windowMarginMs)) {
      throw new IllegalArgumentException("--window-margin must be finite and >= 0");
    }
    if (!(rate > 0) || !Double.isFinite(rate)) {
      throw new IllegalArgumentException("--rate must be > 0");
    }
    if (seeds < 1 || threads < 1) {
      throw new IllegalArgumentException("--seeds and --threads must be >= 1");
    }
    if (calibration < 0 || calibrationSpread < 1) {
      throw new IllegalArgumentException("--calibration must be >= 0 (0 = all landmarks), --calibration-spread >= 1");
    }
    if (!(lowerBoundBeyondMs >= 0) || !(nearDifferenceWeight >= 0) || !Double.isFinite(nearDifferenceWeight)
        || !(kmedoidsCapMs > 0)) {
      throw new IllegalArgumentException("--lower-bound-beyond and --near-weight must be >= 0, --kmedoids-cap > 0");
    }
    if (!(serverSigmaMs >= 0) || !Double.isFinite(serverSigmaMs)) {
      throw new IllegalArgumentException("server sigma must be finite and >= 0");
    }
    if (!(kernelMs > 0) || !Double.isFinite(kernelMs)) {
      throw new IllegalArgumentException("kernel width must be finite and > 0");
    }
    if (clientStride < 1) {
      throw new IllegalArgumentException("client stride must be >= 1");
    }
  }

  /** The defaults of `./reed eval` (what won on planetlab490; see eval/README.md). */
  public static EvalSettings defaults() {
    return new EvalSettings(CoordinateConfig.defaults(), 15, null, LandmarkStrategy.KMEDOIDS, ClientMode.ALL, 10, 20, 0.0,
        140, 10, 5, true, 60, 10.0, 5.0, true, 50.0, 0.5, 30.0, 1, 1, 1,
        Math.max(1, Runtime.getRuntime().availableProcessors()));
  }

  public EvalSettings withCoordinates(CoordinateConfig c) {
    return new EvalSettings(c, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs, rate, calibration,
        calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withLandmarks(int count, int[] list) {
    return new EvalSettings(coordinates, count, list, strategy, clients, nClose, window, windowMarginMs, rate, calibration,
        calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withStrategy(LandmarkStrategy s) {
    return new EvalSettings(coordinates, landmarks, landmarkList, s, clients, nClose, window, windowMarginMs, rate, calibration,
        calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withClients(ClientMode m) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, m, nClose, window, windowMarginMs, rate, calibration,
        calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withProbing(int n, int w, double marginMs, double r, int calib) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, n, w, marginMs, r, calib,
        calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withCalibrationSpread(int spread) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs, rate,
        calibration, spread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withReposition(boolean on, int limit, double sigmaMs) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs, rate,
        calibration, calibrationSpread, on, limit, sigmaMs, kernelMs, comparison, lowerBoundBeyondMs,
        nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withComparison(boolean on, double beyondMs, double weight) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs, rate,
        calibration, calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, on, beyondMs,
        weight, kmedoidsCapMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withKmedoidsCap(double capMs) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs, rate,
        calibration, calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, capMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withSeeds(long first, int count) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs, rate,
        calibration, calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, first, count, threads);
  }

  public EvalSettings withKernel(double ms) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs, rate,
        calibration, calibrationSpread, reposition, repositionLimit, serverSigmaMs, ms, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, threads);
  }

  public EvalSettings withClientStride(int k) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs, rate,
        calibration, calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, k, seed, seeds, threads);
  }

  public EvalSettings withThreads(int t) {
    return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs, rate,
        calibration, calibrationSpread, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
        lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, t);
  }

  /** Stop thresholds of Algorithm 5 reported (ms). */
  public static final double[] RTT_STOPS = {40, 80, 120, 160};
  /** Window of Algorithm 5 (paper: 100). */
  public static final int RTT_STOP_WINDOW = 100;
}
