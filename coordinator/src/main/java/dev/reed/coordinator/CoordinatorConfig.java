package dev.reed.coordinator;

import dev.reed.coordinates.CoordinateConfig;

import dev.reed.coordinates.integrity.QuarantineConfig;
import dev.reed.coordinator.index.write.IndexFeed;
import dev.reed.geo.GeoFiles;
import dev.reed.runtime.KafkaClients;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a {@link Coordinator} needs, as one value, by concern. Ports: -1 = off, 0 = pick a
 * free port (read the real one from the running {@link Coordinator}).
 *
 * <p>Every default is written once, in the {@code DEFAULT} of its part: the {@link Builder} starts
 * from them and {@link CoordinatorCommand} shows and applies them, so the command line, the
 * environment variables and the embedded coordinators of the tests and the demo agree.
 *
 * @param kafka where the broker is and how the replicas use it
 * @param bindAddress address every listener binds (gRPC, masters, metrics); default every interface
 * @param metricsPort HTTP port for /metrics and /healthz; -1 = off (the default)
 * @param api the gRPC API
 * @param rounds the coordinate space and the positioning rounds
 * @param catalog where targets come from
 * @param snapshots snapshot files
 * @param checkpoints the index's local checkpoint, which a restarted replica serves from (none by default)
 * @param leadership which replica embeds the landmarks
 * @param geo IP-to-location and IP-to-AS databases (none by default); opened at start. The command
 *     line never locates loopback addresses; the demo's embedded coordinator does, with the testbed's
 *     database of its emulated hosts
 * @param clock wall clock for every timestamp and schedule
 * @param http the HTTP face for web clients (JSON, gRPC-Web, the page); {@link Http#OFF} by default
 * @param reports client reports: on by default
 * @param integrity the host integrity check's tolerances: the measured defaults
 * @param serveOnly a serving replica: it reads the index topics (and, with location databases,
 *     the landmark mesh its location model trains on) and answers queries, but takes no share of
 *     reed.samples, positions nothing and never leads (false by default); more of them scale the
 *     reads alone
 */
public record CoordinatorConfig(
    Kafka kafka,
    String bindAddress,
    int metricsPort,
    Api api,
    Rounds rounds,
    Catalog catalog,
    Snapshots snapshots,
    IndexFeed.Checkpoints checkpoints,
    Leadership leadership,
    GeoFiles geo,
    Clock clock,
    Http http,
    Reports reports,
    Integrity integrity,
    boolean serveOnly) {

  public static final List<Integer> SUPPORTED_DIMENSIONS = dev.reed.runtime.options.DimensionsOption.SUPPORTED;

  /**
   * Kafka client settings the coordinator sets itself and {@code --kafka-config} cannot override:
   * where the broker is, how records are (de)serialized, how the replicas share reed.samples and
   * from where every reader starts, and the producer's delivery guarantees.
   */
  public static final Set<String> KAFKA_OWNED_KEYS = Set.of("bootstrap.servers", "group.id", "key.serializer",
      "value.serializer", "key.deserializer", "value.deserializer", "enable.auto.commit", "isolation.level",
      "auto.offset.reset", "transactional.id", "acks", "enable.idempotence");

  /** Listeners bind every interface by default (containers; tests and the demo use loopback). */
  public static final String DEFAULT_BIND_ADDRESS = "0.0.0.0";
  /** No metrics endpoint unless asked: the images set 9464. */
  public static final int DEFAULT_METRICS_PORT = -1;

  public CoordinatorConfig {
    Objects.requireNonNull(kafka, "kafka");
    Objects.requireNonNull(bindAddress, "bindAddress");
    checkPort("metrics port", metricsPort);
    Objects.requireNonNull(api, "api");
    Objects.requireNonNull(rounds, "rounds");
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(snapshots, "snapshots");
    Objects.requireNonNull(checkpoints, "checkpoints");
    Objects.requireNonNull(leadership, "leadership");
    Objects.requireNonNull(geo, "geo");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(http, "http");
    Objects.requireNonNull(reports, "reports");
    Objects.requireNonNull(integrity, "integrity");
  }

  /**
   * The host integrity check: each server's landmark RTTs against the landmark mesh,
   * every round (coordinator README, "Hosts that lie").
   *
   * @param config the tolerances ({@code --integrity-config FILE}, coordinator/config/integrity.properties)
   */
  public record Integrity(dev.reed.coordinates.integrity.IntegrityConfig config) {
    /** The tolerances measured on planetlab490, seattle99 and azure54 (docs/research/host-integrity.md). */
    public static final Integrity DEFAULT = new Integrity(dev.reed.coordinates.integrity.IntegrityConfig.defaults());

    public Integrity {
      Objects.requireNonNull(config, "config");
    }
  }

  /**
   * The HTTP face of reed.v1 for web clients: HTTP/JSON (proto3 JSON mapping), gRPC-Web and gRPC
   * on one port, with the same services, API keys and rate limits as the gRPC port, plus the web
   * page at {@code /}.
   *
   * @param address where it listens ({@code --http ADDR:PORT}); null = off
   * @param corsOrigins origins whose pages may call it from another origin ({@code --cors-origin});
   *     {@code *} = any; empty = same origin only
   * @param wsOverheadMs what a WebSocket echo RTT adds to a UDP query RTT to the same landmark, in
   *     milliseconds ({@code --ws-overhead-ms}); subtracted from Locate measurements with
   *     transport TRANSPORT_WEBSOCKET. Measured on loopback as negligible (coordinator README).
   */
  public record Http(java.net.InetSocketAddress address, List<String> corsOrigins, double wsOverheadMs) {
    public static final Http OFF = new Http(null, List.of(), 0);

    public Http {
      corsOrigins = corsOrigins == null ? List.of()
          : corsOrigins.stream().map(String::strip).filter(o -> !o.isEmpty()).toList();
      for (String o : corsOrigins) {
        if (!o.equals("*") && !o.matches("https?://[^/\\s]+")) {
          throw new IllegalArgumentException("--cors-origin is * or SCHEME://HOST[:PORT] without a path, e.g. "
              + "https://servers.example, got '" + o + "'");
        }
      }
      if (!(wsOverheadMs >= 0 && wsOverheadMs < 100)) {
        throw new IllegalArgumentException("--ws-overhead-ms must be 0-100 ms, got " + wsOverheadMs);
      }
    }
  }

  /**
   * Client reports: ReportMeasurements, reed.client-reports and the report_factor on
   * ranked servers.
   *
   * @param enabled accept reports and learn from them ({@code --[no-]reports}); off: the call is
   *     FAILED_PRECONDITION and no factor is served
   * @param keyFile the secret the group keys are hashed with ({@code --report-key-file}, at least 16
   *     bytes); null = a random key per process (replicas then cap sources separately)
   * @param config the learning parameters ({@code --reports-config FILE}, coordinator/config/reports.properties)
   */
  public record Reports(boolean enabled, Path keyFile, dev.reed.coordinates.reports.ReportConfig config) {
    /** Defaults: on, a random key, the measured ReportConfig defaults. */
    public static final Reports DEFAULT = new Reports(true, null, dev.reed.coordinates.reports.ReportConfig.defaults());

    public Reports {
      Objects.requireNonNull(config, "config");
    }
  }

  /**
   * Kafka.
   *
   * @param bootstrap bootstrap servers, e.g. {@code 127.0.0.1:9092}; no default
   * @param properties further client settings (TLS, SASL) applied to every Kafka client the
   *     coordinator creates; keys in {@link #KAFKA_OWNED_KEYS} are refused
   * @param groupId consumer group the replicas share reed.samples in
   */
  public record Kafka(String bootstrap, Map<String, String> properties, String groupId) {
    /** The consumer group when none is given; the bootstrap has no default and extra properties are none. */
    public static final String DEFAULT_GROUP_ID = "reed-coordinator";

    public Kafka {
      Objects.requireNonNull(bootstrap, "bootstrap");
      if (bootstrap.isBlank()) throw new IllegalArgumentException("--kafka is required (HOST:PORT)");
      properties = properties == null ? Map.of() : Map.copyOf(properties);
      for (String key : properties.keySet()) {
        if (KAFKA_OWNED_KEYS.contains(key)) {
          throw new IllegalArgumentException("Kafka setting '" + key + "' is set by the coordinator and cannot be overridden");
        }
      }
      Objects.requireNonNull(groupId, "groupId");
    }

    /** The factory of every Kafka client the coordinator creates. */
    public KafkaClients clients() {
      return new KafkaClients(bootstrap, properties);
    }
  }

  /**
   * The gRPC API (ReedService, SnapshotService).
   *
   * @param grpcPort gRPC port
   * @param tlsCert PEM certificate chain for TLS; null = plaintext
   * @param tlsKey PEM private key (PKCS#8) for TLS
   * @param apiKeysFile file of {@code KEY [requests-per-second]} lines; null = no authentication
   * @param calibrationMaxError game servers with a larger relative fit error never calibrate
   * @param calibrationRotation how long one calibration set is served before rotating
   * @param trustedProxies addresses or CIDR blocks of proxies whose X-Forwarded-For header names
   *     the client for its location prior ({@code --trusted-proxy}); empty = the connection's peer only
   * @param anonymousRate requests per second per network prefix (/24 of IPv4, /56 of IPv6; burst two
   *     seconds' worth) for calls without an API key, on the gRPC port and the HTTP face (its static
   *     files too) ({@code --anonymous-rate}); {@code Double.POSITIVE_INFINITY} = no limit; 0 = calls
   *     without a key are refused (needs {@code apiKeysFile}); NaN = as embedders had it before the
   *     limit: no limit without keys, refused with them ({@link #anonymous()})
   * @param logClientAddresses client addresses may appear in log lines ({@code --log-client-addresses})
   */
  public record Api(int grpcPort, Path tlsCert, Path tlsKey, Path apiKeysFile, double calibrationMaxError,
      Duration calibrationRotation, List<String> trustedProxies, double anonymousRate, boolean logClientAddresses) {
    /**
     * Defaults: gRPC on 50051 (the port gRPC examples use), plaintext, no keys; calibration
     * servers with a relative fit error up to 0.15, each set served 10 minutes; no trusted proxy
     * (a header anyone can write never moves a client's location unless the operator says so).
     */
    public static final Api DEFAULT = new Api(50051, null, null, null, 0.15, Duration.ofMinutes(10), List.of(),
        Double.NaN, false);

    /**
     * What {@code ./reed coordinator} serves anonymous clients by default: 20 requests/s per prefix,
     * burst 40. A page's discovery is a Locate and a few ListServers pages plus its static files;
     * the builder's default is no limit (keys required when it has keys), for tests and the demo
     * where every emulated client shares 127.0.0.0/24.
     */
    public static final double DEFAULT_ANONYMOUS_RATE = 20;

    /** {@link #anonymousRate()} with NaN resolved: infinite (no limit), 0 (refused) or a rate. */
    public double anonymous() {
      if (!Double.isNaN(anonymousRate)) return anonymousRate;
      return apiKeysFile == null ? Double.POSITIVE_INFINITY : 0;
    }

    public Api {
      checkPort("grpc port", grpcPort);
      if ((tlsCert == null) != (tlsKey == null)) throw new IllegalArgumentException("--tls-cert and --tls-key go together");
      if (!(calibrationMaxError > 0)) throw new IllegalArgumentException("calibration-max-error must be > 0");
      positive("calibration-rotation", calibrationRotation);
      trustedProxies = List.copyOf(trustedProxies == null ? List.of() : trustedProxies);
      dev.reed.runtime.DenyList.parse("--trusted-proxy", trustedProxies); // a bad block is an error now, naming it
      if (!(anonymousRate >= 0) && !Double.isNaN(anonymousRate)) throw new IllegalArgumentException("--anonymous-rate must be >= 0 requests/s: " + anonymousRate);
      if (anonymousRate == 0 && apiKeysFile == null) {
        throw new IllegalArgumentException("--anonymous-rate 0 refuses every call without an API key: it needs --api-keys");
      }
    }
  }

  /**
   * The coordinate space and the rounds that fill it.
   *
   * @param dimensions coordinate dimensions (one of {@link #SUPPORTED_DIMENSIONS})
   * @param height 2-D+height style height model on
   * @param interval how often the coordinator embeds landmarks and positions targets
   * @param window landmark rounds per (landmark, target) window
   * @param replay how far back samples are replayed on start to rebuild the windows
   * @param expireAfter targets unheard this long are deleted (tombstone on reed.coordinates)
   * @param minMeshPeers a landmark needs mesh RTTs to at least this many peers to be embedded
   * @param quarantine the lying-landmark check (defaults and their reasons in
   *     {@link QuarantineConfig}); {@link QuarantineConfig#off()} = off
   */
  public record Rounds(int dimensions, boolean height, Duration interval, int window, Duration replay,
      Duration expireAfter, int minMeshPeers, QuarantineConfig quarantine) {
    /**
     * Defaults: the coordinate engine's model ({@link CoordinateConfig#defaults()}: 4 dimensions
     * without height, what {@code ./reed eval} measures by default), a round every 30 s, windows of 8
     * landmark rounds, 45 minutes replayed (more than 8 agent rounds of 5 minutes), targets
     * expire after 30 minutes unheard, a landmark needs 2 mesh peers.
     */
    public static final Rounds DEFAULT = new Rounds(CoordinateConfig.defaults().dimensions(),
        CoordinateConfig.defaults().height(), Duration.ofSeconds(30), 8, Duration.ofMinutes(45),
        Duration.ofMinutes(30), 2, QuarantineConfig.defaults());

    public Rounds {
      if (!SUPPORTED_DIMENSIONS.contains(dimensions)) {
        throw new IllegalArgumentException("dimensions must be one of " + SUPPORTED_DIMENSIONS + ": " + dimensions);
      }
      positive("round-interval", interval);
      if (window < 1 || window > 64) throw new IllegalArgumentException("window-rounds must be 1-64: " + window);
      positive("replay", replay);
      positive("expire-after", expireAfter);
      if (minMeshPeers < 1) throw new IllegalArgumentException("min-mesh-peers must be >= 1");
      Objects.requireNonNull(quarantine, "quarantine");
    }
  }

  /**
   * Where targets come from.
   *
   * @param targetsFile static target list ({@code q3 HOST:PORT} / {@code a2s HOST:PORT}); null = none
   * @param denyFile addresses, blocks and endpoints never probed ({@link dev.reed.runtime.DenyList}); null = none
   * @param quake3MasterPort Quake3 master front end UDP port; -1 = off
   * @param valveMasterPort Valve master-query front end UDP port; -1 = off
   * @param crawlMasters external masters to crawl: {@code q3 HOST:PORT} or {@code valve HOST:PORT}
   * @param crawlEvery interval between crawls of each external master
   * @param heartbeatExpiry Quake3 heartbeat targets not renewed this long leave the catalog
   */
  public record Catalog(Path targetsFile, Path denyFile, int quake3MasterPort, int valveMasterPort,
      List<String> crawlMasters, Duration crawlEvery, Duration heartbeatExpiry) {
    /**
     * Defaults: no files, the masters on their games' standard ports (27950 Quake3, 27011 Valve),
     * no crawling, a crawl every 10 minutes when asked, heartbeats expire after 15 minutes
     * (Quake3 servers heartbeat every 5).
     */
    public static final Catalog DEFAULT = new Catalog(null, null, 27950, 27011, List.of(), Duration.ofMinutes(10),
        Duration.ofMinutes(15));

    public Catalog {
      checkPort("quake3 master port", quake3MasterPort);
      checkPort("valve master port", valveMasterPort);
      crawlMasters = List.copyOf(crawlMasters == null ? List.of() : crawlMasters);
      positive("crawl-every", crawlEvery);
      positive("heartbeat-expiry", heartbeatExpiry);
    }
  }

  /**
   * Snapshot files.
   *
   * @param dir where snapshot files go; null = no snapshot files
   * @param every how often snapshot files are written
   * @param keep snapshot generations kept
   */
  public record Snapshots(Path dir, Duration every, int keep) {
    /** Defaults: off; when on, every 5 minutes, the last 12 kept (an hour). */
    public static final Snapshots DEFAULT = new Snapshots(null, Duration.ofMinutes(5), 12);

    public Snapshots {
      positive("snapshot-every", every);
      if (keep < 1) throw new IllegalArgumentException("snapshot-keep must be >= 1: " + keep);
    }
  }

  /**
   * Leader election: the leader embeds the landmarks, every replica positions targets.
   *
   * @param election "standalone", "kubernetes", "auto" (kubernetes when in a pod) or "file" (an
   *     exclusive lock on {@code leaseFile}: several replicas on one machine without Kubernetes)
   * @param leaseNamespace namespace of the Lease (kubernetes)
   * @param leaseName name of the Lease (kubernetes)
   * @param identity this replica's name; null = the pod name, else host name and process id
   * @param leaseFile the lock file (file); null otherwise
   */
  public record Leadership(String election, String leaseNamespace, String leaseName, String identity, Path leaseFile) {
    /** Defaults: auto, Lease {@code reed/reed-coordinator-leader} (the manifests' names), identity from the process. */
    public static final Leadership DEFAULT = new Leadership("auto", "reed", "reed-coordinator-leader", null, null);

    public Leadership {
      if (!List.of("standalone", "kubernetes", "auto", "file").contains(election)) {
        throw new IllegalArgumentException("leader-election must be standalone, kubernetes, auto or file: " + election);
      }
      if (election.equals("file") && leaseFile == null) {
        throw new IllegalArgumentException("leader-election file needs a lease file (--lease-file)");
      }
      Objects.requireNonNull(leaseNamespace, "leaseNamespace");
      Objects.requireNonNull(leaseName, "leaseName");
      if (identity == null) identity = processIdentity();
    }

    private static String processIdentity() {
      String pod = System.getenv("POD_NAME");
      if (pod != null && !pod.isBlank()) return pod;
      String host = System.getenv("HOSTNAME");
      return (host == null || host.isBlank() ? "coordinator" : host) + "-" + ProcessHandle.current().pid();
    }
  }

  private static void checkPort(String what, int port) {
    if (port < -1 || port > 65535) throw new IllegalArgumentException(what + " must be -1 (off), 0 (free) or 1-65535: " + port);
  }

  private static void positive(String what, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) throw new IllegalArgumentException(what + " must be > 0: " + d);
  }

  /** The defaults for everything but the broker. */
  public static Builder builder(String kafkaBootstrap) {
    return new Builder(kafkaBootstrap);
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Builder starting from the {@code DEFAULT}s, one setter per setting, for code that embeds a
   * coordinator (tests, the demo); {@link #build} validates.
   */
  public static final class Builder {
    private final String kafkaBootstrap;
    private Map<String, String> kafkaProperties;
    private String groupId;
    private String bindAddress;
    private int metricsPort;
    private int grpcPort;
    private Path tlsCert;
    private Path tlsKey;
    private Path apiKeysFile;
    private double calibrationMaxError;
    private Duration calibrationRotation;
    private List<String> trustedProxies;
    private double anonymousRate;
    private boolean logClientAddresses;
    private int dimensions;
    private boolean height;
    private Duration roundInterval;
    private int window;
    private Duration replay;
    private Duration expireAfter;
    private int minMeshPeers;
    private QuarantineConfig quarantine;
    private Path targetsFile;
    private Path denyFile;
    private int quake3MasterPort;
    private int valveMasterPort;
    private List<String> crawlMasters;
    private Duration crawlEvery;
    private Duration heartbeatExpiry;
    private Path snapshotDir;
    private Duration snapshotEvery;
    private int snapshotKeep;
    private IndexFeed.Checkpoints checkpoints;
    private String leaderElection;
    private String leaseNamespace;
    private String leaseName;
    private String identity;
    private Path leaseFile;
    private GeoFiles geo;
    private Clock clock;
    private java.net.InetSocketAddress http;
    private List<String> corsOrigins;
    private double wsOverheadMs;
    private boolean reports;
    private Path reportKeyFile;
    private dev.reed.coordinates.reports.ReportConfig reportConfig;
    private dev.reed.coordinates.integrity.IntegrityConfig integrityConfig;
    private boolean serveOnly;

    private Builder(String kafkaBootstrap) {
      this(new CoordinatorConfig(new Kafka(kafkaBootstrap, Map.of(), Kafka.DEFAULT_GROUP_ID), DEFAULT_BIND_ADDRESS, DEFAULT_METRICS_PORT, Api.DEFAULT, Rounds.DEFAULT, Catalog.DEFAULT,
          Snapshots.DEFAULT, IndexFeed.Checkpoints.NONE, Leadership.DEFAULT, GeoFiles.NONE, Clock.systemUTC(), Http.OFF, Reports.DEFAULT,
          Integrity.DEFAULT, false));
    }

    private Builder(CoordinatorConfig c) {
      kafkaBootstrap = c.kafka.bootstrap();
      kafkaProperties = c.kafka.properties();
      groupId = c.kafka.groupId();
      bindAddress = c.bindAddress;
      metricsPort = c.metricsPort;
      grpcPort = c.api.grpcPort();
      tlsCert = c.api.tlsCert();
      tlsKey = c.api.tlsKey();
      apiKeysFile = c.api.apiKeysFile();
      calibrationMaxError = c.api.calibrationMaxError();
      calibrationRotation = c.api.calibrationRotation();
      trustedProxies = c.api.trustedProxies();
      anonymousRate = c.api.anonymousRate();
      logClientAddresses = c.api.logClientAddresses();
      dimensions = c.rounds.dimensions();
      height = c.rounds.height();
      roundInterval = c.rounds.interval();
      window = c.rounds.window();
      replay = c.rounds.replay();
      expireAfter = c.rounds.expireAfter();
      minMeshPeers = c.rounds.minMeshPeers();
      quarantine = c.rounds.quarantine();
      targetsFile = c.catalog.targetsFile();
      denyFile = c.catalog.denyFile();
      quake3MasterPort = c.catalog.quake3MasterPort();
      valveMasterPort = c.catalog.valveMasterPort();
      crawlMasters = c.catalog.crawlMasters();
      crawlEvery = c.catalog.crawlEvery();
      heartbeatExpiry = c.catalog.heartbeatExpiry();
      snapshotDir = c.snapshots.dir();
      snapshotEvery = c.snapshots.every();
      snapshotKeep = c.snapshots.keep();
      checkpoints = c.checkpoints;
      leaderElection = c.leadership.election();
      leaseNamespace = c.leadership.leaseNamespace();
      leaseName = c.leadership.leaseName();
      identity = c.leadership.identity();
      leaseFile = c.leadership.leaseFile();
      geo = c.geo;
      clock = c.clock;
      http = c.http.address();
      corsOrigins = c.http.corsOrigins();
      wsOverheadMs = c.http.wsOverheadMs();
      reports = c.reports.enabled();
      reportKeyFile = c.reports.keyFile();
      reportConfig = c.reports.config();
      integrityConfig = c.integrity.config();
      serveOnly = c.serveOnly;
    }

    public Builder kafkaProperties(Map<String, String> v) { kafkaProperties = v; return this; }
    public Builder groupId(String v) { groupId = v; return this; }
    public Builder bindAddress(String v) { bindAddress = v; return this; }
    public Builder metricsPort(int v) { metricsPort = v; return this; }
    public Builder grpcPort(int v) { grpcPort = v; return this; }
    public Builder tls(Path cert, Path key) { tlsCert = cert; tlsKey = key; return this; }
    public Builder apiKeysFile(Path v) { apiKeysFile = v; return this; }
    public Builder calibrationMaxError(double v) { calibrationMaxError = v; return this; }
    public Builder calibrationRotation(Duration v) { calibrationRotation = v; return this; }
    /** Proxies (addresses, CIDR blocks) whose X-Forwarded-For is believed ({@code --trusted-proxy}). */
    public Builder trustedProxies(List<String> v) { trustedProxies = v; return this; }
    /**
     * Requests/s per network prefix without an API key; infinite = no limit, 0 = refused; NaN (the
     * default): no limit without {@link #apiKeysFile}, refused with it.
     */
    public Builder anonymousRate(double v) { anonymousRate = v; return this; }
    public Builder logClientAddresses(boolean v) { logClientAddresses = v; return this; }
    public Builder dimensions(int v) { dimensions = v; return this; }
    public Builder height(boolean v) { height = v; return this; }
    public Builder roundInterval(Duration v) { roundInterval = v; return this; }
    public Builder window(int v) { window = v; return this; }
    public Builder replay(Duration v) { replay = v; return this; }
    public Builder expireAfter(Duration v) { expireAfter = v; return this; }
    public Builder minMeshPeers(int v) { minMeshPeers = v; return this; }
    /** The lying-landmark check's settings (tests shorten nothing here: the check counts rounds, not time). */
    public Builder quarantine(QuarantineConfig v) { quarantine = v; return this; }
    public Builder targetsFile(Path v) { targetsFile = v; return this; }
    public Builder denyFile(Path v) { denyFile = v; return this; }
    public Builder quake3MasterPort(int v) { quake3MasterPort = v; return this; }
    public Builder valveMasterPort(int v) { valveMasterPort = v; return this; }
    public Builder crawlMasters(List<String> v) { crawlMasters = v; return this; }
    public Builder crawlEvery(Duration v) { crawlEvery = v; return this; }
    public Builder heartbeatExpiry(Duration v) { heartbeatExpiry = v; return this; }
    public Builder snapshotDir(Path v) { snapshotDir = v; return this; }
    public Builder snapshotEvery(Duration v) { snapshotEvery = v; return this; }
    public Builder snapshotKeep(int v) { snapshotKeep = v; return this; }
    /** The index's local checkpoint ({@code --index-checkpoint}); {@link IndexFeed.Checkpoints#NONE} = none. */
    public Builder checkpoints(IndexFeed.Checkpoints v) { checkpoints = v; return this; }
    public Builder leaderElection(String v) { leaderElection = v; return this; }
    public Builder lease(String namespace, String name) { leaseNamespace = namespace; leaseName = name; return this; }
    public Builder identity(String v) { identity = v; return this; }
    /** The lock file of {@code leaderElection("file")}. */
    public Builder leaseFile(Path v) { leaseFile = v; return this; }
    public Builder clock(Clock v) { clock = v; return this; }
    /** The HTTP face's address ({@code --http}); null = off. */
    public Builder http(java.net.InetSocketAddress v) { http = v; return this; }
    /** Origins allowed to call the HTTP face from other pages ({@code --cors-origin}); {@code *} = any. */
    public Builder corsOrigins(List<String> v) { corsOrigins = v; return this; }
    /** Subtracted from WebSocket RTTs in Locate ({@code --ws-overhead-ms}). */
    public Builder wsOverheadMs(double v) { wsOverheadMs = v; return this; }
    /** Client reports on or off ({@code --[no-]reports}). */
    public Builder reports(boolean v) { reports = v; return this; }
    /** The group keys' secret ({@code --report-key-file}); null = random per process. */
    public Builder reportKeyFile(Path v) { reportKeyFile = v; return this; }
    /** How client reports are learned from ({@code --reports-config}). */
    public Builder reportConfig(dev.reed.coordinates.reports.ReportConfig v) { reportConfig = v; return this; }
    /** The host integrity check's tolerances ({@code --integrity-config}). */
    public Builder integrityConfig(dev.reed.coordinates.integrity.IntegrityConfig v) { integrityConfig = v; return this; }
    /** Location and AS database files ({@code --geoip}, {@code --asn}); checked when the coordinator starts. */
    public Builder geo(List<Path> locationFiles, List<Path> asnFiles) { geo = GeoFiles.of(locationFiles, asnFiles); return this; }
    /** The databases as a whole, e.g. the testbed's {@code HostLocationsCsv.geoFiles(file)} for the demo. */
    public Builder geo(GeoFiles v) { geo = v; return this; }

    /** A serving replica ({@code --serve-only}): the index and the API, no ingest, no positioning, no leadership. */
    public Builder serveOnly(boolean v) { serveOnly = v; return this; }

    /** Loopback listeners on free ports: what tests, the demo and the client SDK tests use. */
    public Builder loopbackEphemeral() {
      return bindAddress("127.0.0.1").grpcPort(0).quake3MasterPort(0).valveMasterPort(0).leaderElection("standalone");
    }

    public CoordinatorConfig build() {
      return new CoordinatorConfig(new Kafka(kafkaBootstrap, kafkaProperties, groupId), bindAddress, metricsPort,
          new Api(grpcPort, tlsCert, tlsKey, apiKeysFile, calibrationMaxError, calibrationRotation, trustedProxies,
              anonymousRate, logClientAddresses),
          new Rounds(dimensions, height, roundInterval, window, replay, expireAfter, minMeshPeers, quarantine),
          new Catalog(targetsFile, denyFile, quake3MasterPort, valveMasterPort, crawlMasters, crawlEvery, heartbeatExpiry),
          new Snapshots(snapshotDir, snapshotEvery, snapshotKeep), checkpoints,
          new Leadership(leaderElection, leaseNamespace, leaseName, identity, leaseFile), geo, clock,
          new Http(http, corsOrigins, wsOverheadMs),
          new Reports(reports, reportKeyFile, reportConfig),
          new Integrity(integrityConfig), serveOnly);
    }
  }
}
