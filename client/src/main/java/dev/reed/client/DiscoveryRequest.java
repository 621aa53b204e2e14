package dev.reed.client;

import java.time.Duration;
import java.util.Objects;

/**
 * One discovery: which servers, when to stop, and how.
 *
 * @param filter servers the coordinator lists
 * @param stop when to stop probing
 * @param pageSize servers per ordered page (1-5000; 230 = one Valve master reply)
 * @param reposition learn from the replies as they arrive (the model's re-fit and prediction
 *     correction, asking the list again from a position that moved); false probes the
 *     coordinator's order as served, kept within the landmark bounds
 * @param maxDuration hard limit for the whole discovery, calibration included
 */
public record DiscoveryRequest(Filter filter, StopRule stop, int pageSize, boolean reposition, Duration maxDuration) {

  public DiscoveryRequest {
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(stop, "stop");
    if (pageSize < 1 || pageSize > 5000) throw new IllegalArgumentException("pageSize must be 1-5000: " + pageSize);
    if (maxDuration == null || maxDuration.isNegative() || maxDuration.isZero()) {
      throw new IllegalArgumentException("maxDuration must be positive: " + maxDuration);
    }
  }

  /**
   * Every server, First N_close with N_close = 40 (the paper's example), learning from replies (the
   * discovery model's defaults; eval/README.md has what it measures).
   */
  public static DiscoveryRequest defaults() {
    return new DiscoveryRequest(Filter.none(), StopRule.first(40), 230, true, Duration.ofMinutes(10));
  }

  public DiscoveryRequest withFilter(Filter f) {
    return new DiscoveryRequest(f, stop, pageSize, reposition, maxDuration);
  }

  public DiscoveryRequest withStop(StopRule s) {
    return new DiscoveryRequest(filter, s, pageSize, reposition, maxDuration);
  }

  public DiscoveryRequest withPageSize(int n) {
    return new DiscoveryRequest(filter, stop, n, reposition, maxDuration);
  }

  public DiscoveryRequest withReposition(boolean on) {
    return new DiscoveryRequest(filter, stop, pageSize, on, maxDuration);
  }

  public DiscoveryRequest withMaxDuration(Duration d) {
    return new DiscoveryRequest(filter, stop, pageSize, reposition, d);
  }
}
