package dev.reed.coordinates.autostop;

/** Traditional discovery: probe everything. */
final class Exhaustive extends CountingPolicy {

  @Override
  boolean decide(double predictedMs, double rttMs) {
    return false;
  }

  @Override
  public String name() {
    return "exhaustive";
  }
}
