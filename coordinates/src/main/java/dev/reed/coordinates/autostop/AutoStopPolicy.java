package dev.reed.coordinates.autostop;

/**
 * When a REED client stops probing the ordered list (Armitage &amp; Heyde 2011, section 4.3). A
 * policy is stateful and belongs to one discovery session: create a fresh one per search. The
 * client asks {@link #stopBefore(double)} before each probe and reports each result with
 * {@link #observe(double, double)} in probe order.
 *
 * <p>The player picks the trade-off: {@link #exhaustive()} is traditional discovery;
 * {@link #rttLimit(double, double)} probes everything predicted within RTT_limit + delta (4.3.2);
 * {@link #rttStop(double, int)} is Algorithm 5; {@link #firstNClose(int)} and
 * {@link #intelligentNClose(int, int)} (Algorithm 6) look for the N_close closest servers.
 */
public interface AutoStopPolicy {

  /** RTT of a probe that got no answer (paper 4.1: 999 means no answer). */
  double NO_REPLY = Double.NaN;

  /**
   * Reports one probe.
   *
   * @param predictedMs the server's predicted RTT (NaN when unknown)
   * @param rttMs the measured RTT, or {@link #NO_REPLY}
   * @return true when probing should stop now
   */
  boolean observe(double predictedMs, double rttMs);

  /** True when the next server, predicted at {@code nextPredictedMs}, should not be probed at all. */
  default boolean stopBefore(double nextPredictedMs) {
    return stopped();
  }

  /** True once the policy has said stop. */
  boolean stopped();

  /** Probes observed so far. */
  int probes();

  /** Short name for reports, e.g. "intelligent(10,20)". */
  String name();

  /** Traditional discovery: never stops (the list runs out). */
  static AutoStopPolicy exhaustive() {
    return new Exhaustive();
  }

  /** Stops once {@code nClose} servers have answered. */
  static AutoStopPolicy firstNClose(int nClose) {
    return new FirstNClose(nClose);
  }

  /**
   * Algorithm 6: keeps the {@code nClose} lowest RTTs seen; stops once {@code window} consecutive
   * answered-or-not probes have not changed that set (after it is full).
   */
  static AutoStopPolicy intelligentNClose(int nClose, int window) {
    return new IntelligentNClose(nClose, window, 0);
  }

  /**
   * Algorithm 6 with a margin: once the set is full, a probe that improves it by no more than
   * {@code marginMs} (the RTT it replaces minus its own) enters the set without restarting the
   * window. 0 is {@link #intelligentNClose(int, int)}.
   */
  static AutoStopPolicy intelligentNClose(int nClose, int window, double marginMs) {
    return new IntelligentNClose(nClose, window, marginMs);
  }

  /**
   * Algorithm 5: stops once the 2nd percentile of the last {@code window} probes' RTTs exceeds
   * {@code rttStopMs} (unanswered probes count as infinitely far): even the best of the recent
   * probes are unplayable, so the rest of the list (further away) will be too. Paper: window 100.
   */
  static AutoStopPolicy rttStop(double rttStopMs, int window) {
    return new RttStop(rttStopMs, window, 0.02);
  }

  /**
   * Section 4.3.2: probes every server predicted within {@code rttLimitMs + deltaMs}; delta absorbs
   * the estimation error, so servers predicted slightly too far are still probed.
   */
  static AutoStopPolicy rttLimit(double rttLimitMs, double deltaMs) {
    return new RttLimitDelta(rttLimitMs, deltaMs);
  }
}
