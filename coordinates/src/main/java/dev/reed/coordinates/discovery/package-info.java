/**
 * The client's REED discovery policy, free of I/O: which calibration points to probe and where
 * that puts the client ({@link dev.reed.coordinates.discovery.DiscoveryPolicy}), and the order in
 * which to probe servers, learning from every reply ({@link dev.reed.coordinates.discovery.ProbeOrder}),
 * all parameters in one {@link dev.reed.coordinates.discovery.DiscoveryModel}. The client SDK drives
 * it over gRPC and UDP, {@code ./reed eval} over a measured matrix.
 */
package dev.reed.coordinates.discovery;
