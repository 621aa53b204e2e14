package dev.reed.coordinates.clustering;

import java.util.Objects;

/**
 * Parameters of {@link ClusterOrder}.
 *
 * @param probesPerCluster servers sampled per cluster before the clusters are ranked (the first
 *     ones of the cluster in list order; a smaller cluster is sampled whole). The papers probe "a
 *     subset" of each cluster; 2 is this project's default since the evaluator's first clustering
 *     baseline: one sample is a coin toss when a cluster's servers differ, more cost probes in
 *     every one of hundreds of clusters.
 * @param statistic how a cluster's samples become its rank
 */
public record ClusterConfig(int probesPerCluster, Statistic statistic) {

  /** Upper bound of {@link #probesPerCluster}: beyond this the samples are the discovery. */
  public static final int MAX_PROBES_PER_CLUSTER = 64;

  /**
   * A cluster's rank from the RTTs of its samples that replied (a cluster none of whose samples
   * replied comes after every measured one, in list order).
   */
  public enum Statistic {
    /**
     * The lowest sample (default). Servers of one AS or country share the path to it; the lowest
     * sample is the one least inflated by a busy server or a queue, the reason REED keeps the
     * minimum of a landmark's window (paper 5.1.1). It also ranks a cluster by its best server,
     * which is what a player looking for near servers wants first.
     */
    MIN,
    /**
     * The median sample (the mean of the middle two for an even count): less swayed by one
     * sample that happens to be near in a cluster that is mostly far (a country spanning a
     * continent, the unknown cluster).
     */
    MEDIAN
  }

  public ClusterConfig {
    if (probesPerCluster < 1 || probesPerCluster > MAX_PROBES_PER_CLUSTER) {
      throw new IllegalArgumentException("probesPerCluster must be 1-" + MAX_PROBES_PER_CLUSTER + ": " + probesPerCluster);
    }
    Objects.requireNonNull(statistic, "statistic");
  }

  /** 2 probes per cluster, ranked by the lowest sample. */
  public static ClusterConfig defaults() {
    return new ClusterConfig(2, Statistic.MIN);
  }
}
