package dev.reed.client;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What one discovery found and what it cost. REED and traditional discovery return the same
 * type so a browser (and {@code ./reed browse --compare-traditional}) can put them side by side.
 *
 * @param method how the servers were discovered
 * @param probes probes sent, calibration included: the traffic this discovery caused
 * @param probesNeeded probes up to the one whose outcome made the stop rule decide, calibration
 *     included (the paper's measure); {@code probes} also counts those still in flight then
 * @param calibrationProbes probes sent to calibration servers (for the clustering fallbacks: to the clusters' samples)
 * @param timeouts probes that got no valid reply in time
 * @param elapsed from the start of the discovery to the stop decision
 * @param servers servers that answered, ascending measured RTT
 * @param stopReason why probing stopped
 * @param position the client position used (null for traditional discovery and the clustering fallbacks)
 * @param coordinatorFailure what went wrong at the coordinator: why REED discovery fell back to
 *     a fallback ({@link Method#TRADITIONAL_FALLBACK}, {@link Method#CLUSTER_AS_FALLBACK}, {@link Method#CLUSTER_COUNTRY_FALLBACK}), or why probing stopped early
 *     ({@link StopReason#COORDINATOR_FAILED}); null otherwise
 */
public record DiscoveryResult(Method method, int probes, int probesNeeded, int calibrationProbes, int timeouts,
    Duration elapsed, List<DiscoveredServer> servers, StopReason stopReason, ClientPosition position,
    String coordinatorFailure) {

  /** How the servers were discovered. */
  public enum Method {
    REED,
    TRADITIONAL,
    /** No coordinator answered and no database labels the list: the master list probed in its order. */
    TRADITIONAL_FALLBACK,
    /** No coordinator answered: Armitage's clustering of the master list by origin AS. */
    CLUSTER_AS_FALLBACK,
    /** No coordinator answered: Armitage's clustering of the master list by country. */
    CLUSTER_COUNTRY_FALLBACK
  }

  /** Why probing stopped. */
  public enum StopReason {
    /** The stop rule said so. */
    STOP_RULE,
    /** Every listed server was probed. */
    LIST_EXHAUSTED,
    /** The request's maxDuration ran out. */
    TIME_LIMIT,
    /** The coordinator failed mid-way; the result holds what was found until then. */
    COORDINATOR_FAILED,
    /** The calling thread was interrupted. */
    INTERRUPTED
  }

  public DiscoveryResult {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(elapsed, "elapsed");
    Objects.requireNonNull(stopReason, "stopReason");
    servers = servers.stream().sorted(Comparator.comparingDouble(DiscoveredServer::rttMs)).toList();
  }

  public double seconds() {
    return elapsed.toNanos() / 1e9;
  }

  /** Mean measured RTT of the servers found, NaN if none. */
  public double meanRttMs() {
    return servers.stream().mapToDouble(DiscoveredServer::rttMs).average().orElse(Double.NaN);
  }

  /** Median measured RTT of the servers found, NaN if none. */
  public double medianRttMs() {
    int n = servers.size();
    if (n == 0) return Double.NaN;
    return n % 2 == 1 ? servers.get(n / 2).rttMs() : (servers.get(n / 2 - 1).rttMs() + servers.get(n / 2).rttMs()) / 2;
  }

  /** The k servers with the lowest measured RTT. */
  public List<DiscoveredServer> closest(int k) {
    return servers.subList(0, Math.min(k, servers.size()));
  }
}
