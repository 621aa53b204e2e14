package dev.reed.coordinator.catalog;

import com.google.protobuf.Timestamp;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Target;
import dev.reed.proto.v1.TargetSource;
import dev.reed.runtime.DenyList;
import dev.reed.runtime.TargetsFile;
import dev.reed.runtime.WatchedFile;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
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
 * (removed from the file, heartbeat or crawl older than {@code expiry}). A target on the deny list
 * ({@link DenyList}) is never published, whoever vouches for it, and is deleted if it was: the
 * agents stop probing it within a round. Both files are re-read when they change.
 */
public final class TargetPublisher {
  private static final Logger log = LoggerFactory.getLogger(TargetPublisher.class);

  /** What one catalog round did. */
  public record Result(int published, int deleted, int crawled) {}

  private final Producer<byte[], byte[]> producer;
  private final Clock clock;
  private final WatchedFile<List<Target>> targetsFile;
  private final WatchedFile<DenyList> denyFile;
  private volatile DenyList deny = DenyList.NONE;
  private final List<MasterCrawler.Master> masters;
  private final MasterCrawler crawler;
  private final Duration crawlEvery;
  private final Duration expiry;
  private final Duration refresh;
  private final Map<MasterCrawler.Master, Long> lastCrawl = new HashMap<>();

  /**
   * @param targetsFile static targets; null = none
   * @param denyFile never published; null = none
   */
  public TargetPublisher(Producer<byte[], byte[]> producer, Clock clock, Path targetsFile, Path denyFile,
      List<MasterCrawler.Master> masters, MasterCrawler crawler, Duration crawlEvery, Duration expiry) {
    this.producer = producer;
    this.clock = clock;
    this.targetsFile = targetsFile == null ? null
        : new WatchedFile<>("target file", targetsFile, TargetsFile::read, List.of(), l -> l.size() + " targets");
    this.denyFile = denyFile == null ? null
        : new WatchedFile<>("deny file", denyFile, DenyList::read, DenyList.NONE, d -> d.size() + " entries");
    refreshDenyList();
    this.masters = List.copyOf(masters);
    this.crawler = crawler;
    this.crawlEvery = crawlEvery;
    this.expiry = expiry;
    this.refresh = expiry.dividedBy(3);
  }

  /**
   * Re-reads the deny file if it changed. Every replica calls this every round, leader or not:
   * any replica may verify a heartbeat, and a denied one must not be published by a follower that
   * never runs the catalog round.
   */
  public void refreshDenyList() {
    if (denyFile == null) return;
    logRefresh(denyFile.refresh());
    deny = denyFile.current();
  }

  /** Publishes a server whose heartbeat was verified, unless it is denied. */
  public void registerHeartbeat(InetSocketAddress server, Map<String, Target> known) {
    if (deny.denies(Endpoints.of(server))) return;
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
   * One leader round: reload the files if they changed, crawl masters that are due, refresh and expire.
   *
   * @param known the catalog as this replica read it from reed.targets
   */
  public Result run(Supplier<Map<String, Target>> known) throws InterruptedException {
    Map<String, Target> current = known.get();
    int published = 0;
    int deleted = 0;
    int crawled = 0;
    long now = clock.millis();
    refreshDenyList();
    DenyList denied = deny;
    Set<String> inFile = new HashSet<>();
    if (targetsFile != null) {
      logRefresh(targetsFile.refresh());
      for (Target f : targetsFile.current()) {
        String key = Endpoints.key(f.getEndpoint());
        inFile.add(key);
        if (denied.denies(f.getEndpoint())) continue;
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
        for (InetSocketAddress a : found) {
          Endpoint e = Endpoints.of(a);
          if (denied.denies(e)) continue;
          publish(e, m.protocol(), source, current);
          published++;
        }
        crawled += found.size();
        log.info("crawled {} master {}: {} servers", m.protocol(), m.address(), found.size());
      } catch (InterruptedIOException e) {
        throw new InterruptedException("crawl of " + m.address() + " interrupted");
      } catch (IOException e) {
        log.warn("crawl of {} failed: {}", m.address(), e.toString());
      }
    }
    for (Map.Entry<String, Target> e : current.entrySet()) {
      Target t = e.getValue();
      boolean gone = denied.denies(t.getEndpoint()) || (t.getSource() == TargetSource.TARGET_SOURCE_STATIC
          ? targetsFile != null && targetsFile.loaded() && !inFile.contains(e.getKey())
          : now - millis(t.getLastSeenTime()) > expiry.toMillis());
      if (gone) {
        producer.send(new ProducerRecord<>(Topic.TARGETS.name(), e.getKey().getBytes(StandardCharsets.UTF_8), null));
        deleted++;
      }
    }
    if (published + deleted > 0) producer.flush();
    return new Result(published, deleted, crawled);
  }

  private static void logRefresh(WatchedFile.Refresh r) {
    if (r.message() == null) return;
    if (r.failed()) log.warn(r.message());
    else log.info(r.message());
  }

  private static long millis(Timestamp t) {
    return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
  }
}
