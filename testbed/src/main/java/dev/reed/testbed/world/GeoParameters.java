package dev.reed.testbed.world;

import static dev.reed.testbed.world.ParameterChecks.atLeastOne;
import static dev.reed.testbed.world.ParameterChecks.nonNegative;
import static dev.reed.testbed.world.ParameterChecks.positive;
import static dev.reed.testbed.world.ParameterChecks.share;

/**
 * Parameters of the synthetic geographic world. RTT between hosts a and b:
 * {@code 2 * GreatCircle.km / fibreKmPerMs * inflation(a,b) + access(a) + access(b)}, where
 * {@code inflation(a,b) = pathInflation * exp(inflationSigma * z)} with z ~ N(0,1) drawn once per
 * pair, multiplied by {@code detourFactor} for a {@code detourProbability} share of pairs (routes
 * that go the long way round: the source of most triangle-inequality violations, Ledlie et al. 2006).
 *
 * <p>The defaults were chosen so the world's statistics resemble the PlanetLab 490-node matrix
 * in the repository's {@code data/} (median RTT, percentiles, share of violated triangles); the comparison
 * is in testbed/README.md and checked by {@code SyntheticWorldModelStatisticsTest}.
 *
 * @param fibreKmPerMs signal speed in fibre, about 200 km per ms (2/3 c)
 * @param pathInflation median ratio of routed path to great-circle path
 * @param inflationSigma spread of the per-pair inflation (log-normal sigma)
 * @param detourProbability share of pairs whose route takes a detour
 * @param detourFactor extra inflation of a detoured pair
 * @param serverAccessMinMs smallest access delay (RTT contribution) of a game server
 * @param serverAccessMeanMs mean of the exponential part of a game server's access delay
 * @param landmarkAccessMs access delay of a landmark (a well-connected cloud VM)
 * @param clientAccessExtraMs last-mile delay a client adds on top of a server-like access delay
 * @param scatterDeg standard deviation in degrees of a host's position around its city
 */
record GeoParameters(double fibreKmPerMs, double pathInflation, double inflationSigma,
    double detourProbability, double detourFactor, double serverAccessMinMs, double serverAccessMeanMs,
    double landmarkAccessMs, double clientAccessExtraMs, double scatterDeg) {
  public GeoParameters {
    positive("fibreKmPerMs", fibreKmPerMs);
    atLeastOne("pathInflation", pathInflation);
    nonNegative("inflationSigma", inflationSigma);
    share("detourProbability", detourProbability);
    atLeastOne("detourFactor", detourFactor);
    nonNegative("serverAccessMinMs", serverAccessMinMs);
    nonNegative("serverAccessMeanMs", serverAccessMeanMs);
    nonNegative("landmarkAccessMs", landmarkAccessMs);
    nonNegative("clientAccessExtraMs", clientAccessExtraMs);
    nonNegative("scatterDeg", scatterDeg);
  }

  /** The calibrated defaults (see testbed/README.md). */
  public static GeoParameters defaults() {
    return new GeoParameters(200, 2.0, 0.08, 0.04, 1.6, 1.0, 6.0, 1.0, 10.0, 0.5);
  }
}
