package dev.reed.eval;

/**
 * One client as every baseline sees it, the same client, server list and truth REED had.
 *
 * @param matrix the measured RTTs (what the client would measure to any node)
 * @param client node index
 * @param servers its server list (node indices)
 * @param actual the RTT the client measures to each server (NaN = no reply): the truth
 * @param landmarks the landmark nodes of this seed
 * @param landmarkRtt every node's RTTs as each landmark measured them (by node, then landmark)
 * @param seed the landmark seed (random choices of a method derive from it and the client)
 */
record ClientView(RttMatrix matrix, int client, int[] servers, double[] actual, int[] landmarks, double[][] landmarkRtt, long seed) {

  /** What the client measures when it probes {@code node} (NaN = no reply). */
  double rttTo(int node) {
    return matrix.rtt(client, node);
  }
}
