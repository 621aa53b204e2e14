/**
 * Armitage's client-side clustering, the published predecessor of REED, free of I/O: a client
 * groups the master server's list by a label it can look up without probing, probes a few servers
 * of every group, then probes whole groups in ascending order of the RTT it measured in each
 * ({@link dev.reed.coordinates.clustering.ClusterOrder}, parameters in
 * {@link dev.reed.coordinates.clustering.ClusterConfig}).
 *
 * <p>Sources:
 * <ul>
 *   <li>G. Armitage, "Optimising Online FPS Game Server Discovery through Clustering Servers by
 *       Origin Autonomous System", ACM NOSSDAV 2008, pp. 3-8, doi:10.1145/1496046.1496048: label
 *       = the origin AS of the server's address ("sort available game servers by origin AS, probe a
 *       subset of servers in each AS, rank each AS in ascending order of estimated RTT, then probe
 *       all remaining game servers according to the rank of their origin AS").
 *   <li>G. Armitage, "Client-side Adaptive Search Optimisation for Online Game Server Discovery",
 *       IFIP Networking 2008, and the CAIA technical reports of the same group: pre-probing a
 *       subset of the servers to re-order the rest; the country-code variant groups by the
 *       country a geolocation database gives the address.
 * </ul>
 *
 * <p>The client SDK runs it as its fallback when no coordinator answers (it needs only the master
 * list and the location / AS databases); {@code ./reed eval} scores it as a baseline, the
 * per-cluster samples counted as probes.
 */
package dev.reed.coordinates.clustering;
