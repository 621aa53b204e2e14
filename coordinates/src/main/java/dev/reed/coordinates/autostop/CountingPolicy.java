package dev.reed.coordinates.autostop;

/**
 * What every policy keeps the same way: the probes observed and whether it has said stop, which is
 * final. A policy decides from each probe ({@link #decide}) or before it ({@link #stopBefore}).
 */
abstract class CountingPolicy implements AutoStopPolicy {
  private int probes;
  private boolean stopped;

  @Override
  public final boolean observe(double predictedMs, double rttMs) {
    probes++;
    if (!stopped) {
      stopped = decide(predictedMs, rttMs);
    }
    return stopped;
  }

  /**
   * The verdict after one more probe ({@link #probes()} already counts it); asked until it says stop.
   *
   * @param rttMs the measured RTT, or {@link AutoStopPolicy#NO_REPLY}
   */
  abstract boolean decide(double predictedMs, double rttMs);

  /** Says stop from now on (for verdicts reached before a probe). */
  final void stop() {
    stopped = true;
  }

  @Override
  public final boolean stopped() {
    return stopped;
  }

  @Override
  public final int probes() {
    return probes;
  }
}
