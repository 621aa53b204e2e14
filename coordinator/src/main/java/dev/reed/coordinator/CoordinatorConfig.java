package dev.reed.coordinator;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a {@link Coordinator} needs, as one value. Ports: -1 = off, 0 = pick a free port
 * (read the real one from the running {@link Coordinator}).
 *
 * @param kafkaBootstrap Kafka bootstrap servers, e.g. {@code 127.0.0.1:9092}
 * @param kafkaProperties further Kafka client settings (TLS, SASL) applied to every Kafka client the
 *     coordinator creates; keys in {@link #KAFKA_OWNED_KEYS} are refused
 * @param bindAddress address every listener binds (gRPC, masters, metrics)
 * @param grpcPort gRPC port (default 50051)
 * @param metricsPort HTTP port for /metrics and /healthz; -1 = off
 * @param dimensions coordinate dimensions (2, 3, 4, 5, 8, 10; default 4, the paper's best)
 * @param height 2-D+height style height model on
 * @param snapshotDir where snapshot files go; null = no snapshot files
 * @param snapshotEvery how often snapshot files are written
 * @param snapshotKeep snapshot generations kept
 * @param targetsFile static target list ({@code q3 HOST:PORT} / {@code a2s HOST:PORT}); null = none
 * @param denyFile addresses, blocks and endpoints never probed ({@link dev.reed.runtime.DenyList}); null = none
 * @param quake3MasterPort Quake3 master front end UDP port; -1 = off
 * @param valveMasterPort Valve master-query front end UDP port; -1 = off
 * @param crawlMasters external masters to crawl: {@code q3 HOST:PORT} or {@code valve HOST:PORT}
 * @param crawlEvery interval between crawls of each external master
 * @param tlsCert PEM certificate chain for gRPC TLS; null = plaintext
 * @param tlsKey PEM private key (PKCS#8) for gRPC TLS
 * @param apiKeysFile file of {@code KEY [requests-per-second]} lines; null = no authentication
 * @param roundInterval how often the coordinator embeds landmarks and positions targets
 * @param window landmark rounds per (landmark, target) window
 * @param replay how far back samples are replayed on start to rebuild the windows
 * @param expireAfter targets unheard this long are deleted (tombstone on reed.coordinates)
 * @param heartbeatExpiry Quake3 heartbeat targets not renewed this long leave the catalog
 * @param minMeshPeers a landmark needs mesh RTTs to at least this many peers to be embedded
 * @param calibrationMaxError game servers with a larger relative fit error never calibrate
 * @param calibrationRotation how long one calibration set is served before rotating
 * @param groupId consumer group the replicas share reed.samples in
 * @param leaderElection "standalone", "kubernetes", or "auto" (kubernetes when in a pod)
 * @param leaseNamespace namespace of the Lease (kubernetes)
 * @param leaseName name of the Lease (kubernetes)
 * @param identity this replica's name (pod name in Kubernetes)
 * @param clock wall clock for every timestamp and schedule
 */
public record CoordinatorConfig(
    String kafkaBootstrap,
    Map<String, String> kafkaProperties,
    String bindAddress,
    int grpcPort,
    int metricsPort,
    int dimensions,
    boolean height,
    Path snapshotDir,
    Duration snapshotEvery,
    int snapshotKeep,
    Path targetsFile,
    Path denyFile,
    int quake3MasterPort,
    int valveMasterPort,
    List<String> crawlMasters,
    Duration crawlEvery,
    Path tlsCert,
    Path tlsKey,
    Path apiKeysFile,
    Duration roundInterval,
    int window,
    Duration replay,
    Duration expireAfter,
    Duration heartbeatExpiry,
    int minMeshPeers,
    double calibrationMaxError,
    Duration calibrationRotation,
    String groupId,
    String leaderElection,
    String leaseNamespace,
    String leaseName,
    String identity,
    Clock clock) {

  public static final List<Integer> SUPPORTED_DIMENSIONS = List.of(2, 3, 4, 5, 8, 10);

  /**
   * Kafka client settings the coordinator sets itself and {@code --kafka-config} cannot override:
   * where the broker is, how records are (de)serialized, how the replicas share reed.samples and
   * from where every reader starts, and the producer's delivery guarantees.
   */
  public static final Set<String> KAFKA_OWNED_KEYS = Set.of("bootstrap.servers", "group.id", "key.serializer",
      "value.serializer", "key.deserializer", "value.deserializer", "enable.auto.commit", "isolation.level",
      "auto.offset.reset", "transactional.id", "acks", "enable.idempotence");

  public CoordinatorConfig {
    Objects.requireNonNull(kafkaBootstrap, "kafkaBootstrap");
    if (kafkaBootstrap.isBlank()) throw new IllegalArgumentException("--kafka is required (HOST:PORT)");
    kafkaProperties = kafkaProperties == null ? Map.of() : Map.copyOf(kafkaProperties);
    for (String key : kafkaProperties.keySet()) {
      if (KAFKA_OWNED_KEYS.contains(key)) {
        throw new IllegalArgumentException("Kafka setting '" + key + "' is set by the coordinator and cannot be overridden");
      }
    }
    Objects.requireNonNull(bindAddress, "bindAddress");
    checkPort("grpc port", grpcPort);
    checkPort("metrics port", metricsPort);
    checkPort("quake3 master port", quake3MasterPort);
    checkPort("valve master port", valveMasterPort);
    if (!SUPPORTED_DIMENSIONS.contains(dimensions)) {
      throw new IllegalArgumentException("dimensions must be one of " + SUPPORTED_DIMENSIONS + ": " + dimensions);
    }
    positive("snapshot-every", snapshotEvery);
    if (snapshotKeep < 1) throw new IllegalArgumentException("snapshot-keep must be >= 1: " + snapshotKeep);
    crawlMasters = List.copyOf(crawlMasters == null ? List.of() : crawlMasters);
    positive("crawl-every", crawlEvery);
    if ((tlsCert == null) != (tlsKey == null)) throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    positive("round-interval", roundInterval);
    if (window < 1 || window > 64) throw new IllegalArgumentException("window must be 1-64 rounds: " + window);
    positive("replay", replay);
    positive("expire-after", expireAfter);
    positive("heartbeat-expiry", heartbeatExpiry);
    if (minMeshPeers < 1) throw new IllegalArgumentException("min-mesh-peers must be >= 1");
    if (!(calibrationMaxError > 0)) throw new IllegalArgumentException("calibration-max-error must be > 0");
    positive("calibration-rotation", calibrationRotation);
    if (!List.of("standalone", "kubernetes", "auto").contains(leaderElection)) {
      throw new IllegalArgumentException("leader-election must be standalone, kubernetes or auto: " + leaderElection);
    }
    Objects.requireNonNull(clock, "clock");
  }

  private static void checkPort(String what, int port) {
    if (port < -1 || port > 65535) throw new IllegalArgumentException(what + " must be -1 (off), 0 (free) or 1-65535: " + port);
  }

  private static void positive(String what, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) throw new IllegalArgumentException(what + " must be > 0: " + d);
  }

  /** Defaults for everything but the broker; listeners on all interfaces at the standard ports. */
  public static Builder builder(String kafkaBootstrap) {
    return new Builder(kafkaBootstrap);
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    Builder b = new Builder(kafkaBootstrap);
    b.kafkaProperties = kafkaProperties; b.bindAddress = bindAddress; b.grpcPort = grpcPort; b.metricsPort = metricsPort;
    b.dimensions = dimensions; b.height = height; b.snapshotDir = snapshotDir; b.snapshotEvery = snapshotEvery; b.snapshotKeep = snapshotKeep;
    b.targetsFile = targetsFile; b.denyFile = denyFile; b.quake3MasterPort = quake3MasterPort; b.valveMasterPort = valveMasterPort;
    b.crawlMasters = crawlMasters; b.crawlEvery = crawlEvery; b.tlsCert = tlsCert; b.tlsKey = tlsKey;
    b.apiKeysFile = apiKeysFile; b.roundInterval = roundInterval; b.window = window; b.replay = replay;
    b.expireAfter = expireAfter; b.heartbeatExpiry = heartbeatExpiry; b.minMeshPeers = minMeshPeers;
    b.calibrationMaxError = calibrationMaxError; b.calibrationRotation = calibrationRotation; b.groupId = groupId;
    b.leaderElection = leaderElection; b.leaseNamespace = leaseNamespace; b.leaseName = leaseName;
    b.identity = identity; b.clock = clock;
    return b;
  }

  /** Builder with the production defaults. */
  public static final class Builder {
    private final String kafkaBootstrap;
    private Map<String, String> kafkaProperties = Map.of();
    private String bindAddress = "0.0.0.0";
    private int grpcPort = 50051;
    private int metricsPort = -1;
    private int dimensions = 4;
    private boolean height;
    private Path snapshotDir;
    private Duration snapshotEvery = Duration.ofMinutes(5);
    private int snapshotKeep = 12;
    private Path targetsFile;
    private Path denyFile;
    private int quake3MasterPort = 27950;
    private int valveMasterPort = 27011;
    private List<String> crawlMasters = List.of();
    private Duration crawlEvery = Duration.ofMinutes(10);
    private Path tlsCert;
    private Path tlsKey;
    private Path apiKeysFile;
    private Duration roundInterval = Duration.ofSeconds(30);
    private int window = 8;
    private Duration replay = Duration.ofMinutes(45);
    private Duration expireAfter = Duration.ofMinutes(30);
    private Duration heartbeatExpiry = Duration.ofMinutes(15);
    private int minMeshPeers = 2;
    private double calibrationMaxError = 0.15;
    private Duration calibrationRotation = Duration.ofMinutes(10);
    private String groupId = "reed-coordinator";
    private String leaderElection = "auto";
    private String leaseNamespace = "reed";
    private String leaseName = "reed-coordinator-leader";
    private String identity = defaultIdentity();
    private Clock clock = Clock.systemUTC();

    private Builder(String kafkaBootstrap) {
      this.kafkaBootstrap = kafkaBootstrap;
    }

    private static String defaultIdentity() {
      String pod = System.getenv("POD_NAME");
      if (pod != null && !pod.isBlank()) return pod;
      String host = System.getenv("HOSTNAME");
      return (host == null || host.isBlank() ? "coordinator" : host) + "-" + ProcessHandle.current().pid();
    }

    public Builder kafkaProperties(Map<String, String> v) { kafkaProperties = v; return this; }
    public Builder bindAddress(String v) { bindAddress = v; return this; }
    public Builder grpcPort(int v) { grpcPort = v; return this; }
    public Builder metricsPort(int v) { metricsPort = v; return this; }
    public Builder dimensions(int v) { dimensions = v; return this; }
    public Builder height(boolean v) { height = v; return this; }
    public Builder snapshotDir(Path v) { snapshotDir = v; return this; }
    public Builder snapshotEvery(Duration v) { snapshotEvery = v; return this; }
    public Builder snapshotKeep(int v) { snapshotKeep = v; return this; }
    public Builder targetsFile(Path v) { targetsFile = v; return this; }
    public Builder denyFile(Path v) { denyFile = v; return this; }
    public Builder quake3MasterPort(int v) { quake3MasterPort = v; return this; }
    public Builder valveMasterPort(int v) { valveMasterPort = v; return this; }
    public Builder crawlMasters(List<String> v) { crawlMasters = v; return this; }
    public Builder crawlEvery(Duration v) { crawlEvery = v; return this; }
    public Builder tls(Path cert, Path key) { tlsCert = cert; tlsKey = key; return this; }
    public Builder apiKeysFile(Path v) { apiKeysFile = v; return this; }
    public Builder roundInterval(Duration v) { roundInterval = v; return this; }
    public Builder window(int v) { window = v; return this; }
    public Builder replay(Duration v) { replay = v; return this; }
    public Builder expireAfter(Duration v) { expireAfter = v; return this; }
    public Builder heartbeatExpiry(Duration v) { heartbeatExpiry = v; return this; }
    public Builder minMeshPeers(int v) { minMeshPeers = v; return this; }
    public Builder calibrationMaxError(double v) { calibrationMaxError = v; return this; }
    public Builder calibrationRotation(Duration v) { calibrationRotation = v; return this; }
    public Builder groupId(String v) { groupId = v; return this; }
    public Builder leaderElection(String v) { leaderElection = v; return this; }
    public Builder lease(String namespace, String name) { leaseNamespace = namespace; leaseName = name; return this; }
    public Builder identity(String v) { identity = v; return this; }
    public Builder clock(Clock v) { clock = v; return this; }

    /** Loopback listeners on free ports: what tests, the demo and the client SDK tests use. */
    public Builder loopbackEphemeral() {
      bindAddress = "127.0.0.1";
      grpcPort = 0;
      quake3MasterPort = 0;
      valveMasterPort = 0;
      leaderElection = "standalone";
      return this;
    }

    public CoordinatorConfig build() {
      return new CoordinatorConfig(kafkaBootstrap, kafkaProperties, bindAddress, grpcPort, metricsPort, dimensions, height,
          snapshotDir, snapshotEvery, snapshotKeep, targetsFile, denyFile, quake3MasterPort, valveMasterPort, crawlMasters, crawlEvery,
          tlsCert, tlsKey, apiKeysFile, roundInterval, window, replay, expireAfter, heartbeatExpiry, minMeshPeers,
          calibrationMaxError, calibrationRotation, groupId, leaderElection, leaseNamespace, leaseName, identity, clock);
    }
  }
}
