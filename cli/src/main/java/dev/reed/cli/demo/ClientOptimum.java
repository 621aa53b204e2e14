package dev.reed.cli.demo;

import java.util.Set;

/**
 * What an oracle that knew every RTT would find from one client: the mean and median true RTT of
 * its N_close nearest servers, and their keys ("ip:port"), against which every row is scored.
 */
record ClientOptimum(double meanMs, double medianMs, Set<String> nearest) {
  ClientOptimum {
    nearest = Set.copyOf(nearest);
  }
}
