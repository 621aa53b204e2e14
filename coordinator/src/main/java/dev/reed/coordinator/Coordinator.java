package dev.reed.coordinator;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.api.AnonymousAccess;
import dev.reed.coordinator.api.ApiKeys;
import dev.reed.coordinator.api.ApiServer;
import dev.reed.coordinator.api.HttpApiServer;
import dev.reed.coordinator.api.IndexWarmup;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.coordinator.api.ReedServiceImpl;
import dev.reed.coordinator.api.SnapshotServiceImpl;
import dev.reed.coordinator.api.WarmServing;
import dev.reed.coordinator.catalog.MasterCrawler;
import dev.reed.coordinator.catalog.TargetPublisher;
import dev.reed.coordinator.frontend.ListedServer;
import dev.reed.coordinator.frontend.Quake3MasterFrontEnd;
import dev.reed.coordinator.frontend.ValveMasterFrontEnd;
import dev.reed.coordinator.index.write.IndexFeed;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.DeadLetters;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.coordinator.ingest.SampleIngest;
import dev.reed.coordinator.ingest.SampleValidator;
import dev.reed.coordinator.ingest.TargetWindows;
import dev.reed.coordinator.leader.LeaderElection;
import dev.reed.coordinator.position.LandmarkEmbeddingRound;
import dev.reed.coordinator.position.HostIntegrity;
import dev.reed.coordinator.position.LandmarkIntegrityRound;
import dev.reed.coordinator.position.TargetPositioning;
import dev.reed.coordinates.integrity.ServerConsistency;
import dev.reed.proto.v1.IntegrityKind;
import dev.reed.coordinator.reports.GroupKeys;
import dev.reed.coordinator.reports.ReportIntake;
import dev.reed.coordinator.reports.ReportLearning;
import dev.reed.coordinator.snapshot.SnapshotFiles;
import dev.reed.coordinates.reports.NeighbourhoodCorrections;
import dev.reed.coordinates.reports.ReportConfig;
import dev.reed.coordinates.reports.ReportScreen;
import dev.reed.coordinates.geo.EstimatorModel;
import dev.reed.coordinates.geo.LightBound;
import dev.reed.coordinator.location.ClientAddress;
import dev.reed.coordinator.location.GeoModel;
import dev.reed.coordinator.location.GeoTraining;
import dev.reed.coordinator.location.HostGeo;
import dev.reed.coordinator.location.HostLocations;
import dev.reed.geo.IpLocator;
import io.grpc.BindableService;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.proto.v1.Target;
import dev.reed.runtime.OpsServer;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One coordinator replica, embeddable: {@code Coordinator.start(config)} ingests samples, embeds
 * and positions, publishes coordinates, serves the REED gRPC API and the master front ends, and
 * writes snapshots; {@link #close()} stops all of it. {@code ./reed coordinator}, the demo, the
 * client SDK's tests and the end-to-end tests all run this class.
 *
 * <p>Start order matters for restarts: the index is read from the compacted topics first (so the
 * replica serves within seconds, with the coordinates it served before), then ingest replays
 * recent samples into the windows.
 */
public final class Coordinator implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final CoordinatorConfig config;
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private IndexFeed feed;
  private ApiServer api;
  /** Readiness: SERVING once the index is read and warmed. */
  private volatile WarmServing ready;
  private AnonymousAccess anonymous;
  private HttpApiServer http;
  private LeaderElection leader;
  private RoundLoop loop;
  /** A serving replica's location model training (null otherwise, or without location databases). */
  private LocationTrainingLoop locationTraining;
  private Quake3MasterFrontEnd quake3Master;
  private ValveMasterFrontEnd valveMaster;
  private OpsServer metrics;
  private TargetWindows windows;
  private KafkaProducer<byte[], byte[]> producer;
  private IpLocator locator = IpLocator.none();
  private HostLocations locations;
  private GeoTraining geoTraining;
  private ReportIntake reportIntake;
  private ReportLearning reportLearning;
  private NeighbourhoodCorrections corrections;
  private volatile boolean closed;

  private Coordinator(CoordinatorConfig config) {
    this.config = config;
  }

  /**
   * Starts a replica and returns once its index has been read to the end of the compacted topics
   * (or after 60 s, with a warning), so callers can query it right away.
   *
   * @throws IOException a listener could not bind, a file could not be read
   * @throws IllegalArgumentException bad configuration (message says what)
   */
  public static Coordinator start(CoordinatorConfig config) throws IOException {
    return start(config, null);
  }

  /**
   * Starts a replica with a given leader election (e.g. a Kubernetes Lease on a particular API
   * server) instead of the one {@code config.leadership().election()} names; it is closed with the replica.
   */
  public static Coordinator start(CoordinatorConfig config, LeaderElection leaderElection) throws IOException {
    Coordinator c = new Coordinator(config);
    c.leader = leaderElection;
    try {
      c.startAll();
      return c;
    } catch (IOException | RuntimeException e) {
      c.closeAfterFailedStart(leaderElection);
      throw e;
    } catch (InterruptedException e) {
      c.closeAfterFailedStart(leaderElection);
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting", e);
    }
  }

  private void startAll() throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    CoordinateConfig math = new CoordinateConfig(config.rounds().dimensions(), config.rounds().height());
    ApiKeys keys = config.api().apiKeysFile() == null ? null : ApiKeys.read(config.api().apiKeysFile());
    if (config.catalog().targetsFile() != null) {
      int n = dev.reed.runtime.TargetsFile.read(config.catalog().targetsFile()).size(); // fail fast on a bad file
      log.info("target file {}: {} targets", config.catalog().targetsFile(), n);
    }
    if (config.catalog().denyFile() != null) dev.reed.runtime.DenyList.read(config.catalog().denyFile()); // fail fast; the catalog logs it
    if (!config.geo().isEmpty()) {
      locator = config.geo().open(); // fail fast on a missing or corrupt database, before Kafka
      resources.add(locator);
      log.info("geo databases: {}", locator.describe());
      locations = new HostLocations(locator);
      geoTraining = new GeoTraining(locations, EstimatorModel.defaults(), math, GeoTraining.DEFAULT_MAX_SERVERS,
          LightBound.defaults(), config.clock());
      resources.add(geoTraining);
    }
    Supplier<GeoModel> geo = geoTraining == null ? () -> GeoModel.NONE : geoTraining::current;
    ensureTopics();
    producer = config.kafka().clients().producer("reed-coordinator-" + config.leadership().identity(), Map.of(
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
        ProducerConfig.LINGER_MS_CONFIG, "20",
        ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4",
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000"));
    resources.add(() -> producer.close(Duration.ofSeconds(5)));

    feed = new IndexFeed(config.kafka().clients(), config.rounds().dimensions(), config.rounds().height(), config.clock(),
        Duration.ofMillis(250), config.checkpoints());
    resources.add(feed);
    Supplier<ServingState> state = feed::current;
    ReportConfig reportConfig = config.reports().config();
    if (config.reports().enabled()) {
      GroupKeys groupKeys = config.reports().keyFile() == null ? GroupKeys.random()
          : GroupKeys.fromFile(config.reports().keyFile());
      corrections = new NeighbourhoodCorrections(reportConfig);
      IpLocator asns = locator;
      reportIntake = new ReportIntake(state, groupKeys, a -> asns.asn(a).map(dev.reed.geo.Asn::number).orElse(null),
          producer, config.clock(), reportConfig);
      resources.add(reportIntake);
      log.info("client reports on: group keys hashed with {}; observations kept {} h", groupKeys.describe(),
          reportConfig.maxAgeMillis() / 3_600_000.0);
    }
    ReedServiceImpl reed = new ReedServiceImpl(ReedServiceImpl.Dependencies
        .of(state, math.withCalibrationMaxError(config.api().calibrationMaxError()), config.clock())
        .withCalibration(config.api().calibrationRotation(), config.api().calibrationMaxError())
        .withGeo(geo, locations)
        .withWsOverheadMs(config.http().wsOverheadMs())
        .withReports(reportIntake, corrections));
    // the client's address (X-Forwarded-For from trusted proxies): for a location prior, and for a
    // report's group keys (hashed at once, never stored)
    boolean needsAddress = locations != null || reportIntake != null;
    BindableService reedService = !needsAddress ? reed
        : () -> ServerInterceptors.intercept(reed, ClientAddress.trusting(config.api().trustedProxies()));
    SnapshotServiceImpl snapshotService = new SnapshotServiceImpl(state, geo);
    String reportMethod = dev.reed.proto.v1.ReedServiceGrpc.getReportMeasurementsMethod().getFullMethodName();
    ReportIntake intake = reportIntake;
    anonymous = AnonymousAccess.of(config.api().anonymous(), ClientAddress.trusting(config.api().trustedProxies()),
        new dev.reed.runtime.LoggedAddresses(config.api().logClientAddresses()), System::nanoTime);
    api = ApiServer.start(new InetSocketAddress(config.bindAddress(), config.api().grpcPort()), config.api().tlsCert(),
        config.api().tlsKey(), keys, anonymous, List.of(reedService, snapshotService),
        method -> {
          if (intake != null && method.equals(reportMethod)) intake.count(ReportIntake.Rejection.UNAUTHENTICATED);
        },
        method -> {
          if (intake != null && method.equals(reportMethod)) intake.count(ReportIntake.Rejection.RATE_LIMITED);
        });
    resources.add(api);
    if (config.http().address() != null) {
      // the same instances; ReedService with message responses (JSON), not the gRPC port's encoded pages
      ServerServiceDefinition reedMessages = ReedServiceGrpc.bindService(reed);
      if (needsAddress) reedMessages = ServerInterceptors.intercept(reedMessages, ClientAddress.trusting(config.api().trustedProxies()));
      http = HttpApiServer.start(config.http().address(), config.http().corsOrigins(),
          List.of(api.guard(reedMessages), api.guard(snapshotService.bindService())), anonymous);
      resources.add(http);
    }
    feed.start();
    // ready once the index is read to the end and warmed: the first queries run at full speed
    ApiServer server = api;
    ready = new WarmServing(new IndexWarmup(reed, state, config.clock(), IndexWarmup.DEFAULT_QUERIES,
        IndexWarmup.DEFAULT_BUDGET), server::serving);
    if (feed.awaitCaughtUp(Duration.ofSeconds(60))) {
      ready.indexReady();
    } else {
      log.warn("index not caught up after 60 s; health turns SERVING once it is, and warmed");
      feed.onRebuild(ready::indexReady);
    }
    if (corrections != null) {
      // after the index: a report is screened against the servers as this replica knows them
      reportLearning = new ReportLearning(config.kafka().clients(), "reed-coordinator-reports-" + config.leadership().identity(),
          state, geo, corrections, reportConfig, config.clock()).start();
      resources.add(reportLearning);
    }

    if (config.serveOnly()) startLocationTraining();
    else startIngest(math);
    startSnapshots(geo);
    registerServingMetrics();
    startMetrics();
    log.info("coordinator {} started in {} ms: grpc {}{}, dims {}{}, {}, kafka {}", config.leadership().identity(),
        (System.nanoTime() - t0) / 1_000_000, api.address(), http == null ? "" : ", http " + http.url(),
        config.rounds().dimensions(), config.rounds().height() ? "+height" : "",
        config.serveOnly() ? "a serving replica (no ingest, no positioning, no leadership)" : "leader election " + leader.describe(),
        config.kafka().bootstrap());
  }

  /** An ingesting replica's part: leadership, the catalog and master front ends, its share of reed.samples, the rounds. */
  private void startIngest(CoordinateConfig math) throws IOException {
    if (leader == null) leader = switch (config.leadership().election()) {
      case "standalone" -> LeaderElection.standalone();
      case "file" -> LeaderElection.fileLock(config.leadership().leaseFile(), config.leadership().identity(), Duration.ofSeconds(1));
      case "kubernetes" -> LeaderElection.inCluster(config.leadership().leaseNamespace(), config.leadership().leaseName(), config.leadership().identity());
      default -> LeaderElection.inPod()
          ? LeaderElection.inCluster(config.leadership().leaseNamespace(), config.leadership().leaseName(), config.leadership().identity())
          : LeaderElection.standalone();
    };
    resources.add(leader);

    List<MasterCrawler.Master> masters = config.catalog().crawlMasters().stream().map(MasterCrawler.Master::parse).toList();
    TargetPublisher catalog = new TargetPublisher(producer, config.clock(), config.catalog().targetsFile(), config.catalog().denyFile(), masters,
        new MasterCrawler(Duration.ofSeconds(3), Duration.ofSeconds(1), 200), config.catalog().crawlEvery(),
        config.catalog().heartbeatExpiry());
    if (config.catalog().quake3MasterPort() >= 0) {
      quake3Master = Quake3MasterFrontEnd.start(new InetSocketAddress(config.bindAddress(), config.catalog().quake3MasterPort()),
          this::listed, (addr, info) -> catalog.registerHeartbeat(addr, feed.current().targets()), config.clock());
      resources.add(quake3Master);
    }
    if (config.catalog().valveMasterPort() >= 0) {
      valveMaster = ValveMasterFrontEnd.start(new InetSocketAddress(config.bindAddress(), config.catalog().valveMasterPort()),
          this::listed);
      resources.add(valveMaster);
    }

    windows = new TargetWindows(config.rounds().window(), 1024);
    MeshWindows mesh = new MeshWindows(config.rounds().window());
    DeadLetters deadLetters = new DeadLetters(producer);
    SampleIngest ingest = sampleIngest(windows, mesh, deadLetters);
    TargetPositioning positioning = new TargetPositioning(math, producer, config.clock(),
        config.rounds().expireAfter().dividedBy(3), 0.5, new HostIntegrity(new ServerConsistency(config.integrity().config())));
    loop = new RoundLoop(config, ingest, windows, mesh, feed, leader,
        new LandmarkIntegrityRound(math, config.rounds().quarantine(), config.rounds().minMeshPeers()),
        new LandmarkEmbeddingRound(math, config.rounds().minMeshPeers(), producer, config.clock(), 0.5, 0x5eedL),
        positioning, catalog, producer, geoTraining);
    resources.add(loop);
    loop.start();

    registerIngestMetrics(deadLetters, ingest, positioning);
  }

  /**
   * A serving replica's part: with location databases, the landmark mesh and the location model
   * trained on it ({@link LocationTrainingLoop}); nothing without them.
   */
  private void startLocationTraining() {
    if (geoTraining == null) return;
    MeshWindows mesh = new MeshWindows(config.rounds().window());
    SampleIngest meshOnly = sampleIngest(new TargetWindows(config.rounds().window(), 16), mesh, new DeadLetters(producer));
    locationTraining = new LocationTrainingLoop(meshOnly, mesh, feed, geoTraining, config.clock(), config.rounds().interval())
        .start();
    resources.add(locationTraining);
  }

  /** The samples' and the mesh's consumer, validating landmarks against those announced on reed.landmarks. */
  private SampleIngest sampleIngest(TargetWindows windows, MeshWindows mesh, DeadLetters deadLetters) {
    Set<String> known = feed.knownLandmarks();
    return new SampleIngest(config.kafka().clients(), config.kafka().groupId(), windows, mesh,
        new SampleValidator(known::contains), deadLetters, config.clock(), config.rounds().replay(),
        () -> feed.current().servers());
  }

  /** Snapshot files every {@code --snapshot-every}, when a directory is set. */
  private void startSnapshots(Supplier<GeoModel> geo) {
    if (config.snapshots().dir() == null) return;
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
        Thread.ofPlatform().name("snapshots").priority(Thread.MIN_PRIORITY).daemon().factory());
    resources.add(scheduler::shutdownNow);
    SnapshotFiles files = new SnapshotFiles(config.snapshots().dir(), config.snapshots().keep());
    long every = config.snapshots().every().toMillis();
    scheduler.scheduleAtFixedRate(() -> {
      try {
        ServingState s = feed.current();
        files.write(s, geo.get(), config.clock().instant());
        log.info("snapshot written to {}: {} servers, {} landmarks", config.snapshots().dir(), s.servers().size(),
            s.landmarks().size());
      } catch (IOException | RuntimeException e) {
        log.warn("snapshot to {} failed: {}", config.snapshots().dir(), e.toString());
      }
    }, every, every, TimeUnit.MILLISECONDS);
  }

  private void startMetrics() throws IOException {
    if (config.metricsPort() < 0) return;
    metrics = OpsServer.start(new InetSocketAddress(config.bindAddress(), config.metricsPort()), registry::scrape, this::health);
    resources.add(metrics);
    log.info("metrics on http://{}/metrics, health on /healthz", Endpoints.key(metrics.address()));
  }

  private void ensureTopics() throws IOException {
    try (Admin admin = config.kafka().clients().admin(null, Map.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"))) {
      Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      List<NewTopic> missing = Topic.ALL.stream().filter(t -> !existing.contains(t.name()))
          .map(t -> new NewTopic(t.name(), t.partitions(), (short) -1).configs(t.configs())).toList();
      if (!missing.isEmpty()) {
        try {
          admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
          log.info("created topics {}", missing.stream().map(NewTopic::name).collect(Collectors.joining(", ")));
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) throw e;
        }
      }
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IOException("cannot reach Kafka at " + config.kafka().bootstrap() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** What the master front ends list: catalog targets of a protocol with the latest server info. */
  private List<ListedServer> listed(GameProtocol protocol) {
    ServingState s = feed.current();
    List<ListedServer> out = new ArrayList<>();
    for (Target t : s.targets().values()) {
      if (t.getProtocol() != protocol) continue;
      String key = Endpoints.key(t.getEndpoint());
      ServerCoordinate c = s.coordinatesOnly().get(key);
      ServerInfo info = c == null ? ServerInfo.getDefaultInstance() : c.getServerInfo();
      try {
        out.add(new ListedServer(Endpoints.toSocketAddress(t.getEndpoint()), info));
      } catch (IllegalArgumentException e) {
        // a malformed catalog entry is not listed
      }
    }
    return out;
  }

  /** What every replica serves from: the JVM's memory, the index, the location model, client reports. */
  private void registerServingMetrics() {
    // heap and non-heap pools (jvm_memory_used_bytes{area="heap"}): what sizing a replica needs
    new io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics().bindTo(registry);
    Gauge.builder("reed_index_servers", feed, f -> f.current().servers().size()).register(registry);
    Gauge.builder("reed_index_landmarks", feed, f -> f.current().landmarks().size()).register(registry);
    Gauge.builder("reed_index_landmark_epoch", feed, f -> f.current().landmarkEpoch()).register(registry);
    Gauge.builder("reed_index_age_seconds", feed,
        f -> Duration.between(f.current().builtAt(), config.clock().instant()).toMillis() / 1000.0).register(registry);
    FunctionCounter.builder("reed_index_invalid_records", feed, IndexFeed::invalidRecords).register(registry);
    FunctionCounter.builder("reed_index_records", feed, IndexFeed::recordsRead).register(registry);
    FunctionCounter.builder("reed_index_rebuilds", feed, IndexFeed::rebuilds).register(registry);
    for (IntegrityKind k : List.of(IntegrityKind.INTEGRITY_KIND_ANYCAST_OR_PROXY, IntegrityKind.INTEGRITY_KIND_INCONSISTENT,
        IntegrityKind.INTEGRITY_KIND_ANYCAST, IntegrityKind.INTEGRITY_KIND_PROXY)) {
      Gauge.builder("reed_servers_flagged", feed, f -> f.servers(k))
          .description("servers in the index the host integrity check flags, by kind")
          .tag("kind", k.name().substring("INTEGRITY_KIND_".length()).toLowerCase(java.util.Locale.ROOT)).register(registry);
    }
    if (anonymous != null && anonymous.buckets() != null) {
      FunctionCounter.builder("reed_api_anonymous_refused", anonymous.buckets(), b -> b.refused())
          .description("requests without an API key refused because their network prefix was over --anonymous-rate")
          .register(registry);
      FunctionCounter.builder("reed_api_anonymous_refused_table_full", anonymous.buckets(), b -> b.refusedTableFull())
          .description("of those, refused because the prefix table was full of active networks (a flood from many networks)")
          .register(registry);
      Gauge.builder("reed_api_anonymous_prefixes", anonymous.buckets(), b -> b.size())
          .description("network prefixes with an anonymous rate bucket held").register(registry);
    }
    Gauge.builder("reed_landmarks_quarantined", feed, f -> f.current().quarantinedLandmarks().size())
        .description("landmarks the leader quarantined for RTTs inconsistent with the others'").register(registry);
    // the index's templates live in append-only chunks that compaction keeps near their live bytes
    Gauge.builder("reed_index_template_bytes", feed, f -> f.templateChunks().held())
        .description("bytes the index's template chunks hold, dead templates included (compaction keeps it near twice the live bytes)")
        .register(registry);
    Gauge.builder("reed_index_template_live_bytes", feed, f -> f.templateChunks().live())
        .description("bytes of the templates of the servers in the index now").register(registry);
    if (geoTraining != null) {
      for (HostLocations.Reason r : HostLocations.Reason.values()) {
        FunctionCounter.builder("reed_geo_locations_ignored", locations, l -> l.ignored(r))
            .description("host locations ignored (each logged once): out of range, contradicted by RTTs, lookup failed")
            .tag("reason", r.name().toLowerCase(java.util.Locale.ROOT)).register(registry);
      }
      FunctionCounter.builder("reed_geo_lookup_failures", locator, IpLocator::failedLookups)
          .description("database lookups that failed (answered empty), clients' included").register(registry);
      FunctionCounter.builder("reed_geo_trainings", geoTraining, GeoTraining::trainings).register(registry);
      FunctionCounter.builder("reed_geo_trainings_skipped", geoTraining, GeoTraining::skipped)
          .description("rounds not trained on because the previous training still ran").register(registry);
      Gauge.builder("reed_geo_training_seconds", geoTraining, t -> t.lastTrainingNanos() / 1e9).register(registry);
      Gauge.builder("reed_geo_trained_servers", geoTraining, GeoTraining::lastTrainedServers).register(registry);
      Gauge.builder("reed_geo_located_servers", geoTraining,
          t -> t.current().servers().values().stream().filter(HostGeo::located).count()).register(registry);
      Gauge.builder("reed_geo_cv_relative_error", geoTraining, t -> t.current().errors().geoAndCoordinates())
          .description("median relative error of the served fused prediction in cross-validation").register(registry);
    }
    if (reportIntake != null) registerReportMetrics();
  }

  /** What only an ingesting replica has: its share of reed.samples, its rounds, leadership, the master front ends. */
  private void registerIngestMetrics(DeadLetters deadLetters, SampleIngest ingest, TargetPositioning positioning) {
    FunctionCounter.builder("reed_ingest_samples", ingest, i -> i.counters().samples())
        .description("valid RTT samples ingested").register(registry);
    FunctionCounter.builder("reed_ingest_mesh_samples", ingest, i -> i.counters().meshSamples())
        .description("valid mesh samples ingested").register(registry);
    FunctionCounter.builder("reed_ingest_seeded_targets", ingest, SampleIngest::seededTargets)
        .description("targets taken over from another replica, seeded with the minima it published").register(registry);
    FunctionCounter.builder("reed_dead_letters", deadLetters, DeadLetters::count)
        .description("records refused and sent to reed.dead-letter").register(registry);
    FunctionCounter.builder("reed_rounds", loop, RoundLoop::rounds).description("rounds completed").register(registry);
    FunctionCounter.builder("reed_targets_positioned", loop, RoundLoop::positioned).register(registry);
    FunctionCounter.builder("reed_coordinates_published", loop, RoundLoop::published).register(registry);
    Gauge.builder("reed_round_seconds", loop, l -> l.lastRoundNanos() / 1e9).description("duration of the last round")
        .register(registry);
    Gauge.builder("reed_window_targets", windows, TargetWindows::size).description("targets with windows here")
        .register(registry);
    Gauge.builder("reed_window_bytes", windows, w -> w.windows().bytesAllocated()).register(registry);
    Gauge.builder("reed_positioning_held_bytes", positioning, p -> p.publishedChunks().held())
        .description("bytes the chunks of this replica's last published coordinates hold, dead ones included "
            + "(compaction keeps it near twice the live bytes)").register(registry);
    Gauge.builder("reed_positioning_live_bytes", positioning, p -> p.publishedChunks().live())
        .description("bytes of this replica's last published coordinate per owned target").register(registry);
    Gauge.builder("reed_leader", leader, l -> l.isLeader() ? 1 : 0).register(registry);
    FunctionCounter.builder("reed_landmark_checks", loop, RoundLoop::landmarkChecks)
        .description("landmark rounds the lying-landmark check judged (leader)").register(registry);
    // 1 = quarantined, 0 = serving, per landmark of the current epoch: every replica reads the same published set
    MultiGauge perLandmark = MultiGauge.builder("reed_landmark_quarantined")
        .description("1 while the landmark is quarantined, 0 while it is an anchor").register(registry);
    loop.afterRound(() -> {
      ServingState s = feed.current();
      List<MultiGauge.Row<?>> rows = new ArrayList<>();
      s.landmarks().keySet().forEach(id -> rows.add(MultiGauge.Row.of(Tags.of("landmark", id), 0)));
      s.quarantinedLandmarks().keySet().forEach(id -> rows.add(MultiGauge.Row.of(Tags.of("landmark", id), 1)));
      perLandmark.register(rows, true);
    });
    if (quake3Master != null) {
      FunctionCounter.builder("reed_q3_master_heartbeats", quake3Master, m -> m.counters().heartbeats()).register(registry);
      FunctionCounter.builder("reed_q3_master_registered", quake3Master, m -> m.counters().registered()).register(registry);
      FunctionCounter.builder("reed_q3_master_rejected", quake3Master, m -> m.counters().rejected()).register(registry);
      FunctionCounter.builder("reed_q3_master_list_requests", quake3Master, m -> m.counters().listRequests())
          .register(registry);
    }
    if (valveMaster != null) {
      FunctionCounter.builder("reed_valve_master_requests", valveMaster, m -> m.counters().requests()).register(registry);
      FunctionCounter.builder("reed_valve_master_malformed", valveMaster, m -> m.counters().malformed()).register(registry);
    }
  }

  private void registerReportMetrics() {
    for (ReportIntake.Rejection r : ReportIntake.Rejection.values()) {
      FunctionCounter.builder("reed_client_reports_rejected", reportIntake, i -> i.rejected(r))
          .description("client reports refused (INVALID_ARGUMENT, UNAUTHENTICATED, RESOURCE_EXHAUSTED), by reason")
          .tag("reason", r.label()).register(registry);
    }
    FunctionCounter.builder("reed_client_reports_accepted", reportIntake, ReportIntake::accepted)
        .description("client reports published on reed.client-reports").register(registry);
    FunctionCounter.builder("reed_client_reports_publish_failures", reportIntake, ReportIntake::publishFailures)
        .description("client reports accepted but not published (answered UNAVAILABLE)").register(registry);
    FunctionCounter.builder("reed_client_reports_learned", reportLearning, ReportLearning::reports)
        .description("client reports read from reed.client-reports and screened").register(registry);
    FunctionCounter.builder("reed_client_report_rtts_kept", reportLearning, ReportLearning::kept)
        .description("reported RTTs believed and learned").register(registry);
    for (ReportScreen.Reason r : ReportScreen.Reason.values()) {
      FunctionCounter.builder("reed_client_report_rtts_dropped", reportLearning, l -> l.dropped(r))
          .description("reported RTTs screened out, by reason").tag("reason", r.name().toLowerCase(java.util.Locale.ROOT))
          .register(registry);
    }
    for (ReportLearning.Invalid k : ReportLearning.Invalid.values()) {
      FunctionCounter.builder("reed_client_report_records_invalid", reportLearning, l -> l.invalid(k))
          .description("reed.client-reports records skipped whole, by kind")
          .tag("kind", k.name().toLowerCase(java.util.Locale.ROOT)).register(registry);
    }
    FunctionCounter.builder("reed_client_report_observations_forgotten", reportLearning, ReportLearning::forgotten)
        .description("learned observations aged out").register(registry);
    Gauge.builder("reed_client_report_observations", corrections, NeighbourhoodCorrections::observations)
        .description("reported RTTs held for corrections").register(registry);
    Gauge.builder("reed_client_report_promoted_servers", corrections, NeighbourhoodCorrections::promotedServers)
        .description("servers that networks at different places report closer than predicted (an attack on the "
            + "ranking, or a server the landmarks misjudge); their predictions are not lowered")
        .register(registry);
    Gauge.builder("reed_client_report_servers", corrections, NeighbourhoodCorrections::servers)
        .description("servers with at least one reported RTT held").register(registry);
  }

  /** What client reports taught this replica; null when reports are off. */
  public NeighbourhoodCorrections reportCorrections() {
    return corrections;
  }

  /** The report consumer (counters); null when reports are off. */
  public ReportLearning reportLearning() {
    return reportLearning;
  }

  /** {@code /healthz}: serving only while the index is caught up and (unless serving only) the round loop runs. */
  private OpsServer.Health health() {
    if (closed) return new OpsServer.Health(false, "shutting down");
    if (loop != null && !loop.alive()) return new OpsServer.Health(false, "round loop stopped");
    if (locationTraining != null && !locationTraining.alive()) return new OpsServer.Health(false, "location training stopped");
    if (!feed.caughtUp()) return new OpsServer.Health(false, "index not caught up");
    if (ready == null || !ready.warmed()) return new OpsServer.Health(false, "index warming up");
    return new OpsServer.Health(true, "serving");
  }

  public CoordinatorConfig config() {
    return config;
  }

  public InetSocketAddress grpcAddress() {
    return api.address();
  }

  /** Where the HTTP face (JSON, gRPC-Web, the page) listens; null when off. */
  public InetSocketAddress httpAddress() {
    return http == null ? null : http.address();
  }

  /** The HTTP face's URL ({@code http://HOST:PORT/}, the page); null when off. */
  public String httpUrl() {
    return http == null ? null : http.url();
  }

  /**
   * Where addresses are and which AS announces them, from {@code --geoip} / {@code --asn};
   * {@link IpLocator#none()} when no database is configured. Closed with the replica.
   */
  public IpLocator locator() {
    return locator;
  }

  /** The newest location model ({@link GeoModel#NONE} without a location database). */
  public GeoModel geoModel() {
    return geoTraining == null ? GeoModel.NONE : geoTraining.current();
  }

  /** Where the Quake3 master front end listens; null when off. */
  public InetSocketAddress quake3MasterAddress() {
    return quake3Master == null ? null : quake3Master.localAddress();
  }

  /** Where the Valve master front end listens; null when off. */
  public InetSocketAddress valveMasterAddress() {
    return valveMaster == null ? null : valveMaster.localAddress();
  }

  /** What the index warm-up before readiness did; null until it ran. */
  public IndexWarmup.Result indexWarmup() {
    return ready == null ? null : ready.result();
  }

  /** Where /metrics and /healthz are served; null when off. */
  public InetSocketAddress metricsAddress() {
    return metrics == null ? null : metrics.address();
  }

  /** The state queries are served from right now. */
  /** Landmark rounds the lying-landmark check has judged on this replica (while leading; 0 otherwise). */
  long landmarkChecks() {
    return loop == null ? 0 : loop.landmarkChecks();
  }

  /** The leader's current quarantine decision (empty on a replica that is not leading). */
  Set<String> quarantineDecided() {
    return loop == null ? Set.of() : loop.quarantineDecided();
  }

  public ServingState servingState() {
    return feed.current();
  }

  public long roundsCompleted() {
    return loop == null ? 0 : loop.rounds();
  }

  public boolean isLeader() {
    return leader != null && leader.isLeader();
  }

  /** Targets whose windows this replica holds (its share of reed.samples). */
  public int targetsOwned() {
    return windows == null ? 0 : windows.size();
  }

  public PrometheusMeterRegistry meterRegistry() {
    return registry;
  }

  private void closeAfterFailedStart(LeaderElection injected) {
    close();
    if (injected != null && !resources.contains(injected)) injected.close();
  }

  @Override
  public void close() {
    if (closed) return;
    closed = true;
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        log.warn("closing {} failed: {}", resources.get(i), e.toString());
      }
    }
    log.info("coordinator {} stopped", config.leadership().identity());
  }
}
