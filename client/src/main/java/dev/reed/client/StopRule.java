package dev.reed.client;

import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.proto.RttBound;

/**
 * When discovery stops probing (REED section 4.3; the player picks the trade-off between probes
 * and completeness). Evaluated in probe order by the policies of
 * {@code dev.reed.coordinates.autostop}, the same code the evaluation harness measures.
 */
public sealed interface StopRule {

  /** First N_close: trust the order and stop once {@code nClose} servers have answered. */
  record FirstClose(int nClose) implements StopRule {
    public FirstClose {
      requirePositive(nClose, "nClose");
    }
  }

  /**
   * Intelligent N_close (Algorithm 6): the order is only approximately right, so keep probing
   * while probes still improve the set of the {@code nClose} lowest RTTs; stop after
   * {@code window} consecutive probes that did not. With {@code marginMs} > 0, an improvement by
   * no more than that (the RTT pushed out of the set minus the new one) does not restart the
   * window: fewer probes for a set a fraction of a millisecond worse (docs/research/stopping.md: on planetlab490, 2 ms saved 3.2 of 51.6 probes for +0.04 ms mean RTT). 0 is the
   * paper's rule.
   */
  record IntelligentClose(int nClose, int window, double marginMs) implements StopRule {
    public IntelligentClose {
      requirePositive(nClose, "nClose");
      requirePositive(window, "window");
      if (!(marginMs >= 0) || Double.isInfinite(marginMs)) {
        throw new IllegalArgumentException("marginMs must be finite and >= 0: " + marginMs);
      }
    }

    /** The paper's rule: every improvement restarts the window. */
    public IntelligentClose(int nClose, int window) {
      this(nClose, window, 0);
    }
  }

  /** RTT_stop (Algorithm 5; the paper's window is 100): stop once the 2nd percentile of the last {@code window} RTTs exceeds {@code rttStopMs}. */
  record RttStop(double rttStopMs, int window) implements StopRule {
    public RttStop {
      requireMs(rttStopMs, "rttStopMs");
      requirePositive(window, "window");
    }
  }

  /** RTT_limit + delta (section 4.3.2): list only servers predicted within limit + delta, probe them all. */
  record RttLimit(double limitMs, double deltaMs) implements StopRule {
    public RttLimit {
      requireMs(limitMs, "limitMs");
      if (!(deltaMs >= 0) || Double.isInfinite(deltaMs)) throw new IllegalArgumentException("deltaMs must be >= 0: " + deltaMs);
    }
  }

  /** Probe every listed server (what traditional discovery does). */
  record Exhaustive() implements StopRule {}

  static FirstClose first(int nClose) {
    return new FirstClose(nClose);
  }

  /** Intelligent N_close with the default model's window (20 probes) and margin (0). */
  static IntelligentClose intelligent(int nClose) {
    return intelligent(nClose, DiscoveryModel.defaults());
  }

  /** Intelligent N_close with {@code model}'s window and margin. */
  static IntelligentClose intelligent(int nClose, DiscoveryModel model) {
    return new IntelligentClose(nClose, model.intelligentWindow(), model.windowMarginMs());
  }

  /** RTT_stop with the default model's window (100, the paper's). */
  static RttStop rttStop(double rttStopMs) {
    return rttStop(rttStopMs, DiscoveryModel.defaults());
  }

  /** RTT_stop with {@code model}'s window. */
  static RttStop rttStop(double rttStopMs, DiscoveryModel model) {
    return new RttStop(rttStopMs, model.rttStopWindow());
  }

  /** RTT_limit with {@code model}'s delta. */
  static RttLimit rttLimit(double limitMs, DiscoveryModel model) {
    return new RttLimit(limitMs, model.rttLimitDeltaMs());
  }

  static RttLimit rttLimit(double limitMs, double deltaMs) {
    return new RttLimit(limitMs, deltaMs);
  }

  static Exhaustive exhaustive() {
    return new Exhaustive();
  }

  private static void requirePositive(int v, String name) {
    if (v < 1) throw new IllegalArgumentException(name + " must be >= 1: " + v);
  }

  private static void requireMs(double v, String name) {
    if (!(v > 0) || v > RttBound.MAX_MS) throw new IllegalArgumentException(name + " must be in (0, " + RttBound.MAX_MS + "] ms: " + v);
  }
}
