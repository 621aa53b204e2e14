package dev.reed.coordinates.discovery;

import dev.reed.coordinates.ModelFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;

/**
 * Every parameter of the client's discovery policy ({@link DiscoveryPolicy}) and the tunables of its
 * stop rules, in one place: the
 * client SDK runs with it and {@code ./reed eval --model FILE} measures it, so a figure the
 * evaluator reports is what a user of the SDK gets. Defaults are what won on planetlab490
 * (15 landmarks, 4-D, 10 seeds; eval/README.md has the current figures and docs/research/ how they
 * were reached).
 *
 * @param calibrationProbes N_calib, calibration probes per discovery (default 10: 14 in the paper;
 *     on planetlab490 10 ordered the first page as well as 14 and saved 4 probes)
 * @param spreadProbes of those, how many the coordinator's spread set (Algorithm 3) gives; 0 = D+2
 *     (default: the rough fit needs D+1 replies, one spare means a silent server costs a short
 *     grace instead of a probe timeout)
 * @param near what the second calibration phase probes (default {@link NearCalibration#BEACONS})
 * @param nearBeaconMaxMs a beacon predicted farther than this from the rough position is not a near
 *     calibration point (default 100 ms: its RTT bounds no near server tightly, and waiting for it
 *     made a discovery 0.25 s slower in the SDK's end-to-end test)
 * @param comparison use what the client's and each server's RTTs to the same landmarks say
 *     ({@code LandmarkComparison}): bounds on every prediction, the near-landmark difference in the
 *     order (default on: 2-5 probes fewer for "all 10 nearest seen")
 * @param lowerBoundBeyondMs predictions beyond this are raised to the triangle-inequality lower
 *     bound (default 50 ms; 20-80 measured the same, below 20 the near ranking suffered)
 * @param nearDifferenceWeight weight of the near-landmark difference in the order (default 0.5;
 *     0.25-1 within noise, 0 lost about 2 probes, 2 lost 1.5)
 * @param refitLimit the client re-fits its position and corrects predictions from this many
 *     replies, then the order is fixed; 0 = no learning, the coordinator's order as served
 *     (default 60; re-fitting took Intelligent N_close from 58.3 to 53.5 probes on planetlab490)
 * @param serverSigmaMs expected coordinate error of a server: a server RTT d weighs
 *     {@code (d / (d + sigma))^2} in the re-fit, calibration points weigh 1 (default 10 ms)
 * @param kernelMs width of the Gaussian kernel that spreads a probed server's misprediction to
 *     unprobed servers near it in coordinate space (Nadaraya-Watson regression; default 5 ms)
 * @param prior pseudo-count shrinking that correction towards 0 (default 0.3)
 * @param refetchMovedMs when the re-fitted position is this far from the one the ordered list was
 *     asked from, the list is asked again from the new position (default 10 ms)
 * @param geo fuse the coordinator's geographic predictions (from the client's location prior) into
 *     the order with the weights it fitted, when it sends them (default on; after Htrae, Agarwal
 *     &amp; Lorch, SIGCOMM 2009: geography-bootstrapped coordinates beat either alone)
 * @param geoMisfitMaxMs the location prior is distrusted (the order uses the coordinates alone) when
 *     the client's calibration RTTs scatter around the geographic predictions by more than this
 *     (median absolute deviation, ms): a GeoIP location in the wrong place (default 10 ms)
 * @param geoSureMs when the calibration RTTs scatter by at most this around the geographic
 *     predictions (ms), the location is taken as right and the fused prediction as it is: no
 *     near-landmark difference and no kriging, which add noise to a prediction that already holds
 *     each server's excess (default 5 ms; 0 = always learn)
 * @param kernelKm with locations, the kernel that spreads a misprediction works on great-circle
 *     distance with this width instead of {@code kernelMs} (default 100 km)
 * @param localProbes when the coordinator places the client, the calibration starts with this many
 *     servers of its zero-probe ranking (the servers the client would probe first anyway: each reply
 *     is a discovery and a calibration point; the REED paper's calibration servers are game
 *     servers), then the beacon phases take the rest of {@code calibrationProbes}; local servers that
 *     stay silent are made up for by beacons (default 0. With GeoIP-quality locations, median 50 km,
 *     10 took Intelligent N_close on azure54 from 39.8 to 31.7 probes and on the 250-city world from
 *     61-63 to 54 with P@10 up 0.02; but with a location prior six times as wrong (median 300 km,
 *     10 % in another country) it cost 0.05 of P@10, so it is for deployments that trust their
 *     location database: eval/models/local-probes.properties)
 * @param intelligentWindow W of Intelligent N_close (REED Algorithm 6): probes in a row that do
 *     not improve the set of the N_close lowest RTTs before it stops (default 20, the SDK's since
 *     the first release; the paper leaves W to the implementation)
 * @param windowMarginMs Intelligent N_close: an improvement of that set by no more than this (the
 *     RTT pushed out minus the new one) does not restart the window (default 0, Algorithm 6 as
 *     published; docs/research/stopping.md: on planetlab490, 2 ms saved 3.2 of 51.6 probes for
 *     +0.04 ms mean RTT)
 * @param rttStopWindow W of RTT_stop (REED Algorithm 5): it stops once the 2nd percentile of the
 *     last W RTTs exceeds RTT_stop (default 100, the paper's)
 * @param rttLimitDeltaMs delta of RTT_limit + delta (REED section 4.3.2): servers predicted within
 *     RTT_limit + delta are probed, delta absorbing the prediction error (default 30 ms)
 */
public record DiscoveryModel(
    int calibrationProbes,
    int spreadProbes,
    NearCalibration near,
    double nearBeaconMaxMs,
    boolean comparison,
    double lowerBoundBeyondMs,
    double nearDifferenceWeight,
    int refitLimit,
    double serverSigmaMs,
    double kernelMs,
    double prior,
    double refetchMovedMs,
    boolean geo,
    double geoMisfitMaxMs,
    double geoSureMs,
    double kernelKm,
    int localProbes,
    int intelligentWindow,
    double windowMarginMs,
    int rttStopWindow,
    double rttLimitDeltaMs) {

  /** What the second calibration phase probes. */
  public enum NearCalibration {
    /** The nearest landmark beacons within {@code nearBeaconMaxMs}, topped up with the nearest calibration points of any kind. */
    BEACONS,
    /** The nearest calibration points of any kind (in a deployment almost all are game servers). */
    ANY
  }

  /** The keys of a model file, one per component, in declaration order. */
  public static final Set<String> KEYS = Set.copyOf(ModelFile.keys(DiscoveryModel.class));

  public DiscoveryModel {
    if (calibrationProbes < 2 || calibrationProbes > 64) {
      throw new IllegalArgumentException("calibrationProbes must be 2-64: " + calibrationProbes);
    }
    if (spreadProbes < 0 || spreadProbes > calibrationProbes) {
      throw new IllegalArgumentException("spreadProbes must be 0 (= D+2) to calibrationProbes: " + spreadProbes);
    }
    if (near == null) {
      throw new IllegalArgumentException("near must be BEACONS or ANY");
    }
    requireMs(nearBeaconMaxMs, "nearBeaconMaxMs", true);
    requireMs(lowerBoundBeyondMs, "lowerBoundBeyondMs", true);
    requireMs(nearDifferenceWeight, "nearDifferenceWeight", false);
    if (refitLimit < 0) {
      throw new IllegalArgumentException("refitLimit must be >= 0: " + refitLimit);
    }
    requireMs(serverSigmaMs, "serverSigmaMs", false);
    if (!(kernelMs > 0) || !Double.isFinite(kernelMs) || !(prior > 0) || !Double.isFinite(prior)) {
      throw new IllegalArgumentException("kernelMs and prior must be finite and > 0: " + kernelMs + ", " + prior);
    }
    requireMs(refetchMovedMs, "refetchMovedMs", true);
    requireMs(geoMisfitMaxMs, "geoMisfitMaxMs", true);
    requireMs(geoSureMs, "geoSureMs", true);
    if (localProbes < 0) {
      throw new IllegalArgumentException("localProbes must be >= 0: " + localProbes);
    }
    // the local servers are part of the calibration budget: a smaller budget takes fewer of them
    localProbes = Math.min(localProbes, calibrationProbes);
    if (!(kernelKm > 0) || !Double.isFinite(kernelKm)) {
      throw new IllegalArgumentException("kernelKm must be finite and > 0: " + kernelKm);
    }
    if (intelligentWindow < 1 || rttStopWindow < 1) {
      throw new IllegalArgumentException("intelligentWindow and rttStopWindow must be >= 1: " + intelligentWindow + ", "
          + rttStopWindow);
    }
    requireMs(windowMarginMs, "windowMarginMs", false);
    requireMs(rttLimitDeltaMs, "rttLimitDeltaMs", false);
  }

  /** The defaults (class comment). */
  public static DiscoveryModel defaults() {
    return new DiscoveryModel(10, 0, NearCalibration.BEACONS, 100, true, 50, 0.5, 60, 10, 5, 0.3, 10, true, 10, 5, 100, 0, 20, 0, 100, 30);
  }

  /** Spread probes for a deployment of {@code dimensions}: {@link #spreadProbes}, or D+2 when it is 0. */
  public int spreadProbes(int dimensions) {
    return Math.min(calibrationProbes, spreadProbes > 0 ? spreadProbes : dimensions + 2);
  }

  public DiscoveryModel withCalibration(int probes, int spread, NearCalibration kind) {
    return new DiscoveryModel(probes, spread, kind, nearBeaconMaxMs, comparison, lowerBoundBeyondMs, nearDifferenceWeight,
        refitLimit, serverSigmaMs, kernelMs, prior, refetchMovedMs, geo, geoMisfitMaxMs, geoSureMs, kernelKm, localProbes,
        intelligentWindow, windowMarginMs, rttStopWindow, rttLimitDeltaMs);
  }

  /** This model with learning from replies on (the default limit) or off (the coordinator's order as served). */
  public DiscoveryModel withLearning(boolean on) {
    int limit = on ? (refitLimit > 0 ? refitLimit : defaults().refitLimit()) : 0;
    return new DiscoveryModel(calibrationProbes, spreadProbes, near, nearBeaconMaxMs, comparison, lowerBoundBeyondMs,
        nearDifferenceWeight, limit, serverSigmaMs, kernelMs, prior, refetchMovedMs, geo, geoMisfitMaxMs, geoSureMs, kernelKm,
        localProbes, intelligentWindow, windowMarginMs, rttStopWindow, rttLimitDeltaMs);
  }

  /**
   * Reads a model file: Java properties, {@code key = value} per line, {@code #} comments; keys
   * not given keep their defaults.
   *
   * @throws IllegalArgumentException naming the file and the key of an unknown key or bad value
   */
  public static DiscoveryModel load(Path file) throws IOException {
    return ModelFile.load(file, DiscoveryModel::of);
  }

  /** A model from properties (see {@link #load}); missing keys keep their defaults. */
  public static DiscoveryModel of(Properties p) {
    return ModelFile.of(p, DiscoveryModel.class, defaults());
  }

  /** The model as a properties file would hold it (every key). */
  public Properties toProperties() {
    return ModelFile.toProperties(this);
  }

  private static void requireMs(double v, String name, boolean infinityAllowed) {
    if (!(v >= 0) || (!infinityAllowed && Double.isInfinite(v))) {
      throw new IllegalArgumentException(name + " must be >= 0" + (infinityAllowed ? "" : " and finite") + ": " + v);
    }
  }
}
