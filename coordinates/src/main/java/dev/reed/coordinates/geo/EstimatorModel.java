package dev.reed.coordinates.geo;

import dev.reed.coordinates.ModelFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;

/**
 * Every parameter of the fused estimator ({@link FusedEstimator}), in one place: what the
 * coordinator, the client SDK and {@code ./reed eval --estimator FILE} share. Experimental: the
 * defaults are first choices measured on azure54 only (docs/research/geo-estimator.md).
 *
 * @param quantile regression quantile of the distance line (default 0.5, least absolute
 *     deviations; paths scatter above the great circle, a least-squares line follows the tail)
 * @param minMsPerKm lowest slope (default 0.01: light in fibre, ~1 ms of RTT per 100 km)
 * @param maxMsPerKm highest slope (default 0.1, ten times the floor)
 * @param regionMinPairs a region pair with at least this many labelled pairs gets its own line;
 *     0 = one global line (default 30: on azure54 it took the zero-probe P@10 from 0.857 to 0.866
 *     with exact and from 0.834 to 0.846 with GeoIP-like client locations)
 * @param excessMinLandmarks a server's excess over the line needs at least this many landmark
 *     RTTs, otherwise it is 0 (default 3: the median of fewer is one landmark's own detour)
 * @param weightStep grid step of the fusion weights over the simplex (default 0.05)
 * @param cvLocationErrorKm in cross-validation, the held-out landmark playing a client is believed
 *     this far from where it is (each fold in another direction), so the weights learn how much to
 *     trust a client location as wrong as the deployment's geolocation (default 0: client locations
 *     as exact as the landmarks'; 100 and 400 km changed the testbed world's figures by under 0.01)
 * @param locateMarginMs a calibrated client is moved from its location prior to the located host
 *     whose distances explain its landmark RTTs best ({@link FusedEstimator#locate}) when that
 *     explains them better by more than this (default 10 ms: on the testbed world with GeoIP-like
 *     error P@10 0.74 -> 0.77, with exact locations unchanged; 2 ms moved exact clients away;
 *     infinity = never)
 */
public record EstimatorModel(double quantile, double minMsPerKm, double maxMsPerKm, int regionMinPairs,
    int excessMinLandmarks, double weightStep, double cvLocationErrorKm, double locateMarginMs) {

  /** The keys of a model file, one per component. */
  public static final Set<String> KEYS = Set.copyOf(ModelFile.keys(EstimatorModel.class));

  public EstimatorModel {
    if (!(quantile > 0 && quantile < 1)) {
      throw new IllegalArgumentException("quantile must be in (0, 1): " + quantile);
    }
    if (!(minMsPerKm >= 0) || !(maxMsPerKm > minMsPerKm) || !Double.isFinite(maxMsPerKm)) {
      throw new IllegalArgumentException("need 0 <= minMsPerKm < maxMsPerKm, finite: " + minMsPerKm + ", " + maxMsPerKm);
    }
    if (regionMinPairs < 0) {
      throw new IllegalArgumentException("regionMinPairs must be >= 0: " + regionMinPairs);
    }
    if (excessMinLandmarks < 1) {
      throw new IllegalArgumentException("excessMinLandmarks must be >= 1: " + excessMinLandmarks);
    }
    if (!(weightStep > 0 && weightStep <= 1) || Math.abs(1 / weightStep - Math.rint(1 / weightStep)) > 1e-9) {
      throw new IllegalArgumentException("weightStep must divide 1 (0.5, 0.25, 0.1, 0.05, ...): " + weightStep);
    }
    if (!(cvLocationErrorKm >= 0 && cvLocationErrorKm <= 20_000)) {
      throw new IllegalArgumentException("cvLocationErrorKm must be 0-20000: " + cvLocationErrorKm);
    }
    if (!(locateMarginMs >= 0)) {
      throw new IllegalArgumentException("locateMarginMs must be >= 0 (infinity = never relocate): " + locateMarginMs);
    }
  }

  /** The defaults (class comment). */
  public static EstimatorModel defaults() {
    return new EstimatorModel(0.5, 0.01, 0.1, 30, 3, 0.05, 0, 10);
  }

  /**
   * Reads a model file: Java properties, {@code key = value}, {@code #} comments; keys not given
   * keep their defaults.
   *
   * @throws IllegalArgumentException naming the file and the key of an unknown key or bad value
   */
  public static EstimatorModel load(Path file) throws IOException {
    return ModelFile.load(file, EstimatorModel::of);
  }

  /** A model from properties (see {@link #load}); missing keys keep their defaults. */
  public static EstimatorModel of(Properties p) {
    return ModelFile.of(p, EstimatorModel.class, defaults());
  }

  /** The model as a properties file holds it (every key). */
  public Properties toProperties() {
    return ModelFile.toProperties(this);
  }
}
