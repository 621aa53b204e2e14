package dev.reed.coordinates.ranking;

/**
 * A server and its predicted RTT from the querying client (ms).
 *
 * @param position the server's position in the {@link RankingIndex} that ranked it (its k-d tree
 *     order, {@link RankingIndex#entry}), so a caller can keep per-server data in arrays in that
 *     order instead of looking each server up by key; -1 when not ranked by an index
 */
public record Ranked(ServerEntry server, double predictedMs, int position) {
  /** A ranked server that no index produced. */
  public Ranked(ServerEntry server, double predictedMs) {
    this(server, predictedMs, -1);
  }
}
