/**
 * Where hosts and clients are, as the coordinator learns it: hosts' locations from the location
 * and AS databases ({@link dev.reed.coordinator.location.HostLocations}), the fused estimator
 * trained after every round ({@link dev.reed.coordinator.location.GeoTraining}) and the immutable
 * version of it rankings read ({@link dev.reed.coordinator.location.GeoModel}), and a client's
 * location prior from its address ({@link dev.reed.coordinator.location.ClientPrior}). The
 * databases are read by the {@code geo} module, the distance-to-RTT models are the coordinates
 * module's {@code geo} package: this package is the coordinator's use of both.
 */
package dev.reed.coordinator.location;
