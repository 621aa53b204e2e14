package dev.reed.coordinates.autostop;

/** First N_close: trust the order and stop after the first N_close answers. */
final class FirstNClose implements AutoStopPolicy {
  private final int nClose;
  private int probes;
  private int answers;
  private boolean stopped;

  FirstNClose(int nClose) {
    if (nClose < 1) {
      throw new IllegalArgumentException("nClose must be >= 1, got " + nClose);
    }
    this.nClose = nClose;
  }

  @Override
  public boolean observe(double predictedMs, double rttMs) {
    probes++;
    if (Double.isFinite(rttMs)) {
      answers++;
    }
    stopped |= answers >= nClose;
    return stopped;
  }

  @Override
  public boolean stopped() {
    return stopped;
  }

  @Override
  public int probes() {
    return probes;
  }

  @Override
  public String name() {
    return "first(" + nClose + ")";
  }
}
