/**
 * Location knowledge fused with what the landmarks measure (experimental), free of I/O:
 * great-circle distance ({@link dev.reed.coordinates.geo.GreatCircle}), RTT as a robust line of
 * distance learned from the pairs a deployment measures with both ends located
 * ({@link dev.reed.coordinates.geo.DistanceRttModel}), each server's excess over it
 * ({@link dev.reed.coordinates.geo.GeoPrior}), and a predictor that weighs that geographic
 * prediction, the coordinate distance and Valve's relay bound with weights fitted by
 * leave-one-landmark-out cross-validation on landmark data only
 * ({@link dev.reed.coordinates.geo.FusedEstimator}), all parameters in one
 * {@link dev.reed.coordinates.geo.EstimatorModel}.
 *
 * <p>Sources: Agarwal &amp; Lorch, "Matchmaking for online games and other latency-sensitive P2P
 * systems" (Htrae, SIGCOMM 2009): geography-bootstrapped coordinates beat either alone; Valve's
 * GameNetworkingSockets "ping location" (steamnetworkingsockets_relay / SteamNetworkingPingLocation):
 * {@code min over relays l of rtt(c,l) + rtt(l,s)}; Koenker &amp; Bassett, "Regression quantiles"
 * (Econometrica 1978) for the robust line; light in fibre (refractive index ~1.47) covers about
 * 100 km per ms of RTT, the physical floor of the line's slope.
 */
package dev.reed.coordinates.geo;
