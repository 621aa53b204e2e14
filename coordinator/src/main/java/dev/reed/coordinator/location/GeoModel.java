package dev.reed.coordinator.location;

import dev.reed.coordinates.geo.CvErrors;
import dev.reed.coordinates.geo.FusedEstimator;
import dev.reed.coordinates.geo.Place;
import dev.reed.proto.v1.FusionWeights;
import java.time.Instant;
import java.util.Map;

/**
 * What the coordinator serves about locations, one immutable version (swapped whole after each
 * training, like {@code ServingState}): every server's and landmark beacon's location and excess,
 * and the fused estimator trained on the landmark data.
 *
 * @param locating a location database is configured (false: the coordinator behaves as one without
 *     locations, bit for bit)
 * @param servers per server endpoint key
 * @param beacons per landmark beacon endpoint key
 * @param estimator the trained estimator, null until enough located landmark data was seen
 * @param beaconLandmarks each landmark beacon's endpoint key to its landmark's index in the
 *     estimator's data (how a client's RTT to a beacon is an RTT to that landmark)
 * @param locateMarginMs how much better another place must explain a client's landmark RTTs
 *     before Locate moves it there ({@code EstimatorModel.locateMarginMs})
 * @param trainedAt when this version was built
 */
public record GeoModel(boolean locating, Map<String, HostGeo> servers, Map<String, HostGeo> beacons,
    FusedEstimator estimator, Map<String, Integer> beaconLandmarks, double locateMarginMs, Instant trainedAt) {

  /** No database configured. */
  public static final GeoModel NONE = new GeoModel(false, Map.of(), Map.of(), null, Map.of(), 0, Instant.EPOCH);

  public GeoModel {
    servers = Map.copyOf(servers);
    beacons = Map.copyOf(beacons);
    beaconLandmarks = Map.copyOf(beaconLandmarks);
  }

  /**
   * Where a client's calibration RTTs place it (the prior corrected): of the prior and
   * every located landmark and server the estimator learned from, the place whose distances explain
   * the client's RTTs to the landmark beacons best, the prior unless another is better by the
   * margin ({@code FusedEstimator.locate}). The prior when nothing is trained.
   *
   * @param beaconRttMs the client's RTT to landmark beacons, by beacon endpoint key
   */
  public Place relocate(Place prior, Map<String, Double> beaconRttMs) {
    if (estimator == null || prior == null) {
      return prior;
    }
    double[] toLandmark = new double[estimator.data().landmarks().length];
    java.util.Arrays.fill(toLandmark, Double.NaN);
    beaconRttMs.forEach((key, ms) -> {
      Integer k = beaconLandmarks.get(key);
      if (k != null) {
        toLandmark[k] = Math.min(ms, Double.isNaN(toLandmark[k]) ? ms : toLandmark[k]);
      }
    });
    return estimator.locate(prior, toLandmark, locateMarginMs);
  }

  /** Whether predictions can be made (an estimator was trained). */
  public boolean trained() {
    return estimator != null;
  }

  /** A server's location knowledge, {@link HostGeo#UNKNOWN} when there is none. */
  public HostGeo server(String key) {
    HostGeo h = servers.get(key);
    return h == null ? HostGeo.UNKNOWN : h;
  }

  /**
   * The geographic prediction of the RTT from a client at {@code client} (a typical client's
   * excess: it has measured nothing the coordinator knows) to {@code host}, ms; NaN when either
   * place is unknown or nothing is trained.
   */
  public double geoMs(Place client, HostGeo host) {
    if (estimator == null || client == null || host == null || !host.located()) {
      return Double.NaN;
    }
    return estimator.prior().predictMs(client, host.place(), host.excessMs(), estimator.prior().typicalExcessMs());
  }

  /** The cross-validated errors, {@link CvErrors#UNKNOWN} before training. */
  public CvErrors errors() {
    return estimator == null ? CvErrors.UNKNOWN : estimator.errors();
  }

  /** The fusion weights as served, null before training. */
  public FusionWeights fusion() {
    if (estimator == null) {
      return null;
    }
    double err = estimator.errors().fused();
    return FusionWeights.newBuilder().setGeo(estimator.weights().geo()).setCoordinates(estimator.weights().coordinate())
        .setRelay(estimator.weights().relay()).setCvRelativeError(Double.isFinite(err) ? err : 0).build();
  }

  /** A prediction's uncertainty in µs: {@code predictedMs x relativeError}, 0 when either is unknown. */
  public static int uncertaintyUs(double predictedMs, double relativeError) {
    if (!(predictedMs >= 0) || !Double.isFinite(relativeError) || !Double.isFinite(predictedMs)) {
      return 0;
    }
    return (int) Math.min(Integer.MAX_VALUE, Math.round(predictedMs * relativeError * 1000));
  }

  /** A prediction in µs for the API, 0 when unknown (NaN). */
  public static int micros(double ms) {
    if (!(ms >= 0) || !Double.isFinite(ms)) {
      return 0;
    }
    return (int) Math.min(Integer.MAX_VALUE, Math.round(ms * 1000));
  }

  /**
   * A server's coordinate record with what this model knows about its location (placement,
   * geo_excess_us), for snapshots; unchanged when nothing is known.
   */
  public dev.reed.proto.v1.ServerCoordinate decorate(dev.reed.proto.v1.ServerCoordinate c) {
    HostGeo h = servers.get(dev.reed.proto.Endpoints.key(c.getEndpoint()));
    if (h == null || h.placement().equals(dev.reed.proto.v1.Placement.getDefaultInstance())) {
      return c;
    }
    long excessUs = h.located() ? Math.round(h.excessMs() * 1000) : 0;
    return c.toBuilder().setPlacement(h.placement())
        .setGeoExcessUs((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, excessUs))).build();
  }
}
