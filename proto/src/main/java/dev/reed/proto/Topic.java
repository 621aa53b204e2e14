package dev.reed.proto;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The project's Kafka topics (docs/design.md section 2), the one place their names, partitioning and
 * cleanup policies are defined. The embedded broker creates them; production creates them with
 * Strimzi {@code KafkaTopic}s that must match this list.
 *
 * <p>Samples are partitioned by target so coordinator replicas share the positioning work through
 * one consumer group; everything a replica reads in full (mesh samples, coordinates, catalog) is
 * small, and the per-key "latest value" topics are compacted so a restarted replica serves again
 * from them within seconds.
 *
 * @param name Kafka topic name
 * @param partitions partition count
 * @param compacted {@code cleanup.policy=compact} (latest value per key) instead of delete
 * @param retention how long records are kept on a delete-policy topic; ignored when compacted
 */
public record Topic(String name, int partitions, boolean compacted, Duration retention) {

  /** Game-server targets, key = endpoint text form; tombstone = removed. */
  public static final Topic TARGETS = new Topic("reed.targets", 3, true, Duration.ZERO);
  /** Landmark announcements, key = landmark id. */
  public static final Topic LANDMARKS = new Topic("reed.landmarks", 1, true, Duration.ZERO);
  /** Agent-to-server RTT samples, key = target endpoint; the bulk of the traffic. */
  public static final Topic SAMPLES = new Topic("reed.samples", 12, false, Duration.ofDays(1));
  /** Landmark-to-landmark RTT samples, read in full by the leader. */
  public static final Topic MESH_SAMPLES = new Topic("reed.mesh-samples", 1, false, Duration.ofDays(1));
  /** Latest coordinate per server, key = endpoint; tombstone = server gone. */
  public static final Topic COORDINATES = new Topic("reed.coordinates", 6, true, Duration.ZERO);
  /** Latest coordinate per landmark, key = landmark id. */
  public static final Topic LANDMARK_COORDINATES =
      new Topic("reed.landmark-coordinates", 1, true, Duration.ZERO);
  /** Records that could not be decoded or failed validation, with the reason in a header. */
  public static final Topic DEAD_LETTER = new Topic("reed.dead-letter", 1, false, Duration.ofDays(7));

  /**
   * Accepted client reports, one record per report, key = its first group key (a keyed
   * hash of the reporter's network prefix); value = ClientReportRecord, no client address. Every
   * coordinator replica reads it in full; kept 7 days (the in-memory corrections forget sooner).
   */
  public static final Topic CLIENT_REPORTS = new Topic("reed.client-reports", 3, false, Duration.ofDays(7));

  /** Every topic, in the order of docs/design.md section 2. */
  public static final List<Topic> ALL = List.of(TARGETS, LANDMARKS, SAMPLES, MESH_SAMPLES, COORDINATES,
      LANDMARK_COORDINATES, DEAD_LETTER, CLIENT_REPORTS);

  public Topic {
    if (name == null || name.isBlank()) throw new IllegalArgumentException("topic name is blank");
    if (partitions < 1) throw new IllegalArgumentException(name + ": partitions must be >= 1");
  }

  /**
   * Topic-level configuration to create the topic with. A compacted topic rolls its segment every
   * minute: the cleaner never compacts the active segment, and with Kafka's defaults (1 GB, 7 days)
   * it never rolled, so a restarted replica read every coordinate ever published, not the latest
   * per server (about 3 records per server two rounds into a 250,000 x 30 run, docs/research/scale.md).
   * The cleaner merges the small segments again.
   */
  public Map<String, String> configs() {
    return compacted
        ? Map.of("cleanup.policy", "compact", "min.cleanable.dirty.ratio", "0.1", "segment.ms", "60000")
        : Map.of("cleanup.policy", "delete", "retention.ms", Long.toString(retention.toMillis()));
  }
}
