package dev.reed.coordinator.ingest;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.RttSample;
import dev.reed.runtime.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves samples from Kafka into the windows. {@code reed.samples} is read in one consumer group so
 * replicas share its partitions (samples are keyed by target, so a target's samples all land on
 * one replica); {@code reed.mesh-samples} is read in full. On every partition assignment the
 * consumer seeks to {@code now - replay} ({@code offsetsForTimes}) and rebuilds the windows from
 * recent samples instead of starting empty; on revocation the partition's targets are dropped
 * (the new owner rebuilds them the same way).
 *
 * <p>Every record is decoded and validated; the bad ones go to {@link DeadLetters} and are
 * counted. Not thread-safe: the round loop owns it and calls {@link #poll} between rounds.
 */
public final class SampleIngest implements AutoCloseable {
  /** Sample records a poll returns at most: fewer means the backlog has been read. */
  public static final int MAX_POLL_RECORDS = 10_000;
  private static final Logger log = LoggerFactory.getLogger(SampleIngest.class);

  /** Ingest counters. */
  public record Counters(long samples, long meshSamples, long deadLettered, long replayedRefusals) {}

  private final KafkaConsumer<byte[], byte[]> samples;
  private final KafkaConsumer<byte[], byte[]> mesh;
  private final TargetWindows targets;
  private final MeshWindows meshWindows;
  /** Only the mesh is read ({@link #startMeshOnly}). */
  private boolean meshOnly;
  private final SampleValidator validator;
  private final DeadLetters deadLetters;
  private final Clock clock;
  private final Duration replay;
  private final java.util.function.Supplier<Map<String, dev.reed.proto.v1.ServerCoordinate>> published;
  private final AtomicLong seeded = new AtomicLong();
  private boolean seededSinceTaken;
  private final AtomicLong sampleCount = new AtomicLong();
  private final AtomicLong meshCount = new AtomicLong();
  private final AtomicLong replayedRefusals = new AtomicLong();
  private final Set<Integer> owned = new java.util.HashSet<>();
  /** Per partition: records below the group's committed offset were handled (and dead-lettered) before. */
  private final Map<Integer, Long> replayUntil = new HashMap<>();

  /** @param kafka the broker and the operator's Kafka settings (TLS, SASL); the ingest's own settings win */
  public SampleIngest(KafkaClients kafka, String groupId, TargetWindows targets, MeshWindows meshWindows,
      SampleValidator validator, DeadLetters deadLetters, Clock clock, Duration replay) {
    this(kafka, groupId, targets, meshWindows, validator, deadLetters, clock, replay, Map::of);
  }

  /**
   * @param published the coordinates every replica's index holds, with the window minima they were
   *     fitted from: the targets of a partition this replica is assigned are seeded from them
   *     ({@link TargetWindows#seed}) before the replay, so a fail-over does not wait for it
   */
  public SampleIngest(KafkaClients kafka, String groupId, TargetWindows targets, MeshWindows meshWindows,
      SampleValidator validator, DeadLetters deadLetters, Clock clock, Duration replay,
      java.util.function.Supplier<Map<String, dev.reed.proto.v1.ServerCoordinate>> published) {
    this.published = published;
    this.targets = targets;
    this.meshWindows = meshWindows;
    this.validator = validator;
    this.deadLetters = deadLetters;
    this.clock = clock;
    this.replay = replay;
    Map<String, Object> p = new HashMap<>();
    p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(MAX_POLL_RECORDS));
    p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, "1");
    p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "600000");
    // a crashed replica's partitions move to the others after 6 s, not the default 45 s: 6 s is the
    // least a broker accepts by default (group.min.session.timeout.ms); the heartbeat has its own
    // thread, so only a JVM stalled for 6 s is taken for dead (at 10 s a SIGKILLed replica's share
    // was served again after 16.5 s at 250,000 x 30, docs/research/scale.md). A survivor hears of
    // the rebalance with its next heartbeat: every second.
    p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000");
    p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000");
    // a replica joining or leaving moves only the partitions it must: the others keep their windows
    p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
    this.samples = kafka.consumer("reed-coordinator-samples", p);
    this.mesh = kafka.consumer("reed-coordinator-mesh", Map.of(
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"));
  }

  /** Subscribes and seeks; call once from the owning thread. */
  public void start() {
    samples.subscribe(List.of(Topic.SAMPLES.name()), new ConsumerRebalanceListener() {
      @Override
      public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        drop(partitions);
      }

      @Override
      public void onPartitionsLost(Collection<TopicPartition> partitions) {
        drop(partitions);
      }

      @Override
      public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) return;
        Map<TopicPartition, OffsetAndMetadata> committed = samples.committed(Set.copyOf(partitions), Duration.ofSeconds(30));
        for (TopicPartition tp : partitions) {
          OffsetAndMetadata c = committed.get(tp);
          replayUntil.put(tp.partition(), c == null ? -1L : c.offset());
        }
        seekToReplay(samples, partitions);
        for (TopicPartition tp : partitions) owned.add(tp.partition());
        int n = seed(partitions);
        log.info("assigned {} sample partitions {}; seeded {} targets from their published minima, replaying the last {}",
            partitions.size(), partitions.stream().map(TopicPartition::partition).sorted().toList(), n, replay);
      }
    });
    assignMesh();
  }

  /**
   * Reads {@code reed.mesh-samples} alone, no share of {@code reed.samples}: a serving replica,
   * whose location model trains on the mesh. Call once, instead of {@link #start}.
   */
  public void startMeshOnly() {
    meshOnly = true;
    assignMesh();
  }

  private void assignMesh() {
    List<TopicPartition> meshPartitions = new ArrayList<>();
    for (PartitionInfo i : mesh.partitionsFor(Topic.MESH_SAMPLES.name(), Duration.ofSeconds(30))) {
      meshPartitions.add(new TopicPartition(i.topic(), i.partition()));
    }
    mesh.assign(meshPartitions);
    seekToReplay(mesh, meshPartitions);
  }

  /** Seeds the targets of newly assigned partitions, found as the producer's default partitioner places their key. */
  private int seed(Collection<TopicPartition> partitions) {
    Map<String, dev.reed.proto.v1.ServerCoordinate> all = published.get();
    if (all.isEmpty()) return 0;
    int count = samples.partitionsFor(Topic.SAMPLES.name(), Duration.ofSeconds(30)).size();
    Set<Integer> assigned = new java.util.HashSet<>();
    for (TopicPartition tp : partitions) assigned.add(tp.partition());
    int n = 0;
    for (String key : all.keySet()) {
      int p = org.apache.kafka.clients.producer.internals.BuiltInPartitioner.partitionForKey(
          key.getBytes(StandardCharsets.UTF_8), count);
      if (!assigned.contains(p)) continue;
      dev.reed.proto.v1.ServerCoordinate c = all.get(key);
      if (c == null || c.getLandmarkRttsCount() == 0) continue;
      if (targets.seed(key, c.getEndpoint(), c.getProtocol(), c.getServerInfo(), c.getRound(), p, c.getLandmarkRttsList())) n++;
    }
    seeded.addAndGet(n);
    if (n > 0) seededSinceTaken = true;
    return n;
  }

  /** Whether targets were seeded since the last call (on the polling thread, like the rebalance). */
  public boolean takeSeeded() {
    boolean s = seededSinceTaken;
    seededSinceTaken = false;
    return s;
  }

  /** Targets seeded from published minima so far. */
  public long seededTargets() {
    return seeded.get();
  }

  private void drop(Collection<TopicPartition> partitions) {
    if (partitions.isEmpty()) return;
    List<Integer> ps = partitions.stream().map(TopicPartition::partition).toList();
    ps.forEach(owned::remove);
    int n = targets.dropPartitions(ps);
    log.info("revoked sample partitions {}: dropped {} targets (the new owner rebuilds them)", ps, n);
  }

  private void seekToReplay(KafkaConsumer<byte[], byte[]> c, Collection<TopicPartition> partitions) {
    long from = clock.millis() - replay.toMillis();
    Map<TopicPartition, Long> query = new HashMap<>();
    for (TopicPartition tp : partitions) query.put(tp, from);
    Map<TopicPartition, OffsetAndTimestamp> offsets = c.offsetsForTimes(query, Duration.ofSeconds(30));
    List<TopicPartition> toEnd = new ArrayList<>();
    for (TopicPartition tp : partitions) {
      OffsetAndTimestamp o = offsets.get(tp);
      if (o == null) toEnd.add(tp);
      else c.seek(tp, o.offset());
    }
    if (!toEnd.isEmpty()) c.seekToEnd(toEnd);
  }

  /** Sample partitions this replica owns now. */
  public Set<Integer> ownedPartitions() {
    return Set.copyOf(owned);
  }

  /** Polls both topics once (the mesh alone after {@link #startMeshOnly}); returns the records handled. */
  public int poll(Duration timeout) {
    targets.setNow(clock.millis());
    int n = 0;
    for (ConsumerRecord<byte[], byte[]> r : mesh.poll(meshOnly ? timeout : Duration.ZERO)) {
      n++;
      handleMesh(r);
    }
    if (meshOnly) return n;
    for (ConsumerRecord<byte[], byte[]> r : samples.poll(timeout)) {
      n++;
      handleSample(r);
    }
    return n;
  }

  /** A refused sample is dead-lettered once: not again when a restart replays it. */
  private void refuse(ConsumerRecord<byte[], byte[]> r, String reason) {
    if (r.offset() < replayUntil.getOrDefault(r.partition(), -1L)) {
      replayedRefusals.incrementAndGet();
      return;
    }
    deadLetters.send(r, reason);
  }

  void handleSample(ConsumerRecord<byte[], byte[]> r) {
    if (r.value() == null) {
      refuse(r, "empty record (no value)");
      return;
    }
    RttSample s;
    try {
      s = RttSample.parseFrom(r.value());
    } catch (InvalidProtocolBufferException e) {
      refuse(r, "undecodable RttSample: " + e.getMessage());
      return;
    }
    String key = r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
    String targetKey = dev.reed.proto.Endpoints.key(s.getTarget());
    String reason = validator.check(s, key, targetKey, targets.get(targetKey) != null);
    if (reason != null) {
      refuse(r, reason);
      return;
    }
    sampleCount.incrementAndGet();
    targets.add(targetKey, s, r.partition());
  }

  void handleMesh(ConsumerRecord<byte[], byte[]> r) {
    if (r.value() == null) {
      deadLetters.send(r, "empty record (no value)");
      return;
    }
    MeshSample s;
    try {
      s = MeshSample.parseFrom(r.value());
    } catch (InvalidProtocolBufferException e) {
      deadLetters.send(r, "undecodable MeshSample: " + e.getMessage());
      return;
    }
    String reason = validator.check(s);
    if (reason != null) {
      deadLetters.send(r, reason);
      return;
    }
    meshCount.incrementAndGet();
    meshWindows.add(s);
  }

  public Counters counters() {
    return new Counters(sampleCount.get(), meshCount.get(), deadLetters.count(), replayedRefusals.get());
  }

  /** Interrupts a blocking poll from another thread. */
  public void wakeup() {
    if (meshOnly) mesh.wakeup();
    else samples.wakeup();
  }

  @Override
  public void close() {
    samples.close(Duration.ofSeconds(2));
    mesh.close(Duration.ofSeconds(2));
  }
}
