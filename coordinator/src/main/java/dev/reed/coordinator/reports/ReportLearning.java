package dev.reed.coordinator.reports;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.reports.ClientReport;
import dev.reed.coordinates.reports.NeighbourhoodCorrections;
import dev.reed.coordinates.reports.ReportConfig;
import dev.reed.coordinates.reports.ReportScreen;
import dev.reed.coordinates.reports.ReportedServer;
import dev.reed.coordinator.location.GeoModel;
import dev.reed.coordinator.location.HostGeo;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.ClientReportRecord;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerMeasurement;
import dev.reed.runtime.KafkaClients;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Learns from reed.client-reports on every replica (each reads the whole topic, with no consumer
 * group, as it reads the coordinates: every replica serves every client, so each must know every
 * report). A report is screened against this replica's current servers ({@link ReportScreen}: the
 * landmarks' triangle bounds, the light floor, the predictions with the uncertainty the rankings serve) and its believed RTTs added to the
 * {@link NeighbourhoodCorrections} the rankings read. On start it rewinds to the reports of the last
 * {@link ReportConfig#maxAgeMillis()} (older ones would be forgotten at once). Observations age out:
 * {@link NeighbourhoodCorrections#forget} runs every {@link #FORGET_EVERY}.
 *
 * <p>A record that cannot be decoded, or names a coordinate of another dimension count, is counted
 * and skipped, logged once per kind: the topic is written by coordinators only, so such a record
 * means a bug or a mixed deployment, and one line tells the operator without flooding the log.
 */
public final class ReportLearning implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReportLearning.class);
  static final Duration FORGET_EVERY = Duration.ofMinutes(1);
  /** Reports arrive one at a time; the log gets one summary line per this interval (and per catch-up). */
  static final Duration LOG_EVERY = Duration.ofSeconds(30);

  /** Why a record was skipped whole (metric label {@code kind}). */
  public enum Invalid { UNDECODABLE, BAD_COORDINATE }

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Supplier<ServingState> state;
  private final Supplier<GeoModel> geo;
  private final NeighbourhoodCorrections corrections;
  private final ReportScreen screen;
  private final ReportConfig config;
  private final Clock clock;
  private final Thread thread;
  private final Map<ReportScreen.Reason, AtomicLong> dropped = new EnumMap<>(ReportScreen.Reason.class);
  private final Map<Invalid, AtomicLong> invalid = new EnumMap<>(Invalid.class);
  private final Set<Invalid> logged = ConcurrentHashMap.newKeySet();
  private final AtomicLong reports = new AtomicLong();
  private final AtomicLong kept = new AtomicLong();
  private final AtomicLong forgotten = new AtomicLong();
  private volatile boolean closed;
  // since the last log line (ingest thread only)
  private int loggedReports;
  private int loggedKept;
  private final Map<ReportScreen.Reason, Integer> loggedDropped = new EnumMap<>(ReportScreen.Reason.class);
  /** The servers flagged as promoted when last looked at (ingest thread only). */
  private Set<String> promoted = Set.of();

  public ReportLearning(KafkaClients kafka, String clientId, Supplier<ServingState> state, Supplier<GeoModel> geo,
      NeighbourhoodCorrections corrections, ReportConfig config, Clock clock) {
    this.state = state;
    this.geo = geo;
    this.corrections = corrections;
    this.config = config;
    this.screen = new ReportScreen(config);
    this.clock = clock;
    for (ReportScreen.Reason r : ReportScreen.Reason.values()) dropped.put(r, new AtomicLong());
    for (Invalid i : Invalid.values()) invalid.put(i, new AtomicLong());
    this.consumer = kafka.consumer(clientId, Map.of(
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000"));
    this.thread = Thread.ofPlatform().name("report-learning").priority(Thread.MIN_PRIORITY).daemon().unstarted(this::run);
  }

  public ReportLearning start() {
    thread.start();
    return this;
  }

  /** Reports read (valid ones). */
  public long reports() {
    return reports.get();
  }

  /** RTTs believed and learned. */
  public long kept() {
    return kept.get();
  }

  /** RTTs screened out, by reason. */
  public long dropped(ReportScreen.Reason r) {
    return dropped.get(r).get();
  }

  /** Records skipped whole, by kind. */
  public long invalid(Invalid kind) {
    return invalid.get(kind).get();
  }

  /** Observations aged out so far. */
  public long forgotten() {
    return forgotten.get();
  }

  private void run() {
    try {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo i : consumer.partitionsFor(Topic.CLIENT_REPORTS.name(), Duration.ofSeconds(30))) {
        partitions.add(new TopicPartition(i.topic(), i.partition()));
      }
      consumer.assign(partitions);
      rewind(partitions);
      long lastForget = clock.millis();
      long lastLog = 0;
      boolean caughtUp = false;
      while (!closed) {
        ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(200));
        if (!batch.isEmpty()) learn(batch);
        long now = clock.millis();
        if (!caughtUp && batch.isEmpty()) {
          caughtUp = true;
          summary("caught up");
          lastLog = now;
        } else if (now - lastLog >= LOG_EVERY.toMillis() && loggedReports > 0) {
          summary("in the last " + (now - lastLog) / 1000 + " s");
          lastLog = now;
        }
        if (now - lastForget >= FORGET_EVERY.toMillis()) {
          lastForget = now;
          int n = corrections.forget(now);
          forgotten.addAndGet(n);
          logPromoted();
          if (n > 0) {
            log.info("client reports: {} observations aged out, {} left on {} servers", n, corrections.observations(),
                corrections.servers());
          }
        }
      }
    } catch (WakeupException e) {
      if (!closed) throw e;
    } catch (RuntimeException e) {
      log.error("client report learning stopped: {}", e.toString(), e);
    } finally {
      consumer.close(Duration.ofSeconds(2));
    }
  }

  /** To the first report young enough to be kept, or the end. */
  private void rewind(List<TopicPartition> partitions) {
    long since = clock.millis() - config.maxAgeMillis();
    Map<TopicPartition, Long> query = new HashMap<>();
    for (TopicPartition p : partitions) query.put(p, since);
    Map<TopicPartition, OffsetAndTimestamp> at = consumer.offsetsForTimes(query, Duration.ofSeconds(30));
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
    for (TopicPartition p : partitions) {
      OffsetAndTimestamp o = at.get(p);
      consumer.seek(p, o == null ? end.get(p) : o.offset());
    }
  }

  private void learn(ConsumerRecords<byte[], byte[]> batch) {
    ServingState s = state.get();
    GeoModel g = geo.get();
    Map<String, ReportedServer> known = new HashMap<>();
    // the uncertainty the rankings serve with a coordinate prediction; NaN until cross-validated
    double servedError = g.errors().coordinates();
    int n = 0;
    int keptHere = 0;
    Map<ReportScreen.Reason, Integer> droppedHere = new EnumMap<>(ReportScreen.Reason.class);
    for (ConsumerRecord<byte[], byte[]> r : batch) {
      ClientReport report = decode(r, s.dimensions());
      if (report == null) continue;
      n++;
      ReportScreen.Screened screened = screen.screen(report, key -> known.computeIfAbsent(key, k -> server(s, g, k)),
          servedError);
      screened.dropped().forEach((reason, c) -> {
        dropped.get(reason).addAndGet(c);
        droppedHere.merge(reason, c, Integer::sum);
      });
      keptHere += corrections.add(screened);
    }
    reports.addAndGet(n);
    kept.addAndGet(keptHere);
    loggedReports += n;
    loggedKept += keptHere;
    droppedHere.forEach((reason, c) -> loggedDropped.merge(reason, c, Integer::sum));
    logPromoted();
  }

  /** One line per server flagged or cleared as promoted by client reports since the last look. */
  private void logPromoted() {
    Set<String> now = corrections.promotedKeys();
    if (now.equals(promoted)) return;
    for (String key : now) {
      if (!promoted.contains(key)) {
        log.info("server {}: flagged as promoted by client reports (reporters at several places report it nearer than "
            + "the landmarks do); its predictions are no longer lowered", key);
      }
    }
    for (String key : promoted) {
      if (!now.contains(key)) log.info("server {}: no longer flagged as promoted by client reports", key);
    }
    promoted = now;
  }

  private void summary(String when) {
    log.info("client reports {}: learned {} reports, {} RTTs kept, dropped {}; {} observations on {} servers", when,
        loggedReports, loggedKept, loggedDropped.isEmpty() ? "none" : loggedDropped, corrections.observations(),
        corrections.servers());
    loggedReports = 0;
    loggedKept = 0;
    loggedDropped.clear();
  }

  /** What this replica knows of a server right now; null when it knows none (or no coordinate). */
  private static ReportedServer server(ServingState s, GeoModel g, String key) {
    ServerCoordinate c = s.servers().get(key);
    if (c == null || !c.hasCoordinate()) return null;
    Coordinate at;
    try {
      at = CoordinateCodec.fromProto(c.getCoordinate(), s.dimensions(), key);
    } catch (IllegalArgumentException e) {
      return null;
    }
    Map<String, Double> lm = new HashMap<>();
    for (LandmarkRtt l : c.getLandmarkRttsList()) lm.put(l.getLandmarkId(), l.getRttUs() / 1000.0);
    HostGeo h = g.server(key);
    return new ReportedServer(at, lm, h == null || !h.located() ? null : h.place());
  }

  private ClientReport decode(ConsumerRecord<byte[], byte[]> r, int dimensions) {
    ClientReportRecord rec;
    try {
      rec = ClientReportRecord.parseFrom(r.value() == null ? new byte[0] : r.value());
      if (!rec.hasClient()) throw new InvalidProtocolBufferException("no client coordinate");
    } catch (InvalidProtocolBufferException e) {
      return skip(Invalid.UNDECODABLE, r, e.getMessage());
    }
    Coordinate position;
    try {
      position = CoordinateCodec.fromProto(rec.getClient(), dimensions, "client");
    } catch (IllegalArgumentException e) {
      return skip(Invalid.BAD_COORDINATE, r, e.getMessage());
    }
    Place location = rec.hasLocation() ? Place.of(rec.getLocation().getLatitudeDeg(), rec.getLocation().getLongitudeDeg())
        : null;
    Map<String, Double> landmarks = new HashMap<>();
    for (LandmarkRtt l : rec.getLandmarkRttsList()) {
      if (l.getRttUs() > 0) landmarks.put(l.getLandmarkId(), l.getRttUs() / 1000.0);
    }
    Map<String, Double> rtts = new HashMap<>();
    Set<String> timeouts = new HashSet<>();
    for (ServerMeasurement m : rec.getServersList()) {
      String key;
      try {
        key = Endpoints.key(m.getEndpoint());
      } catch (IllegalArgumentException e) {
        continue;
      }
      if (m.getTimedOut() || m.getRttUs() == 0) timeouts.add(key);
      else rtts.put(key, m.getRttUs() / 1000.0);
    }
    long at = rec.hasReceiveTime() ? rec.getReceiveTime().getSeconds() * 1000 + rec.getReceiveTime().getNanos() / 1_000_000
        : r.timestamp();
    List<String> groups = rec.getGroupKeysCount() == 0 ? List.of("p:" + GroupKeys.UNKNOWN_PREFIX) : rec.getGroupKeysList();
    return new ClientReport(position, location, landmarks, rtts, timeouts, groups, at);
  }

  private ClientReport skip(Invalid kind, ConsumerRecord<byte[], byte[]> r, String why) {
    invalid.get(kind).incrementAndGet();
    if (logged.add(kind)) {
      log.warn("skipped a client report record {}-{}@{} ({}): {}; further ones of this kind are only counted "
          + "(reed_client_report_records_invalid_total)", r.topic(), r.partition(), r.offset(), kind, why);
    }
    return null;
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
  }
}
