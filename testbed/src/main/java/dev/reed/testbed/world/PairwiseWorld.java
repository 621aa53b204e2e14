package dev.reed.testbed.world;

import java.util.Objects;

/**
 * A world of hosts whose base RTT is symmetric and computed per unordered pair, the synthetic
 * ({@link SyntheticWorldModel}) and the calibrated ({@link CalibratedWorld}) one: the hosts, and
 * the index checks and ordering every pair's RTT starts with. Immutable.
 */
abstract class PairwiseWorld implements LatencyModel {
  private final Host[] hosts;

  PairwiseWorld(Host[] hosts) {
    this.hosts = hosts;
  }

  @Override
  public final int size() {
    return hosts.length;
  }

  @Override
  public final Host host(int index) {
    return hosts[index];
  }

  @Override
  public final double rttMs(int from, int to) {
    Objects.checkIndex(from, hosts.length);
    Objects.checkIndex(to, hosts.length);
    if (from == to) {
      return 0;
    }
    return pairRttMs(Math.min(from, to), Math.max(from, to));
  }

  /** The base RTT between hosts {@code lo} < {@code hi}, both in range. */
  abstract double pairRttMs(int lo, int hi);
}
