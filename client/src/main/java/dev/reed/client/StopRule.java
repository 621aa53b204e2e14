package dev.reed.client;

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
   * {@code window} consecutive probes that did not.
   */
  record IntelligentClose(int nClose, int window) implements StopRule {
    public IntelligentClose {
      requirePositive(nClose, "nClose");
      requirePositive(window, "window");
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

  /** Intelligent N_close with a window of 20 probes. */
  static IntelligentClose intelligent(int nClose) {
    return new IntelligentClose(nClose, 20);
  }

  static RttStop rttStop(double rttStopMs) {
    return new RttStop(rttStopMs, 100);
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
    if (!(v > 0) || v > 998.999) throw new IllegalArgumentException(name + " must be in (0, 998.999] ms: " + v);
  }
}
