package dev.reed.cli.scale;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * One step of the scale harness.
 *
 * @param targets game servers T
 * @param landmarks landmark agents L
 * @param round the landmark round (the agents' default is 5 min; a shorter round keeps the work per
 *     round and raises the rate)
 * @param rounds steady rounds measured
 * @param replicas coordinator processes 1-3
 * @param servingReplicas serving replicas ({@code ./reed coordinator --serve-only}) 0-3, with the
 *     replicas' heap and collector; when there are any, the query load goes to them instead of the
 *     ingesting replicas
 * @param replicaHeap -Xms/-Xmx of each replica (e.g. 2g)
 * @param replicaGc the replicas' collector and its options, whitespace-separated JVM options
 * @param coordinatorRound the replicas' --round-interval (embed + position cadence)
 * @param queryRate GetOrderedServers per second while ingest runs (0 = none)
 * @param queryWarmup how long the query load runs unmeasured first
 * @param pageSize servers per page
 * @param timeoutRate share of probes that time out
 * @param killAndRestart SIGKILL a replica after the steady rounds and start it again
 * @param bootstrap an existing broker, or null for an embedded one
 * @param out where the report, plots, logs and (embedded) broker data go
 */
record ScaleSettings(int targets, int landmarks, Duration round, int rounds, int replicas, int servingReplicas, String replicaHeap, String replicaGc,
    Duration coordinatorRound, double queryRate, Duration queryWarmup, int pageSize, double timeoutRate, boolean killAndRestart,
    String bootstrap, Path out) {

  ScaleSettings {
    if (targets < 1 || targets > (1 << 20)) throw new IllegalArgumentException("--targets must be 1-1048576: " + targets);
    if (landmarks < 6 || landmarks > 64) {
      throw new IllegalArgumentException("--landmarks must be 6-64 (a 4-D embedding needs D+2): " + landmarks);
    }
    if (rounds < 1) throw new IllegalArgumentException("--rounds must be >= 1: " + rounds);
    if (replicas < 1 || replicas > 3) throw new IllegalArgumentException("--replicas must be 1-3: " + replicas);
    if (servingReplicas < 0 || servingReplicas > 3) {
      throw new IllegalArgumentException("--serving-replicas must be 0-3: " + servingReplicas);
    }
    if (round.toMillis() < 1000) throw new IllegalArgumentException("--round-seconds must be >= 1");
    if (queryRate < 0) throw new IllegalArgumentException("--query-rate must be >= 0: " + queryRate);
    if (pageSize < 1 || pageSize > 1000) throw new IllegalArgumentException("--page-size must be 1-1000: " + pageSize);
    if (!(timeoutRate >= 0 && timeoutRate < 1)) throw new IllegalArgumentException("--timeouts must be in [0, 1): " + timeoutRate);
    if (!replicaHeap.matches("[0-9]+[mMgG]")) throw new IllegalArgumentException("--replica-heap like 512m or 2g: " + replicaHeap);
    List<String> gc = jvmOptions(replicaGc);
    if (gc.isEmpty() || !gc.stream().allMatch(o -> o.startsWith("-XX:") || o.startsWith("-Xmn") || o.startsWith("-Xlog:"))) {
      throw new IllegalArgumentException("--replica-gc takes -XX:, -Xmn and -Xlog: options, e.g. -XX:+UseParallelGC: " + replicaGc);
    }
  }

  /**
   * The replicas' --replay: the window's W rounds of this feed and one more, as the default 45 min
   * is for the agents' 5-minute rounds. Replaying 45 min of 60 s rounds re-read every sample since
   * the start after a fail-over (docs/research/scale.md).
   */
  Duration replay() {
    return round.multipliedBy(dev.reed.coordinator.CoordinatorConfig.Rounds.DEFAULT.window() + 1L);
  }

  /** {@link #replicaGc} split into JVM options. */
  List<String> replicaGcOptions() {
    return jvmOptions(replicaGc);
  }

  private static List<String> jvmOptions(String spaced) {
    return Arrays.stream(spaced.trim().split("\\s+")).filter(o -> !o.isEmpty()).toList();
  }

  /** Samples per second the feed offers: T x L per round. */
  double offeredRate() {
    return (double) targets * landmarks / (round.toMillis() / 1000.0);
  }
}
