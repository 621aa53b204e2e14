package dev.reed.coordinator.index.write;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.DecodedServer;
import dev.reed.coordinator.index.read.LandmarkNumbers;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.index.read.StateServers;
import dev.reed.coordinator.index.store.ChunkUsage;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.coordinates.ranking.ServerAttributes;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.IntegrityKind;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.Target;
import dev.reed.runtime.KafkaClients;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the small compacted topics in full (reed.coordinates, reed.landmark-coordinates,
 * reed.landmarks, reed.targets) and keeps a {@link ServingState} that queries read through one
 * volatile reference (docs/design.md section 2: every replica holds the full coordinate index). A
 * restarted replica serves from these topics as soon as it has read them to the end, seconds
 * after start, long before its windows are rebuilt; with a local {@link IndexCheckpoint} it serves
 * the checkpoint once the small topics are read, and reads the coordinate records written after it
 * in the background.
 *
 * <p>Records that cannot be decoded or carry invalid coordinates are counted and skipped here;
 * they never reach the index. The state is rebuilt at most every {@code rebuildEvery}.
 */
public final class IndexFeed implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(IndexFeed.class);
  private static final List<String> TOPICS = List.of(Topic.COORDINATES.name(), Topic.LANDMARK_COORDINATES.name(),
      Topic.LANDMARKS.name(), Topic.TARGETS.name());

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final int dimensions;
  private final boolean heightModel;
  private final Clock clock;
  private final Duration rebuildEvery;
  private final AtomicReference<ServingState> state;
  private final FeedServers servers;
  /** Shared by the decoder threads while catching up. */
  private final Map<String, String> names = new ConcurrentHashMap<>();
  /** Shared like the names; ServerAttributes is a record, equal when its fields are. */
  private final Map<ServerAttributes, ServerAttributes> attributes = new ConcurrentHashMap<>();
  /** Most names, and most sets of attributes, each pool shares. */
  private static final int MAX_SHARED = 65_536;
  /** Coordinate records per decoding task when the catch-up's newest records are decoded. */
  private static final int DECODE_CHUNK = 5_000;
  private final LandmarkNumbers landmarkNumbers = new LandmarkNumbers();
  private final Map<String, LandmarkCoordinate> landmarkCoordinates = new HashMap<>();
  private final Map<String, Landmark> announcements = new ConcurrentHashMap<>();
  private final Map<String, Target> targets = new HashMap<>();
  /** What the last state holds of the small topics, copied again only when they changed. */
  private ServingState.EpochLandmarks epochLandmarks; // set by the first rebuild: landmarksChanged starts true
  private Map<String, Landmark> announced = Map.of();
  private Map<String, Target> catalog = Map.of();
  private boolean landmarksChanged = true;
  private boolean announcementsChanged = true;
  private boolean targetsChanged = true;
  private final AtomicLong invalid = new AtomicLong();
  private final AtomicLong records = new AtomicLong();
  private final AtomicLong rebuilds = new AtomicLong();
  /** The current state's servers per integrity verdict, by {@link IntegrityKind#ordinal()}. */
  private volatile long[] integrityKinds = new long[IntegrityKind.values().length];
  /** The template chunks at the current state's build: the feed thread writes them, a scrape reads this. */
  private volatile ChunkUsage templateChunks = ChunkUsage.NONE;
  /** The current state's servers, what a checkpoint of it writes; feed thread only. */
  private StateServers stateServers;
  private final CountDownLatch caughtUp = new CountDownLatch(1);
  private final Thread thread;
  /**
   * Decodes the newest coordinate record of every server once the feed has read to the end: all
   * cores (the feed thread waits). Afterwards the feed thread decodes the few new records itself.
   */
  private final ExecutorService decoder = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(),
      Thread.ofPlatform().name("index-decode-", 0).priority(Thread.NORM_PRIORITY).daemon().factory());
  private final Checkpoints checkpoints;
  /** The checkpoint file, null for none. */
  private final IndexCheckpoint checkpoint;
  /** Writes checkpoints off the feed thread, one at a time, at the lowest priority. */
  private final ExecutorService checkpointWriter = Executors.newSingleThreadExecutor(
      Thread.ofPlatform().name("index-checkpoint").priority(Thread.MIN_PRIORITY).daemon().factory());
  private volatile boolean writingCheckpoint;
  private volatile boolean closed;
  private volatile Runnable onRebuild = () -> { };

  /**
   * Local checkpoints of the index ({@link IndexCheckpoint}).
   *
   * @param file where the checkpoint is; null = none
   * @param every how often one is written once the feed has caught up
   * @param serveWithin a checkpoint at most this old is served as soon as the small topics are read,
   *     while the coordinate records written after it are still being read (they follow within
   *     seconds); an older one only seeds the catch-up, which then reads to the topic's end first
   */
  public record Checkpoints(Path file, Duration every, Duration serveWithin) {
    public static final Checkpoints NONE = new Checkpoints(null, Duration.ofMinutes(1), Duration.ofMinutes(10));

    public Checkpoints {
      if (every.isNegative() || every.isZero()) throw new IllegalArgumentException("checkpoint interval must be > 0: " + every);
      if (serveWithin.isNegative()) throw new IllegalArgumentException("serve-within must be >= 0: " + serveWithin);
    }
  }

  /** @param kafka the broker and the operator's Kafka settings (TLS, SASL); the feed's own settings win */
  public IndexFeed(KafkaClients kafka, int dimensions, boolean heightModel, Clock clock, Duration rebuildEvery) {
    this(kafka, dimensions, heightModel, clock, rebuildEvery, Checkpoints.NONE);
  }

  /** @param kafka the broker and the operator's Kafka settings (TLS, SASL); the feed's own settings win */
  public IndexFeed(KafkaClients kafka, int dimensions, boolean heightModel, Clock clock, Duration rebuildEvery,
      Checkpoints checkpoints) {
    this.checkpoints = checkpoints;
    this.checkpoint = checkpoints.file() == null ? null : new IndexCheckpoint(checkpoints.file());
    this.dimensions = dimensions;
    this.servers = new FeedServers(dimensions);
    this.heightModel = heightModel;
    this.clock = clock;
    this.rebuildEvery = rebuildEvery;
    this.state = new AtomicReference<>(ServingState.empty(dimensions, heightModel, clock.instant()));
    this.consumer = kafka.consumer("reed-coordinator-index", Map.of(
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000"));
    this.thread = Thread.ofPlatform().name("index-feed").daemon().unstarted(this::run);
  }

  /** Starts reading; {@link #awaitCaughtUp} tells when the topics have been read to their end once. */
  public IndexFeed start() {
    thread.start();
    return this;
  }

  /** Called (on the feed thread) after every new state is published. */
  public void onRebuild(Runnable r) {
    this.onRebuild = r;
  }

  public boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
    return caughtUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public boolean caughtUp() {
    return caughtUp.getCount() == 0;
  }

  public ServingState current() {
    return state.get();
  }

  /** Landmark ids announced on reed.landmarks so far (updated per record, not per rebuild). */
  public Set<String> knownLandmarks() {
    return announcements.keySet();
  }

  public long invalidRecords() {
    return invalid.get();
  }

  public long recordsRead() {
    return records.get();
  }

  public long rebuilds() {
    return rebuilds.get();
  }

  private void run() {
    try {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String t : TOPICS) {
        List<PartitionInfo> infos = consumer.partitionsFor(t, Duration.ofSeconds(30));
        for (PartitionInfo i : infos) partitions.add(new TopicPartition(t, i.partition()));
      }
      consumer.assign(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      boolean dirty = true;
      long lastBuild = 0;
      long buildMillis = 0;
      long lastCheckpoint = clock.millis();
      Built built = null;
      long checkpointed = -1; // the build last written (a number: a state kept here would keep its whole index alive)
      // until caught up, only the newest coordinate record of each server is kept, undecoded, and
      // all are decoded once at the end: a restart reads 1.2-1.8 records per server (the compacted
      // topic's head is not cleaned yet), and decoding (a parse and a template each) was most of its
      // time (restart at 250,000 x 30: docs/research/scale.md). Compaction would leave the same.
      Map<String, ConsumerRecord<byte[], byte[]>> newest = new HashMap<>();
      long started = System.nanoTime();
      // the coordinate partitions a served checkpoint lets the catch-up leave unread, and their ends
      Map<TopicPartition, Long> tail = seek(partitions, end);
      int seeded = servers.size();
      long readNanos = 0;
      while (!closed) {
        ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(100));
        List<ConsumerRecord<byte[], byte[]>> coordinates = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : batch) {
          records.incrementAndGet();
          if (!r.topic().equals(Topic.COORDINATES.name())) dirty |= apply(r);
          else if (caughtUp() && tail.isEmpty()) coordinates.add(r);
          else newest.put(key(r), r);
        }
        if (!coordinates.isEmpty()) {
          applyDecoded(decode(coordinates, this::heldKey));
          dirty = true;
        }
        boolean atEnd = caughtUp() || end.entrySet().stream()
            .allMatch(e -> tail.containsKey(e.getKey()) || consumer.position(e.getKey()) >= e.getValue());
        if (atEnd && !caughtUp()) {
          readNanos = System.nanoTime() - started;
          decodeNewest(newest.values());
          newest = new HashMap<>();
          dirty = true;
        }
        // the records written after a served checkpoint are read like a catch-up's (each server's
        // newest, decoded at the end on all cores): one at a time on the feed thread, 411,000 took 28 s
        // beside a survivor's take-over at 250,000 x 30 (docs/research/scale.md)
        if (caughtUp() && !tail.isEmpty() && tail.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
          long t0 = System.nanoTime();
          int n = newest.size();
          decodeNewest(newest.values());
          newest = new HashMap<>();
          tail.clear();
          toBackground();
          dirty = true;
          lastBuild = 0;
          log.info("index read the coordinate records written after its checkpoint {} ms after the feed started: {} "
              + "records read in all, the newest of {} servers decoded in {} ms", (System.nanoTime() - started) / 1_000_000,
              records.get(), n, (System.nanoTime() - t0) / 1_000_000);
        }
        long now = clock.millis();
        // a rebuild puts every server into a new ranking index (250,000 servers: 0.2 s warm in
        // IndexBuildBenchmark, 1.8 s cold on the loaded VM after a restart), so at most every 3 rebuild
        // durations, or the feed spends its time rebuilding instead of reading (it fell 70,000 servers
        // behind at 250,000 x 30 when it rebuilt after every batch: docs/research/scale.md)
        if (dirty && atEnd && (now - lastBuild >= Math.max(rebuildEvery.toMillis(), 3 * buildMillis) || !caughtUp())) {
          long t0 = System.nanoTime();
          rebuild();
          buildMillis = (System.nanoTime() - t0) / 1_000_000;
          lastBuild = now;
          dirty = false;
          // a build comes only at the end of what was read (atEnd); without a tail held undecoded
          // the state holds every record read, and these offsets are the state's
          if (tail.isEmpty() && checkpoint != null) built = built(partitions);
        }
        // from the last build, not the next: builds come every 3 build durations, up to 18 s apart
        // while a survivor takes over, and the checkpoint is what a restart has to read after it
        if (built != null && now - lastCheckpoint >= checkpoints.every().toMillis() && !writingCheckpoint
            && built.build() != checkpointed) {
          lastCheckpoint = now;
          checkpointed = built.build();
          writeCheckpoint(built.state(), built.servers(), built.offsets());
        }
        if (atEnd && !caughtUp()) {
          consumer.resume(consumer.paused());
          caughtUp.countDown();
          if (tail.isEmpty()) toBackground();
          ServingState s = state.get();
          log.info("index caught up: {} records read{} in {} ms, decoded and applied {} ms later, index built in {} ms: "
              + "{} servers, {} landmarks (epoch {}), {} targets, {} invalid records skipped", records.get(),
              seeded == 0 ? "" : " after " + seeded + " servers from the checkpoint"
                  + (tail.isEmpty() ? "" : " (the coordinate records written since follow)"),
              readNanos / 1_000_000, (System.nanoTime() - started - readNanos) / 1_000_000 - buildMillis, buildMillis,
              s.servers().size(), s.landmarks().size(), s.landmarkEpoch(), s.targets().size(), invalid.get());
        }
      }
    } catch (WakeupException e) {
      if (!closed) throw e;
    } catch (RuntimeException e) {
      log.error("index feed stopped: {}", e.toString(), e);
    } finally {
      consumer.close(Duration.ofSeconds(2));
    }
  }

  /**
   * One String per game and map name: a server's attributes are parsed anew with every coordinate,
   * which made two String copies per server of names most servers share.
   */
  private String shared(String name) {
    return interned(names, name);
  }

  /**
   * One instance per set of equal attributes: servers of a game share their name, map and slot
   * count, and a new instance per server and round was one more object young collections copy.
   */
  private ServerAttributes sharedAttributes(ServerAttributes a) {
    return interned(attributes, a);
  }

  /** The instance {@code pool} holds equal to {@code v}; bounded: beyond {@value #MAX_SHARED} values, {@code v} itself. */
  private static <T> T interned(Map<T, T> pool, T v) {
    T s = pool.get(v);
    if (s != null) return s;
    return pool.size() < MAX_SHARED ? pool.computeIfAbsent(v, x -> x) : v;
  }

  private boolean apply(ConsumerRecord<byte[], byte[]> r) {
    String key = key(r);
    byte[] v = r.value();
    try {
      switch (r.topic()) {
        case "reed.landmark-coordinates" -> {
          if (v == null) {
            landmarkCoordinates.remove(key);
          } else {
            LandmarkCoordinate c = LandmarkCoordinate.parseFrom(v);
            CoordinateCodec.fromProto(c.getCoordinate(), dimensions, "coordinate of landmark " + key);
            landmarkCoordinates.put(key, c);
          }
          landmarksChanged = true;
        }
        case "reed.landmarks" -> {
          if (v == null) announcements.remove(key);
          else announcements.put(key, Landmark.parseFrom(v));
          announcementsChanged = true;
        }
        case "reed.targets" -> {
          if (v == null) targets.remove(key);
          else targets.put(key, Target.parseFrom(v));
          targetsChanged = true;
        }
        default -> {
          return false;
        }
      }
      return true;
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      skipped(r, e);
      return false;
    }
  }

  /**
   * Positions the consumer: the small topics at their beginning, reed.coordinates after the
   * checkpoint when there is a usable one (whose servers and landmark numbers the feed then starts
   * from), else at its beginning.
   *
   * @return the coordinate partitions the catch-up need not read to their end (the checkpoint is
   *     served first), with their end offsets; empty otherwise
   */
  private Map<TopicPartition, Long> seek(List<TopicPartition> partitions, Map<TopicPartition, Long> end) {
    consumer.seekToBeginning(partitions);
    if (checkpoint == null) return new HashMap<>();
    IndexCheckpoint.Contents c;
    long t0 = System.nanoTime();
    try {
      c = checkpoint.read(this::shared, this::sharedAttributes).orElse(null);
    } catch (IOException e) {
      log.warn("index checkpoint {} not used ({}): reading reed.coordinates from its beginning", checkpoint.file(), e.getMessage());
      return new HashMap<>();
    }
    if (c == null) {
      log.info("no index checkpoint at {} yet: reading reed.coordinates from its beginning", checkpoint.file());
      return new HashMap<>();
    }
    if (c.dimensions() != dimensions || c.heightModel() != heightModel) {
      log.warn("index checkpoint {} not used: written for {} dimensions{}, this replica has {}{}; reading reed.coordinates "
          + "from its beginning", checkpoint.file(), c.dimensions(), c.heightModel() ? " and heights" : "", dimensions,
          heightModel ? " and heights" : "");
      return new HashMap<>();
    }
    Map<TopicPartition, Long> from = new HashMap<>();
    for (TopicPartition tp : partitions) {
      if (!tp.topic().equals(Topic.COORDINATES.name())) continue;
      Long offset = c.offsets().get(tp.partition());
      if (offset == null) continue; // a partition added since: read from its beginning
      if (offset > end.get(tp)) {
        log.warn("index checkpoint {} not used: it read partition {} to offset {}, beyond the topic's end {} (another "
            + "topic or cluster); reading reed.coordinates from its beginning", checkpoint.file(), tp.partition(), offset, end.get(tp));
        return new HashMap<>();
      }
      from.put(tp, offset);
    }
    // the feed numbers nothing before this, so the checkpoint's landmarks get their old numbers back
    for (String id : c.landmarkIds()) landmarkNumbers.number(id);
    if (!landmarkNumbers.table().equals(c.landmarkIds())) {
      throw new IllegalStateException("landmarks were numbered before the checkpoint was read");
    }
    from.forEach(consumer::seek);
    c.servers().values().forEach(servers::put);
    long newer = from.entrySet().stream().mapToLong(e -> end.get(e.getKey()) - e.getValue()).sum();
    Duration age = Duration.between(c.writtenAt(), clock.instant());
    boolean serveFirst = age.compareTo(checkpoints.serveWithin()) <= 0;
    log.info("index checkpoint {}: {} servers as of {} ({} s ago), read in {} ms; {} the {} coordinate records written since",
        checkpoint.file(), c.servers().size(), c.writtenAt(), Math.max(0, age.toSeconds()), (System.nanoTime() - t0) / 1_000_000,
        serveFirst ? "serving it while reading" : "reading, before serving,", newer);
    Map<TopicPartition, Long> tail = new HashMap<>();
    if (serveFirst) {
      from.keySet().forEach(tp -> tail.put(tp, end.get(tp)));
      // not read until the checkpoint is served: their records would otherwise be read (60,000 at
      // 250,000 x 30, most of the partitions' fetches) and decoded before it (docs/research/scale.md)
      consumer.pause(tail.keySet());
    }
    return tail;
  }

  /**
   * The state the feed last built, its servers, its number and, per reed.coordinates partition, the
   * offset it had read to.
   */
  private record Built(ServingState state, StateServers servers, long build, Map<Integer, Long> offsets) {}

  /** The current state, which holds every record read so far. */
  private Built built(List<TopicPartition> partitions) {
    Map<Integer, Long> offsets = new HashMap<>();
    for (TopicPartition tp : partitions) {
      if (tp.topic().equals(Topic.COORDINATES.name())) offsets.put(tp.partition(), consumer.position(tp));
    }
    return new Built(state.get(), stateServers, rebuilds.get(), offsets);
  }

  /** Writes a checkpoint of {@code s}, which holds every coordinate record before {@code offsets}, on the writer thread. */
  private void writeCheckpoint(ServingState s, StateServers servers, Map<Integer, Long> offsets) {
    writingCheckpoint = true;
    checkpointWriter.execute(() -> {
      long t0 = System.nanoTime();
      try {
        checkpoint.write(new IndexCheckpoint.Contents(s.builtAt(), dimensions, heightModel, offsets, s.landmarkIds(),
            servers));
        log.info("index checkpoint written to {}: {} servers, {} MB, in {} ms", checkpoint.file(), servers.size(),
            Files.size(checkpoint.file()) >> 20, (System.nanoTime() - t0) / 1_000_000);
      } catch (IOException | RuntimeException e) {
        log.warn("index checkpoint to {} failed: {}", checkpoint.file(), e.toString());
      } finally {
        writingCheckpoint = false;
      }
    });
  }

  /** Caught up with everything there was to read: the feed is background work from now on. */
  private void toBackground() {
    decoder.shutdown();
    // queries come first (coordinator README, "Pipeline details")
    Thread.currentThread().setPriority(Thread.MIN_PRIORITY);
  }

  /** A coordinate record decoded: the server, or null for a tombstone. */
  private record Decoded(String key, DecodedServer server) {}

  private void applyDecoded(List<Decoded> decoded) {
    for (Decoded d : decoded) {
      if (d.server() == null) servers.remove(d.key());
      else servers.put(d.server());
    }
  }

  /** Decodes the catch-up's newest record of each server on the decoder threads, and applies them. */
  private void decodeNewest(Collection<ConsumerRecord<byte[], byte[]>> newest) {
    List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>(newest);
    List<CompletableFuture<List<Decoded>>> parts = new ArrayList<>();
    for (int from = 0; from < all.size(); from += DECODE_CHUNK) {
      List<ConsumerRecord<byte[], byte[]>> chunk = all.subList(from, Math.min(all.size(), from + DECODE_CHUNK));
      parts.add(CompletableFuture.supplyAsync(() -> decode(chunk, UnaryOperator.identity()), decoder));
    }
    for (CompletableFuture<List<Decoded>> p : parts) applyDecoded(p.join());
  }

  /**
   * Decodes coordinate records, skipping (and counting) invalid ones; on a decoder thread.
   *
   * @param keys the key String a decoded server is to hold, given the record's
   */
  private List<Decoded> decode(List<ConsumerRecord<byte[], byte[]>> coordinates, UnaryOperator<String> keys) {
    List<Decoded> out = new ArrayList<>(coordinates.size());
    for (ConsumerRecord<byte[], byte[]> r : coordinates) {
      String key = keys.apply(key(r));
      try {
        out.add(new Decoded(key, r.value() == null ? null : decode(key, r.value())));
      } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
        skipped(r, e);
      }
    }
    return out;
  }

  /** A coordinate record's server; thread-safe. */
  private DecodedServer decode(String key, byte[] value) throws InvalidProtocolBufferException {
    return DecodedServer.of(key, ServerCoordinate.parseFrom(value), dimensions, landmarkNumbers, this::shared,
        this::sharedAttributes);
  }

  /**
   * The key String the feed already holds for a server, else {@code key}: each server's coordinate
   * is read anew every round, and a new key each time was two more objects a server and round for
   * young collections to copy. Feed thread only (the decoder threads run while it applies).
   */
  private String heldKey(String key) {
    return servers.heldKey(key);
  }

  private static String key(ConsumerRecord<byte[], byte[]> r) {
    return r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
  }

  private void skipped(ConsumerRecord<byte[], byte[]> r, Exception e) {
    invalid.incrementAndGet();
    log.warn("skipped invalid record {}-{}@{} key '{}': {}", r.topic(), r.partition(), r.offset(), key(r), e.getMessage());
  }

  private void rebuild() {
    // the small topics' copies only when they changed: reed.targets alone is a 4 MB table at
    // 250,000 targets, copied by every young collection while its state lives
    if (landmarksChanged) epochLandmarks = ServingState.EpochLandmarks.newest(landmarkCoordinates, dimensions);
    if (announcementsChanged) announced = Map.copyOf(announcements);
    if (targetsChanged) catalog = Map.copyOf(targets);
    landmarksChanged = announcementsChanged = targetsChanged = false;
    RankingIndex index = servers.index();
    List<String> ids = landmarkNumbers.table(); // after every template of this state was numbered: it covers their refs
    StateServers table = servers.table(index, ids.size());
    state.set(ServingState.of(table, ids, epochLandmarks, announced, catalog, clock.instant(), dimensions, heightModel));
    stateServers = table;
    integrityKinds = table.integrityKinds();
    templateChunks = servers.templateChunks();
    rebuilds.incrementAndGet();
    onRebuild.run();
  }

  /**
   * Servers of the current state with the host integrity check's verdict {@code kind}, counted at
   * its build: a metric scrape that streamed the state's 250,000 templates per kind cost the scale
   * harness's replicas 6.3-7.9 % of a core at one scrape every 500 ms (docs/research/scale.md).
   */
  public long servers(IntegrityKind kind) {
    return integrityKinds[kind.ordinal()];
  }

  /** The bytes the servers' template chunks held and had live at the current state's build. */
  public ChunkUsage templateChunks() {
    return templateChunks;
  }

  @Override
  public void close() {
    closed = true;
    consumer.wakeup();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    decoder.shutdownNow();
    checkpointWriter.shutdownNow();
  }
}
