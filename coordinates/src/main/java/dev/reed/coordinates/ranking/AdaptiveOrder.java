package dev.reed.coordinates.ranking;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkComparison;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A client's probe order that learns from every RTT it measures (beyond the REED paper, which
 * probes the ordered list as served). REED's ordered list is only as good as the servers'
 * coordinates, and those come from a few distant landmarks: on PlanetLab even a perfectly placed
 * client orders its 10 nearest servers with precision ~0.63. The client's own probes carry the
 * local information the landmarks lack, and this class uses them twice:
 *
 * <ol>
 *   <li>Re-positioning: after each answer the client re-fits its coordinate from its calibration
 *       RTTs plus every server RTT measured so far (the same solver as calibration, warm-started),
 *       a server's RTT d weighing {@code (d / (d + sigma))^2} so a 2 ms neighbour with a few ms of
 *       coordinate error cannot dominate the fit.
 *   <li>Residual kriging: the misprediction {@code measured - predicted} of probed servers is
 *       spatially correlated (the client's own error is a smooth field; servers at one site share
 *       their error), so an unprobed server's prediction is corrected by the kernel-weighted mean
 *       residual of probed servers near it in coordinate space (Gaussian kernel of width
 *       {@code kernelMs}, shrunk towards 0 by {@code prior}; Nadaraya-Watson regression).
 *   <li>Landmark comparison (optional): the client's calibration RTTs and each server's RTTs from the
 *       same landmarks bound the prediction (triangle inequality) and, through the near-landmark
 *       difference, flag servers the coordinates put 10-20 ms too far ({@link LandmarkComparison}).
 * </ol>
 *
 * <p>Not thread-safe: one instance per discovery session. Work per answer: one warm-started fit
 * plus O(servers x probed) multiply-adds; no exponentials are recomputed.
 */
public final class AdaptiveOrder {

  /**
   * @param kernelMs width of the residual kernel in coordinate ms (default 5)
   * @param prior pseudo-count shrinking the correction towards 0 (default 0.3)
   * @param refitLimit stop learning after this many answers; the order is then fixed (default 60)
   * @param serverSigmaMs expected coordinate error of a server in the re-fit (default 10)
   * @param lowerBoundBeyondMs with landmark comparisons, predictions beyond this are raised to the
   *     triangle-inequality lower bound ({@link LandmarkComparison#refine}; default 50: on
   *     planetlab490 20-80 gave the same error, below 20 the near ranking suffered)
   * @param nearDifferenceWeight with landmark comparisons, the order ranks by the prediction plus
   *     this times the near-landmark difference (default 0.5; 0.25-1 were within noise, 0 lost
   *     about 2 probes on "all 10 nearest seen", 2 lost 1.5 probes on Intelligent)
   */
  public record Settings(double kernelMs, double prior, int refitLimit, double serverSigmaMs,
      double lowerBoundBeyondMs, double nearDifferenceWeight) {
    public Settings {
      if (!(kernelMs > 0) || !Double.isFinite(kernelMs) || !(prior > 0) || !Double.isFinite(prior)
          || refitLimit < 0 || !(serverSigmaMs >= 0) || !Double.isFinite(serverSigmaMs)
          || !(lowerBoundBeyondMs >= 0) || !(nearDifferenceWeight >= 0) || !Double.isFinite(nearDifferenceWeight)) {
        throw new IllegalArgumentException("bad adaptive-order settings: kernelMs and prior must be > 0, "
            + "refitLimit, serverSigmaMs, lowerBoundBeyondMs and nearDifferenceWeight >= 0, all but "
            + "lowerBoundBeyondMs finite");
      }
    }

    /** The given learning settings, with the landmark-comparison settings at their defaults. */
    public Settings(double kernelMs, double prior, int refitLimit, double serverSigmaMs) {
      this(kernelMs, prior, refitLimit, serverSigmaMs, 50.0, 0.5);
    }

    public static Settings defaults() {
      return new Settings(5.0, 0.3, 60, 10.0);
    }
  }

  private final HostPositioner positioner;
  private final Settings settings;
  private final Coordinate[] servers;
  private final int n;
  private final double[] base;
  private final double[] num;
  private final double[] den;
  private final boolean[] probed;
  private final List<Coordinate> anchors;
  private double[] anchorRtt;
  private double[] anchorWeight;
  private int anchorCount;
  private final List<float[]> kernelRows = new ArrayList<>();
  private final List<Integer> kernelServer = new ArrayList<>();
  private final LandmarkComparison[] comparisons;
  private final double[] nearBias;
  private Coordinate position;
  private int answers;
  private int remaining;

  /**
   * @param calibration coordinates of the calibration servers the client probed
   * @param calibrationRttMs the RTTs it measured to them (NaN = no answer)
   * @param servers the servers to order
   * @throws IllegalArgumentException as {@link HostPositioner#position} (too few usable RTTs, NaN/Inf,
   *     dimension mismatch) or for an empty server list
   */
  public AdaptiveOrder(CoordinateConfig config, Settings settings, List<Coordinate> calibration,
      double[] calibrationRttMs, List<Coordinate> servers) {
    this(config, settings, calibration, calibrationRttMs, servers, null);
  }

  /**
   * As above, with what the client's and each server's RTTs to the same landmarks say
   * ({@link LandmarkComparison}): predictions are kept within the triangle-inequality bounds, and
   * the order adds {@link Settings#nearDifferenceWeight} times the near-landmark difference, which
   * catches servers the coordinates misplace (see eval/README.md for the numbers).
   *
   * @param comparisons one per server, index-aligned with {@code servers} (an entry may be null),
   *     or null for none
   */
  public AdaptiveOrder(CoordinateConfig config, Settings settings, List<Coordinate> calibration,
      double[] calibrationRttMs, List<Coordinate> servers, LandmarkComparison[] comparisons) {
    if (settings == null || servers == null || servers.isEmpty()) {
      throw new IllegalArgumentException("settings and a non-empty server list are required");
    }
    this.positioner = new HostPositioner(config);
    this.settings = settings;
    this.servers = servers.toArray(new Coordinate[0]);
    this.n = this.servers.length;
    if (comparisons != null && comparisons.length != n) {
      throw new IllegalArgumentException("comparisons must be index-aligned with the servers: "
          + comparisons.length + " vs " + n);
    }
    this.comparisons = comparisons;
    this.nearBias = new double[n];
    if (comparisons != null) {
      for (int j = 0; j < n; j++) {
        nearBias[j] = comparisons[j] == null ? 0 : settings.nearDifferenceWeight() * comparisons[j].nearDifferenceMs();
      }
    }
    for (Coordinate s : this.servers) {
      if (s == null || s.dimensions() != config.dimensions()) {
        throw new IllegalArgumentException("every server needs a " + config.dimensions() + "-D coordinate");
      }
    }
    this.position = positioner.position(calibration, calibrationRttMs, null).coordinate();
    this.anchors = new ArrayList<>(calibration);
    int cap = calibration.size() + Math.min(n, settings.refitLimit()) + 1;
    this.anchorRtt = Arrays.copyOf(calibrationRttMs, cap);
    this.anchorWeight = new double[cap];
    Arrays.fill(anchorWeight, 0, calibration.size(), 1.0);
    this.anchorCount = calibration.size();
    this.base = new double[n];
    this.num = new double[n];
    this.den = new double[n];
    this.probed = new boolean[n];
    this.remaining = n;
    for (int j = 0; j < n; j++) {
      base[j] = distance(j);
    }
  }

  /** The client's current coordinate. */
  public Coordinate position() {
    return position;
  }

  /** Current predicted RTT to server j (the coordinate distance, corrected by nearby residuals). */
  public double predictedMs(int j) {
    return Math.max(0, base[j] + num[j] / (den[j] + settings.prior()));
  }

  /** The best unprobed server (marked probed), or -1 when every server has been handed out. */
  public int next() {
    if (remaining == 0) {
      return -1;
    }
    int best = -1;
    double bv = 0;
    for (int j = 0; j < n; j++) {
      if (!probed[j]) {
        double v = base[j] + num[j] / (den[j] + settings.prior()) + nearBias[j];
        if (best < 0 || v < bv) {
          best = j;
          bv = v;
        }
      }
    }
    probed[best] = true;
    remaining--;
    return best;
  }

  /**
   * Reports the RTT measured to server j (NaN = no answer) and updates the order. j need not come
   * from {@link #next}: a server probed otherwise (e.g. as a calibration server) leaves the order.
   */
  public void measured(int j, double rttMs) {
    if (j < 0 || j >= n) {
      throw new IllegalArgumentException("server index " + j + " outside 0.." + (n - 1));
    }
    if (Double.isInfinite(rttMs) || rttMs < 0) {
      throw new IllegalArgumentException("rttMs must be finite and >= 0 (NaN = no answer), got " + rttMs);
    }
    if (!probed[j]) {
      probed[j] = true;
      remaining--;
    }
    if (Double.isNaN(rttMs) || answers >= settings.refitLimit()) {
      return;
    }
    answers++;
    anchors.add(servers[j]);
    anchorRtt[anchorCount] = rttMs;
    double sig = settings.serverSigmaMs();
    anchorWeight[anchorCount] = sig == 0 ? 1.0 : Math.pow(rttMs / (rttMs + sig), 2);
    anchorCount++;
    try {
      position = positioner.position(anchors, Arrays.copyOf(anchorRtt, anchorCount),
          Arrays.copyOf(anchorWeight, anchorCount), position).coordinate();
    } catch (IllegalArgumentException e) {
      // cannot happen with >= D+1 calibration anchors; keep the previous position
    }
    // kernel row of the newly measured server (computed once)
    float[] row = new float[n];
    double twoTau2 = 2 * settings.kernelMs() * settings.kernelMs();
    for (int k = 0; k < n; k++) {
      if (!probed[k]) {
        double d = servers[j].euclideanTo(servers[k]);
        row[k] = (float) Math.exp(-d * d / twoTau2);
      }
    }
    kernelRows.add(row);
    kernelServer.add(j);
    double[] residual = new double[kernelServer.size()];
    for (int k = 0; k < n; k++) {
      base[k] = distance(k);
    }
    for (int p = 0; p < residual.length; p++) {
      int s = kernelServer.get(p);
      residual[p] = anchorRtt[anchorCount - residual.length + p] - base[s];
    }
    Arrays.fill(num, 0);
    Arrays.fill(den, 0);
    for (int p = 0; p < residual.length; p++) {
      float[] r = kernelRows.get(p);
      double e = residual[p];
      for (int k = 0; k < n; k++) {
        if (!probed[k]) {
          num[k] += r[k] * e;
          den[k] += r[k];
        }
      }
    }
  }

  /** The client's coordinate distance to server j, kept within its landmark bounds. */
  private double distance(int j) {
    double d = position.distanceTo(servers[j]);
    return comparisons == null || comparisons[j] == null ? d : comparisons[j].refine(d, settings.lowerBoundBeyondMs());
  }
}
