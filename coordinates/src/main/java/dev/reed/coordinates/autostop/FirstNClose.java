package dev.reed.coordinates.autostop;

/** First N_close: trust the order and stop after the first N_close answers. */
final class FirstNClose extends CountingPolicy {
  private final int nClose;
  private int answers;

  FirstNClose(int nClose) {
    if (nClose < 1) {
      throw new IllegalArgumentException("nClose must be >= 1, got " + nClose);
    }
    this.nClose = nClose;
  }

  @Override
  boolean decide(double predictedMs, double rttMs) {
    if (Double.isFinite(rttMs)) {
      answers++;
    }
    return answers >= nClose;
  }

  @Override
  public String name() {
    return "first(" + nClose + ")";
  }
}
