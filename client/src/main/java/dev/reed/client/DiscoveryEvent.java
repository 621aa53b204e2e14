package dev.reed.client;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/** Something a live server browser shows while discovery runs. */
public sealed interface DiscoveryEvent {

  /**
   * The client has a position: after calibration, reused from a recent calibration
   * ({@code calibrationReplies} 0), or again after re-positioning.
   */
  record Positioned(ClientPosition position, int calibrationReplies, boolean reposition, Duration elapsed)
      implements DiscoveryEvent {}

  /** The coordinator listed servers for probing (one page, or the whole traditional list). */
  record Listed(int servers, int totalMatching) implements DiscoveryEvent {}

  /** A server answered; probesSent and elapsed describe the discovery so far. */
  record ServerFound(DiscoveredServer server, int probesSent, Duration elapsed) implements DiscoveryEvent {}

  /** A probe got no valid reply (timeout or error). */
  record NoReply(InetSocketAddress address, boolean timeout, String detail, int probesSent) implements DiscoveryEvent {}

  /** REED discovery failed at the coordinator and the fallback (clustering or traditional discovery) takes over. */
  record FallingBack(String cause) implements DiscoveryEvent {}

  /**
   * Discovery without a coordinator: Armitage's clustering sampled every cluster of the master list
   * and probes them in this order.
   *
   * @param method {@link DiscoveryResult.Method#CLUSTER_AS_FALLBACK} or {@link DiscoveryResult.Method#CLUSTER_COUNTRY_FALLBACK}
   * @param clusters cluster labels ("AS3320", "DE"), nearest first; null stands for the servers the databases do not know
   * @param samples probes sent to sample the clusters
   */
  record ClustersRanked(DiscoveryResult.Method method, List<String> clusters, int samples, Duration elapsed)
      implements DiscoveryEvent {}

  /** Probing stopped. */
  record Stopped(DiscoveryResult.StopReason reason, int probesSent, Duration elapsed) implements DiscoveryEvent {}
}
