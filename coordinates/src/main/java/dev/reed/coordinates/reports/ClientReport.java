package dev.reed.coordinates.reports;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.Place;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one client measured in one discovery, as the coordinator received it. It holds no client
 * address: {@code groups} are opaque keys (keyed hashes of the client's network prefix, AS and API
 * key) that only cap how much one source can move a server.
 *
 * @param position the client's coordinate its first page was ranked from (its calibration): a
 *     reported RTT is compared with the prediction the client had
 * @param location the client's location prior, or null
 * @param landmarkRttMs the client's calibration RTT to each landmark beacon, by landmark id (ms)
 * @param serverRttMs each probed server's RTT, by server key (ms)
 * @param timeouts servers probed that did not answer
 * @param groups the sources the report counts against (each at most once per server)
 * @param atMillis when it was received (epoch ms)
 */
public record ClientReport(Coordinate position, Place location, Map<String, Double> landmarkRttMs,
    Map<String, Double> serverRttMs, Set<String> timeouts, List<String> groups, long atMillis) {
  public ClientReport {
    if (position == null) {
      throw new IllegalArgumentException("a report needs the client's coordinate");
    }
    landmarkRttMs = Map.copyOf(landmarkRttMs);
    serverRttMs = Map.copyOf(serverRttMs);
    timeouts = Set.copyOf(timeouts);
    groups = List.copyOf(groups);
  }
}
