package dev.reed.eval;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.coordinates.geo.EstimatorModel;

/**
 * What one evaluation run does.
 *
 * @param coordinates coordinate model and solver settings
 * @param model the client's discovery policy (calibration, ordering, learning) and its stop rules'
 *     tunables (Intelligent N_close's window and margin, RTT_stop's window): the client SDK's
 *     {@link DiscoveryModel}, read with {@code --model FILE}
 * @param pageSize servers per page of the simulated coordinator's ordered list (the SDK's default 230)
 * @param landmarks number of landmarks (ignored when landmarkList is set)
 * @param landmarkList fixed landmark node indices, or null
 * @param strategy how landmarks are chosen when not listed
 * @param clients ALL (every non-landmark node is a client in turn) or LANDMARKS (paper 5.1.2)
 * @param nClose N_close
 * @param rate probes per second (time = probes / rate)
 * @param kmedoidsCapMs k-medoids landmark choice counts RTTs above this as this (LandmarkStrategy)
 * @param clientStride evaluate every k-th client only (1 = all; for quick experiments)
 * @param seed first landmark seed
 * @param seeds number of landmark seeds (seed, seed+1, ...); results are averaged over them
 * @param threads worker threads
 * @param baselines also score the baselines beside REED (geo distance, Valve's relay
 *     estimate, Armitage's clustering, straightforward GNP) on the same clients
 * @param geoError how wrong the GeoIP location of a client is for the noisy geo baseline
 * @param estimator the fused estimator's parameters (experimental "reed + geo" rows), read with
 *     {@code --estimator FILE}
 * @param reports whether half the clients report their measurements first, and how
 * @param lying a lying landmark and the coordinator's quarantine; {@link LyingLandmarks.Settings#OFF} = none
 * @param players players added near every host ({@link PlayerPopulation}); 0 = the hosts themselves
 *     are the clients
 */
public record EvalSettings(
    CoordinateConfig coordinates,
    DiscoveryModel model,
    int pageSize,
    int landmarks,
    int[] landmarkList,
    LandmarkStrategy strategy,
    ClientMode clients,
    int nClose,
    double rate,
    double kmedoidsCapMs,
    int clientStride,
    long seed,
    int seeds,
    int threads,
    boolean baselines,
    GeoErrorModel geoError,
    EstimatorModel estimator,
    ReportSimulation reports,
    LyingLandmarks.Settings lying,
    int players) {

  /** Who plays the clients. */
  public enum ClientMode { ALL, LANDMARKS }

  public EvalSettings {
    if (coordinates == null || model == null || geoError == null || estimator == null || reports == null || lying == null) {
      throw new IllegalArgumentException("coordinates, model, geoError, estimator and reports are required");
    }
    if (pageSize < 1 || pageSize > 5000) {
      throw new IllegalArgumentException("--page-size must be 1-5000");
    }
    if (nClose < 1) {
      throw new IllegalArgumentException("--n-close must be >= 1");
    }
    if (!(rate > 0) || !Double.isFinite(rate)) {
      throw new IllegalArgumentException("--rate must be > 0");
    }
    if (seeds < 1 || threads < 1) {
      throw new IllegalArgumentException("--seeds and --threads must be >= 1");
    }
    if (!(kmedoidsCapMs > 0)) {
      throw new IllegalArgumentException("--kmedoids-cap must be > 0");
    }
    if (clientStride < 1) {
      throw new IllegalArgumentException("client stride must be >= 1");
    }
    if (players < 0 || players > PlayerPopulation.MAX_PER_HOST) {
      throw new IllegalArgumentException("--players must be 0-" + PlayerPopulation.MAX_PER_HOST + ", got " + players);
    }
  }

  /** The defaults of `./reed eval`: the SDK's model and page size, 15 k-medoids landmarks (eval/README.md). */
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
    b.model = model;
    b.pageSize = pageSize;
    b.landmarks = landmarks;
    b.landmarkList = landmarkList;
    b.strategy = strategy;
    b.clients = clients;
    b.nClose = nClose;
    b.rate = rate;
    b.kmedoidsCapMs = kmedoidsCapMs;
    b.clientStride = clientStride;
    b.seed = seed;
    b.seeds = seeds;
    b.threads = threads;
    b.baselines = baselines;
    b.geoError = geoError;
    b.estimator = estimator;
    b.reports = reports;
    b.lying = lying;
    b.players = players;
    return b;
  }

  /** Settings by group, starting from the defaults; {@link #build()} validates them. */
  public static final class Builder {
    private CoordinateConfig coordinates = CoordinateConfig.defaults();
    private DiscoveryModel model = DiscoveryModel.defaults();
    private int pageSize = 230;
    private int landmarks = 15;
    private int[] landmarkList;
    private LandmarkStrategy strategy = LandmarkStrategy.KMEDOIDS;
    private ClientMode clients = ClientMode.ALL;
    private int nClose = 10;
    private double rate = 140;
    private double kmedoidsCapMs = 30.0;
    private int clientStride = 1;
    private long seed = 1;
    private int seeds = 1;
    private int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    private boolean baselines = true;
    private GeoErrorModel geoError = GeoErrorModel.NONE;
    private EstimatorModel estimator = EstimatorModel.defaults();
    private ReportSimulation reports = ReportSimulation.none();
    private LyingLandmarks.Settings lying = LyingLandmarks.Settings.OFF;
    private int players;

    private Builder() {}

    public Builder coordinates(CoordinateConfig c) {
      coordinates = c;
      return this;
    }

    /** The client's discovery policy and the page size of the simulated coordinator. */
    public Builder model(DiscoveryModel m, int servedPageSize) {
      model = m;
      pageSize = servedPageSize;
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

    /** N_close and the probe rate (Intelligent N_close's window and margin are the model's). */
    public Builder probing(int n, double r) {
      nClose = n;
      rate = r;
      return this;
    }

    public Builder kmedoidsCap(double capMs) {
      kmedoidsCapMs = capMs;
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

    /** Whether to score the baselines, and the GeoIP error of the noisy geo baseline. */
    public Builder baselines(boolean on, GeoErrorModel error) {
      baselines = on;
      geoError = error;
      return this;
    }

    /** The fused estimator's parameters. */
    public Builder estimator(EstimatorModel e) {
      estimator = e;
      return this;
    }

    /** A lying landmark. */
    public Builder lying(LyingLandmarks.Settings l) {
      lying = l;
      return this;
    }

    /** Client reports. */
    public Builder reports(ReportSimulation r) {
      reports = r;
      return this;
    }

    /** Players near every host as the clients; 0 = the hosts are the clients. */
    public Builder players(int perHost) {
      players = perHost;
      return this;
    }

    /** @throws IllegalArgumentException naming the option of a bad value */
    public EvalSettings build() {
      return new EvalSettings(coordinates, model, pageSize, landmarks, landmarkList, strategy, clients, nClose, rate,
          kmedoidsCapMs, clientStride, seed, seeds, threads, baselines, geoError, estimator, reports, lying, players);
    }
  }

  /** Stop thresholds of Algorithm 5 reported (ms). */
  public static final double[] RTT_STOPS = {40, 80, 120, 160};

  /** W of Intelligent N_close: the model's. */
  public int window() {
    return model.intelligentWindow();
  }

  /** Intelligent N_close's window margin (ms; 0 = the paper's Algorithm 6): the model's. */
  public double windowMarginMs() {
    return model.windowMarginMs();
  }
}
