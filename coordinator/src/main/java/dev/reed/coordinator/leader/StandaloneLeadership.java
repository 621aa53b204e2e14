package dev.reed.coordinator.leader;

/** One replica: it is the leader. */
final class StandaloneLeadership implements LeaderElection {
  @Override
  public boolean isLeader() {
    return true;
  }

  @Override
  public String describe() {
    return "standalone (always leader)";
  }

  @Override
  public void close() {}
}
