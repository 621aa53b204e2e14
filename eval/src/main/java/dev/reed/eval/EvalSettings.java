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
 *     calibration points nearest to the client's position from the spread ones
 *     (CalibrationSelector#nearest)
 * @param calibrationNear what the near calibration points are: LANDMARKS, one at a time (the
 *     evaluator's default); or in one batch as the client SDK asks the coordinator for them,
 *     BEACONS (landmarks within nearBeaconMaxMs, topped up with the nearest of any kind) or ANY
 *     well-fitted landmark or server. A server's reply is its first probe and counts as found.
 * @param nearBeaconMaxMs with BEACONS, the farthest a near landmark may be from the client's rough
 *     position, in coordinate ms
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
    CalibrationNear calibrationNear,
    double nearBeaconMaxMs,
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

  /** What a client probes in the second calibration phase. */
  public enum CalibrationNear { LANDMARKS, BEACONS, ANY }

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
    if (calibrationNear == null) {
      throw new IllegalArgumentException("--calibration-near must be landmarks, beacons or any");
    }
    if (!(nearBeaconMaxMs >= 0)) {
      throw new IllegalArgumentException("--near-beacon-max must be >= 0");
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
    return builder().build();
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.coordinates = coordinates;
    b.landmarks = landmarks;
    b.landmarkList = landmarkList;
    b.strategy = strategy;
    b.clients = clients;
    b.nClose = nClose;
    b.window = window;
    b.windowMarginMs = windowMarginMs;
    b.rate = rate;
    b.calibration = calibration;
    b.calibrationSpread = calibrationSpread;
    b.calibrationNear = calibrationNear;
    b.nearBeaconMaxMs = nearBeaconMaxMs;
    b.reposition = reposition;
    b.repositionLimit = repositionLimit;
    b.serverSigmaMs = serverSigmaMs;
    b.kernelMs = kernelMs;
    b.comparison = comparison;
    b.lowerBoundBeyondMs = lowerBoundBeyondMs;
    b.nearDifferenceWeight = nearDifferenceWeight;
    b.kmedoidsCapMs = kmedoidsCapMs;
    b.clientStride = clientStride;
    b.seed = seed;
    b.seeds = seeds;
    b.threads = threads;
    return b;
  }

  /** Settings by group, starting from the defaults; {@link #build()} validates them. */
  public static final class Builder {
    private CoordinateConfig coordinates = CoordinateConfig.defaults();
    private int landmarks = 15;
    private int[] landmarkList;
    private LandmarkStrategy strategy = LandmarkStrategy.KMEDOIDS;
    private ClientMode clients = ClientMode.ALL;
    private int nClose = 10;
    private int window = 20;
    private double windowMarginMs = 0;
    private double rate = 140;
    private int calibration = 10;
    private int calibrationSpread = 5;
    private CalibrationNear calibrationNear = CalibrationNear.LANDMARKS;
    private double nearBeaconMaxMs = 100;
    private boolean reposition = true;
    private int repositionLimit = 60;
    private double serverSigmaMs = 10.0;
    private double kernelMs = 5.0;
    private boolean comparison = true;
    private double lowerBoundBeyondMs = 50.0;
    private double nearDifferenceWeight = 0.5;
    private double kmedoidsCapMs = 30.0;
    private int clientStride = 1;
    private long seed = 1;
    private int seeds = 1;
    private int threads = Math.max(1, Runtime.getRuntime().availableProcessors());

    private Builder() {}

    public Builder coordinates(CoordinateConfig c) {
      coordinates = c;
      return this;
    }

    /** {@code count} landmarks chosen by the strategy, or exactly {@code list} when not null. */
    public Builder landmarks(int count, int[] list) {
      landmarks = count;
      landmarkList = list;
      return this;
    }

    public Builder strategy(LandmarkStrategy s) {
      strategy = s;
      return this;
    }

    public Builder clients(ClientMode m) {
      clients = m;
      return this;
    }

    /** N_close, Intelligent's window and margin, the probe rate and the calibration probes. */
    public Builder probing(int n, int w, double marginMs, double r, int calib) {
      nClose = n;
      window = w;
      windowMarginMs = marginMs;
      rate = r;
      calibration = calib;
      return this;
    }

    /** Of the calibration probes, how many Algorithm 3 spreads, what the rest are, and how far a near beacon may be. */
    public Builder calibrationPhases(int spread, CalibrationNear near, double beaconMaxMs) {
      calibrationSpread = spread;
      calibrationNear = near;
      nearBeaconMaxMs = beaconMaxMs;
      return this;
    }

    public Builder reposition(boolean on, int limit, double sigmaMs) {
      reposition = on;
      repositionLimit = limit;
      serverSigmaMs = sigmaMs;
      return this;
    }

    public Builder comparison(boolean on, double beyondMs, double weight) {
      comparison = on;
      lowerBoundBeyondMs = beyondMs;
      nearDifferenceWeight = weight;
      return this;
    }

    public Builder kmedoidsCap(double capMs) {
      kmedoidsCapMs = capMs;
      return this;
    }

    public Builder kernel(double ms) {
      kernelMs = ms;
      return this;
    }

    public Builder clientStride(int k) {
      clientStride = k;
      return this;
    }

    /** Landmark seeds {@code first}, first+1, ... ({@code count} of them). */
    public Builder seeds(long first, int count) {
      seed = first;
      seeds = count;
      return this;
    }

    public Builder threads(int t) {
      threads = t;
      return this;
    }

    /** @throws IllegalArgumentException naming the option of a bad value */
    public EvalSettings build() {
      return new EvalSettings(coordinates, landmarks, landmarkList, strategy, clients, nClose, window, windowMarginMs,
          rate, calibration, calibrationSpread, calibrationNear, nearBeaconMaxMs, reposition, repositionLimit, serverSigmaMs, kernelMs, comparison,
          lowerBoundBeyondMs, nearDifferenceWeight, kmedoidsCapMs, clientStride, seed, seeds, threads);
    }
  }

  /** Stop thresholds of Algorithm 5 reported (ms). */
  public static final double[] RTT_STOPS = {40, 80, 120, 160};
  /** Window of Algorithm 5 (paper: 100). */
  public static final int RTT_STOP_WINDOW = 100;
}
