package dev.reed.testbed.world;

import java.util.AbstractList;
import java.util.List;

/**
 * The base round-trip time between any two hosts of an emulated world: what a network
 * coordinate system such as REED's GNP embedding (Armitage &amp; Heyde, TOMCCAP 2011; Ng &amp; Zhang
 * 2002) tries to predict. Jitter and loss are added per probe by {@link World}; a model only
 * answers the stable part, like the median matrices in the repository's {@code data/}.
 */
public interface LatencyModel {
  /** Number of hosts; they are indexed 0..size()-1. */
  int size();

  Host host(int index);

  /**
   * Base RTT in milliseconds from {@code from} to {@code to} (0 when equal), or NaN where the
   * model has no value (a missing matrix cell: the pair cannot reach each other).
   *
   * @throws IndexOutOfBoundsException for an index outside the model
   */
  double rttMs(int from, int to);

  /** All hosts, in index order (a view; no copy). */
  default List<Host> hosts() {
    return new AbstractList<>() {
      @Override
      public Host get(int i) {
        return host(i);
      }

      @Override
      public int size() {
        return LatencyModel.this.size();
      }
    };
  }
}
