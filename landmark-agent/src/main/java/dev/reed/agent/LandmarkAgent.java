package dev.reed.agent;

import dev.reed.agent.beacon.Beacon;
import dev.reed.agent.beacon.WsBeacon;
import dev.reed.agent.publish.Publisher;
import dev.reed.agent.publish.RecordBatcher;
import dev.reed.agent.round.RoundReport;
import dev.reed.agent.round.RoundRunner;
import dev.reed.agent.spool.Spool;
import dev.reed.agent.targets.CompactedTopicReader;
import dev.reed.agent.targets.LandmarkDirectory;
import dev.reed.agent.targets.RoundTargets;
import dev.reed.probe.ProbeEngine;
import dev.reed.probe.Prober;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Target;
import dev.reed.runtime.DenyList;
import dev.reed.runtime.OpsServer;
import dev.reed.runtime.TargetsFile;
import dev.reed.runtime.WatchedFile;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A landmark agent (REED, Armitage &amp; Heyde 2011, section 6.3 "third-party deployment"): a
 * well-connected host that measures the RTT to every game server and to every other landmark in
 * rounds and publishes the samples to Kafka for the coordinator, and that answers game queries
 * itself as a calibration beacon. Embeddable: {@code ./reed agent}, the demo and tests all run
 * this class.
 *
 * <pre>{@code
 * try (LandmarkAgent agent = LandmarkAgent.start(AgentConfig.builder("eu-1", kafka).loopback()
 *     .spoolDir(dir).build())) {
 *   RoundReport r = agent.runRound();
 * }
 * }</pre>
 *
 * <p>Wiring: round thread -> {@link RoundRunner} -> {@link RecordBatcher} -> {@link Spool} (on
 * disk) -> {@link Publisher} thread -> Kafka. Every record goes through the spool, so a broker
 * outage or a crash loses nothing; see {@link Publisher} for why nothing is written twice.
 */
public final class LandmarkAgent implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LandmarkAgent.class);
  /** A timed-out target is probed again no sooner than this after the first probe (ioquake3: 1 reply/s per IP). */
  public static final Duration RETRY_SPACING = Duration.ofMillis(1100);
  /**
   * An A2S target's probe forges a challenge one round in this many (per landmark; the landmarks
   * take turns): with 15 landmarks every target is checked about 2.5 times a round. A real server
   * refuses the forged challenge with the challenge it sends a plain request anyway (4 bytes more);
   * one that never challenges costs one more exchange, 1/6 more probes to it.
   */
  public static final int CHALLENGE_CHECK_EVERY = 6;

  private final AgentConfig config;
  private final Deque<AutoCloseable> resources;
  private final Spool spool;
  private final Publisher publisher;
  private final Prober prober;
  private final Beacon beacon;
  private final WsBeacon wsBeacon;
  private final InetSocketAddress advertised;
  private final RoundRunner runner;
  private final PrometheusMeterRegistry registry;
  private final OpsServer ops;
  private final ScheduledExecutorService scheduler;
  private final SplittableRandom random;
  private final ReentrantLock roundLock = new ReentrantLock();
  private final Instant startedAt;
  private volatile boolean closing;
  private volatile RoundReport lastReport;
  private volatile Instant lastRoundEnd;

  private LandmarkAgent(AgentConfig config, Deque<AutoCloseable> resources, Spool spool, Publisher publisher,
      Prober prober, Beacon beacon, WsBeacon wsBeacon, InetSocketAddress advertised, RoundRunner runner, PrometheusMeterRegistry registry,
      OpsServer ops, SplittableRandom random) {
    this.config = config;
    this.resources = resources;
    this.spool = spool;
    this.publisher = publisher;
    this.prober = prober;
    this.beacon = beacon;
    this.wsBeacon = wsBeacon;
    this.advertised = advertised;
    this.runner = runner;
    this.registry = registry;
    this.ops = ops;
    this.random = random;
    this.startedAt = config.clock().instant();
    this.scheduler = config.interval().isZero() ? null
        : Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().name("reed-rounds-" + config.id()).unstarted(r));
  }

  /**
   * Opens the spool (replaying what a previous run left), starts the publisher, the probe engine,
   * the beacon and the metrics endpoint, and, when {@code interval} is not zero, the round schedule.
   *
   * @throws IOException a socket or the spool directory cannot be opened
   * @throws IllegalArgumentException a bad targets or deny file (the message names file and line)
   */
  public static LandmarkAgent start(AgentConfig config) throws IOException {
    Deque<AutoCloseable> opened = new ArrayDeque<>();
    try {
      String version = version();
      List<Target> staticTargets = config.targetsFile() == null ? List.of() : TargetsFile.read(config.targetsFile());
      WatchedFile<DenyList> deny = null;
      if (config.denyFile() != null) {
        DenyList.read(config.denyFile()); // fail fast on a bad file
        deny = new WatchedFile<>("deny file", config.denyFile(), DenyList::read, DenyList.NONE, d -> d.size() + " entries");
      }
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      registry.config().commonTags("landmark", config.id());
      Spool spool = Spool.open(config.spoolDir(), config.spoolMaxBytes(), Math.min(16L << 20, config.spoolMaxBytes() / 4), true);
      opened.push(spool);
      Publisher publisher = new Publisher(spool, config.kafkaClients(), "reed-agent-" + config.id(),
          config.deliveryTimeout(), registry).start();
      opened.push(() -> publisher.close(Duration.ofSeconds(10)));
      Prober prober = ProbeEngine.builder()
          .bind(config.bind())
          .rate(config.rate())
          .timeout(config.probeTimeout())
          .clock(config.clock())
          .build();
      opened.push(prober);
      Beacon beacon = Beacon.start(config.beacon(), config.id(), config.region(), version, config.beaconDelay(),
          config.beaconRate() == 0 ? null
              : dev.reed.runtime.PrefixBuckets.of(dev.reed.runtime.PrefixBuckets.Limit.perSecond(config.beaconRate()),
                  System::nanoTime));
      opened.push(beacon);
      InetSocketAddress advertised = advertise(config, beacon.localAddress());
      WsBeacon wsBeacon = null;
      if (config.wsBeacon() != null) {
        wsBeacon = new WsBeacon(config.wsBeacon(), advertised.getAddress(), config.wsEchoDelay(), System::nanoTime);
        opened.push(wsBeacon);
      }
      CompactedTopicReader reader = new CompactedTopicReader(config.kafkaClients(),
          "reed-agent-" + config.id() + "-catalog",
          Duration.ofSeconds(10));
      opened.push(reader);
      ScheduledExecutorService retryTimer = Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("reed-retry-" + config.id()).daemon().unstarted(r));
      opened.push(retryTimer::shutdownNow);
      SplittableRandom random = config.seed() == 0 ? new SplittableRandom() : new SplittableRandom(config.seed());
      RecordBatcher batcher = new RecordBatcher(spool, config.batchSize(), config.clock());
      RoundTargets targets = new RoundTargets(staticTargets, reader, deny);
      RoundRunner runner = new RoundRunner(
          new RoundRunner.Settings(config.id(), config.region(), config.location(), version, config.interval(), config.rate(),
              config.meshProbes(), config.probeTimeout(), RETRY_SPACING, config.flushTimeout(),
              wsBeacon == null ? "" : wsBeacon.url(), CHALLENGE_CHECK_EVERY),
          prober, batcher, spool, targets, new LandmarkDirectory(config.id(), reader, config.clock()), () -> advertised,
          config.spoolDir(), config.clock(), random.split(), registry, retryTimer);
      registerMeters(registry, spool, prober, beacon, targets, batcher, publisher);
      if (wsBeacon != null) registerWsMeters(registry, wsBeacon);
      OpsServer ops = null;
      LandmarkAgent[] self = new LandmarkAgent[1];
      if (config.metricsPort() >= 0) {
        ops = OpsServer.start(new InetSocketAddress(config.metricsHost(), config.metricsPort()), registry::scrape,
            () -> self[0] == null ? new OpsServer.Health(false, "starting") : self[0].health());
        opened.push(ops);
      }
      LandmarkAgent agent = new LandmarkAgent(config, opened, spool, publisher, prober, beacon, wsBeacon, advertised, runner,
          registry, ops, random);
      self[0] = agent;
      Gauge.builder("reed.agent.round.last.end", agent, a -> a.lastRoundEnd == null ? 0 : a.lastRoundEnd.getEpochSecond())
          .description("wall-clock time (epoch seconds) the last round ended; 0 before the first").register(registry);
      log.info("landmark agent {} ({}{}) started: beacon {} (announced as {}), probes from {}, {} static targets, "
              + "Kafka {}, spool {}{}, {}",
          config.id(), version, config.region().isBlank() ? "" : ", " + config.region(), beacon.localAddress(), advertised,
          config.bind(), staticTargets.size(), config.kafkaBootstrap(), config.spoolDir(),
          ops == null ? "" : ", metrics http://" + Endpoints.key(ops.address()) + "/metrics",
          config.interval().isZero() ? "rounds on demand" : "a round every " + config.interval() + " +-" + Math.round(config.jitter() * 100) + "%");
      agent.schedule(firstDelay(config, random));
      return agent;
    } catch (IOException | RuntimeException e) {
      closeAll(opened);
      throw e;
    }
  }

  /** Runs one round now (between scheduled rounds, never overlapping one) and returns its figures. */
  public RoundReport runRound() {
    try {
      roundLock.lockInterruptibly();
      try {
        if (closing) throw new IllegalStateException("agent " + config.id() + " is shutting down");
        RoundReport r = runner.run(() -> closing);
        lastReport = r;
        lastRoundEnd = config.clock().instant();
        return r;
      } finally {
        roundLock.unlock();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("round failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during a round", e);
    }
  }

  /** The beacon address announced to peers and clients. */
  /**
   * Reads the target catalog now, as a round does when it starts; the round then reuses every
   * target that did not change. A process that hosts many agents (the demo's emulation JVM) reads
   * their catalogs, and collects, before a round instead of during it.
   *
   * @return the targets the next round would probe
   */
  public int readTargets() throws InterruptedException {
    roundLock.lockInterruptibly();
    try {
      return runner.readTargets();
    } finally {
      roundLock.unlock();
    }
  }

  public InetSocketAddress beaconAddress() {
    return advertised;
  }

  /** The announced WebSocket beacon URL ({@code ws://HOST:PORT/} or {@code wss://...}), or null when none runs. */
  public String wsBeaconUrl() {
    return wsBeacon == null ? null : wsBeacon.url();
  }

  /** The address the WebSocket beacon is bound to, or null when none runs. */
  public InetSocketAddress wsBeaconBindAddress() {
    return wsBeacon == null ? null : wsBeacon.localAddress();
  }

  /** The address the beacon socket is bound to. */
  public InetSocketAddress beaconBindAddress() {
    return beacon.localAddress();
  }

  /** The {@code /metrics} and {@code /healthz} endpoint, or null when off. */
  public InetSocketAddress metricsAddress() {
    return ops == null ? null : ops.address();
  }

  /** The agent's meters (what {@code /metrics} serves). */
  public PrometheusMeterRegistry meterRegistry() {
    return registry;
  }

  public AgentConfig config() {
    return config;
  }

  /** The last completed round, or null. */
  public RoundReport lastRound() {
    return lastReport;
  }

  /** Waits until every spooled record has been acknowledged by the broker. */
  public boolean awaitPublished(Duration timeout) {
    try {
      return spool.awaitEmpty(timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Records waiting in the spool for the broker. */
  public long spooledRecords() {
    return spool.stats().records();
  }

  /** {@code /healthz}: unhealthy when rounds are overdue or the publisher died. */
  OpsServer.Health health() {
    if (closing) return new OpsServer.Health(false, "shutting down");
    Instant now = config.clock().instant();
    String kafka = publisher.reachable() ? "Kafka reachable" : "Kafka UNREACHABLE, spooling";
    String spoolText = spool.stats().records() + " records spooled";
    if (scheduler != null) {
      Duration grace = config.interval().multipliedBy(2).plusMinutes(1);
      Instant since = lastRoundEnd == null ? startedAt : lastRoundEnd;
      if (Duration.between(since, now).compareTo(grace) > 0) {
        return new OpsServer.Health(false, "no round completed for " + Duration.between(since, now).toSeconds() + " s; "
            + kafka + "; " + spoolText);
      }
    }
    RoundReport r = lastReport;
    String round = r == null ? "no round yet" : "round " + r.round() + ": " + r.replies() + "/" + r.targets() + " replies";
    return new OpsServer.Health(true, round + "; " + kafka + "; " + spoolText);
  }

  /**
   * Graceful shutdown: no new rounds; a running round stops sending probes, lets the outstanding
   * ones finish and publishes what it measured; the spool gets up to 10 s to drain (what remains
   * is replayed by the next start); then the sockets close.
   */
  @Override
  public void close() {
    if (closing) return;
    closing = true;
    if (scheduler != null) scheduler.shutdown();
    try {
      long waitMs = config.probeTimeout().multipliedBy(2).plus(RETRY_SPACING).plus(config.flushTimeout()).toMillis() + 5_000;
      if (roundLock.tryLock(waitMs, TimeUnit.MILLISECONDS)) roundLock.unlock();
      else log.warn("the running round did not end within {} ms; closing anyway", waitMs);
      if (scheduler != null) scheduler.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeAll(resources);
    registry.close();
    log.info("landmark agent {} stopped after round {}; {} records left in the spool for the next start", config.id(),
        runner.lastRound(), spoolRecordsOnClose());
  }

  private long spoolRecordsOnClose() {
    try {
      return spool.stats().records();
    } catch (RuntimeException e) {
      return -1;
    }
  }

  private void schedule(Duration delay) {
    if (scheduler == null || closing) return;
    scheduler.schedule(this::scheduledRound, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void scheduledRound() {
    long t0 = System.nanoTime();
    try {
      runRound();
    } catch (IllegalStateException e) {
      if (closing) return;
      log.error("round failed", e);
    } catch (RuntimeException e) {
      log.error("round failed; the next one runs on schedule", e);
    }
    double factor = 1 + (random.nextDouble() * 2 - 1) * config.jitter();
    long nextMs = (long) (config.interval().toMillis() * factor) - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    schedule(Duration.ofMillis(Math.max(0, nextMs)));
  }

  private static Duration firstDelay(AgentConfig config, SplittableRandom random) {
    long maxMs = Math.min(10_000, (long) (config.interval().toMillis() * config.jitter()));
    return Duration.ofMillis(maxMs <= 0 ? 0 : random.nextLong(maxMs + 1));
  }

  /** The announced beacon address: explicit, else the bound one, else the address that routes to Kafka. */
  private static InetSocketAddress advertise(AgentConfig config, InetSocketAddress bound) {
    if (config.beaconAdvertise() != null) return config.beaconAdvertise();
    if (!bound.getAddress().isAnyLocalAddress()) return bound;
    String first = config.kafkaBootstrap().split(",")[0].strip();
    try (DatagramSocket probe = new DatagramSocket()) {
      probe.connect(Endpoints.socketAddress(first, 9092));
      InetAddress local = probe.getLocalAddress();
      if (local != null && !local.isAnyLocalAddress()) return new InetSocketAddress(local, bound.getPort());
    } catch (IOException | RuntimeException e) {
      log.warn("cannot find the local address that routes to {} ({}); set --beacon-advertise", first, e.toString());
    }
    try {
      return new InetSocketAddress(InetAddress.getLocalHost(), bound.getPort());
    } catch (IOException e) {
      return new InetSocketAddress(InetAddress.getLoopbackAddress(), bound.getPort());
    }
  }

  private static void registerWsMeters(PrometheusMeterRegistry r, WsBeacon ws) {
    counter(r, "reed.agent.ws.connections", "WebSocket beacon connections accepted", ws, w -> w.counters().accepted());
    Gauge.builder("reed.agent.ws.open", ws, w -> w.counters().open()).description("WebSocket beacon connections open").register(r);
    counter(r, "reed.agent.ws.echoed", "frames the WebSocket beacon echoed", ws, w -> w.counters().echoed());
    for (WsBeacon.Rejection why : WsBeacon.Rejection.values()) {
      FunctionCounter.builder("reed.agent.ws.rejected", ws, w -> w.counters().rejected().get(why))
          .tag("reason", why.name().toLowerCase(java.util.Locale.ROOT))
          .description("WebSocket connections refused (origin, connections) or closed (rate, oversize, fragmented)")
          .register(r);
    }
  }

  private static void registerMeters(PrometheusMeterRegistry r, Spool spool, Prober prober, Beacon beacon,
      RoundTargets targets, RecordBatcher batcher, Publisher publisher) {
    counter(r, "reed.agent.probes.sent", "probes sent (targets, retries and mesh)", prober, p -> p.counters().sent());
    counter(r, "reed.agent.probes.replies", "valid replies matched to a probe", prober, p -> p.counters().replies());
    counter(r, "reed.agent.probes.timeouts", "probes that got no valid reply within the timeout", prober, p -> p.counters().timeouts());
    counter(r, "reed.agent.probes.errors", "probes that could not be sent or whose reply could not be used", prober,
        p -> p.counters().errors());
    counter(r, "reed.agent.probes.unexpected", "replies ignored: unknown source address or wrong challenge (spoofed, stale)",
        prober, p -> p.counters().unexpected());
    counter(r, "reed.agent.probes.malformed", "replies ignored: truncated, oversized or undecodable", prober,
        p -> p.counters().malformed());
    Gauge.builder("reed.agent.probes.outstanding", prober, p -> p.counters().outstanding())
        .description("probes waiting for a reply").register(r);
    Gauge.builder("reed.agent.spool.bytes", spool, s -> s.stats().bytes())
        .description("bytes of batches not yet acknowledged by the broker").register(r);
    Gauge.builder("reed.agent.spool.records", spool, s -> s.stats().records())
        .description("records not yet acknowledged by the broker").register(r);
    Gauge.builder("reed.agent.spool.batches", spool, s -> s.stats().batches())
        .description("batches not yet acknowledged by the broker").register(r);
    counter(r, "reed.agent.spool.dropped.records", "records dropped because the spool was full (oldest first)", spool,
        s -> s.stats().droppedRecords());
    counter(r, "reed.agent.spool.corrupt.entries", "spool entries found damaged at start and skipped", spool,
        s -> s.stats().corruptEntries());
    counter(r, "reed.agent.spool.write.failures", "records that could not be written to the spool (disk full, I/O error)",
        batcher, b -> b.lostRecords());
    counter(r, "reed.agent.targets.invalid", "records of reed.targets that could not be used", targets, c -> c.invalidTotal());
    counter(r, "reed.agent.beacon.answered", "queries the beacon answered", beacon, b -> b.responder().counters().answered());
    counter(r, "reed.agent.beacon.malformed", "datagrams the beacon dropped because they were not a query it understands",
        beacon, b -> b.responder().counters().malformed());
    counter(r, "reed.agent.beacon.challenges", "A2S challenges the beacon issued", beacon,
        b -> b.responder().counters().challengesIssued());
    counter(r, "reed.agent.beacon.rate.limited", "datagrams the beacon dropped unanswered: their network prefix was over --beacon-rate",
        beacon, b -> b.responder().counters().rateLimited());
    Gauge.builder("reed.agent.kafka.reachable", publisher, p -> p.reachable() ? 1 : 0)
        .description("1 while batches reach the broker, 0 while they are spooled").register(r);
  }

  private static <T> void counter(PrometheusMeterRegistry r, String name, String description, T obj, ToDoubleFunction<T> f) {
    FunctionCounter.builder(name, obj, f).description(description).register(r);
  }

  private static void closeAll(Deque<AutoCloseable> resources) {
    while (!resources.isEmpty()) {
      try {
        resources.pop().close();
      } catch (Exception e) {
        log.warn("while closing: {}", e.toString());
      }
    }
  }

  /** The agent version, from the build. */
  public static String version() {
    try (InputStream in = LandmarkAgent.class.getResourceAsStream("version.properties")) {
      Properties p = new Properties();
      if (in != null) p.load(in);
      return p.getProperty("version", "dev");
    } catch (IOException e) {
      return "dev";
    }
  }
}
