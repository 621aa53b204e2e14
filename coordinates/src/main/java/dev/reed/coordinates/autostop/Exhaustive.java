package dev.reed.coordinates.autostop;

/** Traditional discovery: probe everything. */
final class Exhaustive implements AutoStopPolicy {
  private int probes;

  @Override
  public boolean observe(double predictedMs, double rttMs) {
    probes++;
    return false;
  }

  @Override
  public boolean stopped() {
    return false;
  }

  @Override
  public int probes() {
    return probes;
  }

  @Override
  public String name() {
    return "exhaustive";
  }
}
