package dev.reed.coordinates.ranking;

/** A server ranked for a group: its score and each member's predicted RTT (member order). */
public record GroupRanked(ServerEntry server, double scoreMs, double[] memberPredictedMs) {
  public GroupRanked {
    memberPredictedMs = memberPredictedMs.clone();
  }

  @Override
  public double[] memberPredictedMs() {
    return memberPredictedMs.clone();
  }
}
