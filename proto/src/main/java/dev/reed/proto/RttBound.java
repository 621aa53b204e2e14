package dev.reed.proto;

/**
 * The largest RTT a sample, a measurement or a limit may carry. REED section 4.1: a probe
 * answers in 0-998 ms, and the paper's 999 ms means "no answer", which the wire says with
 * {@code PROBE_STATUS_TIMEOUT}, never with a number. Agents cap what they publish at it, the
 * coordinator rejects anything above it, and the client's limits stop there.
 */
public final class RttBound {
  /** 998,999 us: the last microsecond of 998 ms. */
  public static final int MAX_US = 998_999;
  /** {@link #MAX_US} in milliseconds (998.999). */
  public static final double MAX_MS = MAX_US / 1000.0;

  private RttBound() {}
}
