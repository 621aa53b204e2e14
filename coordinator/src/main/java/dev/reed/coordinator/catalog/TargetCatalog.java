package dev.reed.coordinator.catalog;

import com.google.protobuf.Timestamp;
import dev.reed.proto.Endpoints;
import dev.reed.proto.TargetsFile;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Target;
import dev.reed.proto.v1.TargetSource;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who the landmark agents probe: the compacted {@code reed.targets} topic, fed from a static
 * target file, verified Quake3 heartbeats and crawls of external masters. Heartbeat
 * registrations are published by whichever replica verified them (an upsert is idempotent); the
 * leader reloads the file, crawls, and deletes targets whose source stopped vouching for them
 * (removed from the file, heartbeat or crawl older than {@code expiry}).
 */
public final class TargetCatalog {
  private static final Logger log = LoggerFactory.getLogger(TargetCatalog.class);

  /** What one catalog round did. */
  public record Result(int published, int deleted, int crawled) {}

  private final Producer<byte[], byte[]> producer;
  private final Clock clock;
  private final Path targetsFile;
  private final List<MasterCrawler.Master> masters;
  private final MasterCrawler crawler;
  private final Duration crawlEvery;
  private final Duration expiry;
  private final Duration refresh;
  private final Map<MasterCrawler.Master, Long> lastCrawl = new HashMap<>();
  private long fileModified = Long.MIN_VALUE;
  private List<Target> fileEntries = List.of();

  public TargetCatalog(Producer<byte[], byte[]> producer, Clock clock, Path targetsFile, List<MasterCrawler.Master> masters,
      MasterCrawler crawler, Duration crawlEvery, Duration expiry) {
    this.producer = producer;
    this.clock = clock;
    this.targetsFile = targetsFile;
    this.masters = List.copyOf(masters);
    this.crawler = crawler;
    this.crawlEvery = crawlEvery;
    this.expiry = expiry;
    this.refresh = expiry.dividedBy(3);
  }

  /** Publishes a server whose heartbeat was verified. */
  public void registerHeartbeat(InetSocketAddress server, Map<String, Target> known) {
    publish(Endpoints.of(server), GameProtocol.GAME_PROTOCOL_QUAKE3, TargetSource.TARGET_SOURCE_QUAKE3_HEARTBEAT, known);
  }

  private void publish(Endpoint e, GameProtocol protocol, TargetSource source, Map<String, Target> known) {
    String key = Endpoints.key(e);
    Instant now = clock.instant();
    Timestamp ts = Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()).build();
    Target prior = known.get(key);
    Target t = Target.newBuilder()
        .setEndpoint(e)
        .setProtocol(protocol)
        // a static entry stays static even when a heartbeat or crawl also vouches for it
        .setSource(prior != null && prior.getSource() == TargetSource.TARGET_SOURCE_STATIC ? prior.getSource() : source)
        .setFirstSeenTime(prior != null ? prior.getFirstSeenTime() : ts)
        .setLastSeenTime(ts)
        .build();
    producer.send(new ProducerRecord<>(Topic.TARGETS.name(), key.getBytes(StandardCharsets.UTF_8), t.toByteArray()));
  }

  /**
   * One leader round: reload the file if it changed, crawl masters that are due, refresh and expire.
   *
   * @param known the catalog as this replica read it from reed.targets
   */
  public Result run(Supplier<Map<String, Target>> known) throws InterruptedException {
    Map<String, Target> current = known.get();
    int published = 0;
    int deleted = 0;
    int crawled = 0;
    long now = clock.millis();
    Set<String> inFile = new HashSet<>();
    if (targetsFile != null) {
      try {
        long modified = Files.getLastModifiedTime(targetsFile).toMillis();
        if (modified != fileModified) {
          fileEntries = TargetsFile.read(targetsFile);
          fileModified = modified;
          log.info("target file {}: {} targets", targetsFile, fileEntries.size());
        }
      } catch (IOException | IllegalArgumentException e) {
        log.warn("target file {} not reloaded (keeping {} targets): {}", targetsFile, fileEntries.size(), e.getMessage());
      }
      for (Target f : fileEntries) {
        String key = Endpoints.key(f.getEndpoint());
        inFile.add(key);
        Target t = current.get(key);
        if (t == null || t.getProtocol() != f.getProtocol() || t.getSource() != TargetSource.TARGET_SOURCE_STATIC
            || now - millis(t.getLastSeenTime()) >= refresh.toMillis()) {
          publish(f.getEndpoint(), f.getProtocol(), TargetSource.TARGET_SOURCE_STATIC, current);
          published++;
        }
      }
    }
    for (MasterCrawler.Master m : masters) {
      Long last = lastCrawl.get(m);
      if (last != null && now - last < crawlEvery.toMillis()) continue;
      lastCrawl.put(m, now);
      try {
        Set<InetSocketAddress> found = crawler.crawl(m);
        TargetSource source = m.protocol() == GameProtocol.GAME_PROTOCOL_QUAKE3
            ? TargetSource.TARGET_SOURCE_QUAKE3_MASTER_CRAWL : TargetSource.TARGET_SOURCE_VALVE_MASTER_CRAWL;
        for (InetSocketAddress a : found) publish(Endpoints.of(a), m.protocol(), source, current);
        crawled += found.size();
        published += found.size();
        log.info("crawled {} master {}: {} servers", m.protocol(), m.address(), found.size());
      } catch (IOException e) {
        log.warn("crawl of {} failed: {}", m.address(), e.toString());
      }
    }
    for (Map.Entry<String, Target> e : current.entrySet()) {
      Target t = e.getValue();
      boolean gone = t.getSource() == TargetSource.TARGET_SOURCE_STATIC
          ? targetsFile != null && fileModified != Long.MIN_VALUE && !inFile.contains(e.getKey())
          : now - millis(t.getLastSeenTime()) > expiry.toMillis();
      if (gone) {
        producer.send(new ProducerRecord<>(Topic.TARGETS.name(), e.getKey().getBytes(StandardCharsets.UTF_8), null));
        deleted++;
      }
    }
    if (published + deleted > 0) producer.flush();
    return new Result(published, deleted, crawled);
  }

  private static long millis(Timestamp t) {
    return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
  }
}
