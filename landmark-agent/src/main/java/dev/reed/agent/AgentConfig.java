package dev.reed.agent;

import dev.reed.agent.beacon.EchoDelay;
import dev.reed.agent.beacon.WsBeaconConfig;
import dev.reed.probe.responder.ReplyDelay;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.runtime.KafkaClients;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything a landmark agent needs to run; built by {@link AgentCommand} from flags and
 * {@code REED_AGENT_*} environment variables, or with {@link #builder} by code that embeds agents
 * (the demo, the coordinator's tests).
 *
 * @param id landmark identifier, unique in the deployment ({@code [A-Za-z0-9._-]{1,64}}); the Kafka key
 *     of the announcement and the beacon's server name
 * @param region free-form region label for people
 * @param location where the landmark's host is, as the operator states it (announced on
 *     reed.landmarks, wins over a database lookup), or null when not stated
 * @param kafkaBootstrap Kafka {@code bootstrap.servers}
 * @param kafkaProperties further Kafka client settings (TLS, SASL) for the producer and consumers;
 *     (a {@code --kafka-config} file, read by {@link dev.reed.runtime.KafkaClientProperties}); keys in
 *     {@link #KAFKA_OWNED_KEYS} are refused
 * @param bind local address the probes are sent from (port 0 = any)
 * @param beacon where the calibration beacon listens (A2S_INFO and Quake3 getinfo)
 * @param beaconAdvertise the beacon address announced to peers and clients; null = {@code beacon}
 *     if it is a specific address, else the local address that routes to the Kafka broker
 * @param targetsFile static target list, or null
 * @param denyFile addresses, blocks and endpoints this agent never probes ({@link dev.reed.runtime.DenyList}), or null
 * @param interval nominal time between round starts; zero = no schedule, rounds only through
 *     {@link LandmarkAgent#runRound()}
 * @param jitter each wait is {@code interval} times a random factor in {@code [1 - jitter, 1 + jitter]},
 *     so agents started together drift apart
 * @param rate probes per second (global budget of the probe engine)
 * @param probeTimeout time to wait for a reply (paper: 999 ms counts as no answer)
 * @param meshProbes back-to-back probes per peer landmark per round; the minimum is kept (paper 5.1.1)
 * @param spoolDir directory of the on-disk spool (and the persisted round counter)
 * @param spoolMaxBytes bound of the spool; when full the oldest batches are dropped
 * @param metricsHost address of the {@code /metrics} and {@code /healthz} endpoint
 * @param metricsPort its port; 0 = any free port, -1 = no endpoint (the default)
 * @param beaconDelay artificial delay of beacon replies (testbed WAN emulation only; NONE in production)
 * @param clock wall clock for timestamps and the round schedule's bookkeeping
 * @param deliveryTimeout how long the producer retries a batch before it stays in the spool for a replay
 * @param flushTimeout how long the end of a round waits for the broker to acknowledge the round's records
 * @param batchSize records per spool batch (and per Kafka send)
 * @param seed seed of the shuffle and the jitter; 0 = random
 * @param wsBeacon the WebSocket beacon for web pages ({@code --ws-beacon}), or null for none
 * @param wsEchoDelay artificial delay of WebSocket echoes (testbed WAN emulation only; NONE in production)
 * @param beaconRate queries per second the UDP beacon answers per network prefix (/24 of IPv4, /56
 *     of IPv6; burst two seconds' worth), the rest dropped unanswered; 0 = no limit
 */
public record AgentConfig(
    String id,
    String region,
    GeoPoint location,
    String kafkaBootstrap,
    Map<String, String> kafkaProperties,
    InetSocketAddress bind,
    InetSocketAddress beacon,
    InetSocketAddress beaconAdvertise,
    Path targetsFile,
    Path denyFile,
    Duration interval,
    double jitter,
    double rate,
    Duration probeTimeout,
    int meshProbes,
    Path spoolDir,
    long spoolMaxBytes,
    String metricsHost,
    int metricsPort,
    ReplyDelay beaconDelay,
    Clock clock,
    Duration deliveryTimeout,
    Duration flushTimeout,
    int batchSize,
    long seed,
    WsBeaconConfig wsBeacon,
    EchoDelay wsEchoDelay,
    double beaconRate) {

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  /** Default beacon: every interface, the Quake3 default port where browsers expect servers. */
  public static final int DEFAULT_BEACON_PORT = 27960;

  // The defaults below are written only here: the builder and AgentCommand (its flags and help) start from them.
  /** Default time between rounds (operations.md sizes rounds against it). */
  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);
  /** Default probes per second. */
  public static final double DEFAULT_RATE = 140;
  /** Default reply timeout: a reply after it would be over the RTT bound anyway. */
  public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofSeconds(1);
  /** Default spool directory, relative to the working directory. */
  public static final Path DEFAULT_SPOOL_DIR = Path.of("reed-agent-spool");
  /** Default spool bound: 256 MiB. */
  public static final long DEFAULT_SPOOL_MAX_BYTES = 256L << 20;
  /** Default address of the metrics endpoint: every interface. */
  public static final String DEFAULT_METRICS_HOST = "0.0.0.0";
  /**
   * Default UDP beacon queries per second per network prefix ({@code --beacon-rate}): a client
   * calibrates with a few queries per landmark, two datagrams each with the A2S challenge, and a
   * peer landmark sends {@code meshProbes} per round. The builder's default is no limit: embedded
   * agents (tests, the demo) share 127.0.0.0/24 with every emulated client.
   */
  public static final double DEFAULT_BEACON_RATE = 20;
  /** Default time the producer retries a batch before it waits in the spool. */
  public static final Duration DEFAULT_DELIVERY_TIMEOUT = Duration.ofMinutes(2);

  /**
   * Kafka settings the agent's guarantees rest on (acks, idempotence, serializers; the bootstrap
   * servers come from {@code --kafka}): a {@code --kafka-config} file setting one is rejected with
   * the key named.
   */
  public static final Set<String> KAFKA_OWNED_KEYS = Set.of("bootstrap.servers", "acks", "enable.idempotence",
      "max.in.flight.requests.per.connection", "retries", "transactional.id", "key.serializer", "value.serializer",
      "key.deserializer", "value.deserializer", "enable.auto.commit", "group.id", "isolation.level");

  public AgentConfig {
    Objects.requireNonNull(id, "id");
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException("landmark id must be 1-64 characters of A-Z a-z 0-9 . _ -, got '" + id + "'");
    }
    region = region == null ? "" : region;
    if (location != null) checkLocation(location.getLatitudeDeg(), location.getLongitudeDeg());
    if (kafkaBootstrap == null || kafkaBootstrap.isBlank()) throw new IllegalArgumentException("Kafka bootstrap address is required");
    kafkaProperties = kafkaProperties == null ? Map.of() : Map.copyOf(kafkaProperties);
    for (String key : kafkaProperties.keySet()) {
      if (KAFKA_OWNED_KEYS.contains(key)) {
        throw new IllegalArgumentException("Kafka setting '" + key + "' is set by the agent and cannot be overridden");
      }
    }
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(beacon, "beacon");
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative()) throw new IllegalArgumentException("interval must be >= 0, got " + interval);
    if (!(jitter >= 0 && jitter < 1)) throw new IllegalArgumentException("jitter must be in [0, 1), got " + jitter);
    if (!(rate > 0) || Double.isInfinite(rate)) throw new IllegalArgumentException("rate must be > 0 probes/s, got " + rate);
    if (probeTimeout == null || probeTimeout.isNegative() || probeTimeout.isZero()) {
      throw new IllegalArgumentException("probe timeout must be > 0");
    }
    if (meshProbes < 1 || meshProbes > 16) throw new IllegalArgumentException("mesh probes must be 1-16, got " + meshProbes);
    Objects.requireNonNull(spoolDir, "spoolDir");
    if (spoolMaxBytes < 1 << 20) throw new IllegalArgumentException("spool bound must be >= 1 MiB, got " + spoolMaxBytes);
    metricsHost = metricsHost == null ? "0.0.0.0" : metricsHost;
    if (metricsPort < -1 || metricsPort > 65535) {
      throw new IllegalArgumentException("metrics port must be 0-65535 or -1 (off), got " + metricsPort);
    }
    beaconDelay = beaconDelay == null ? ReplyDelay.NONE : beaconDelay;
    wsEchoDelay = wsEchoDelay == null ? EchoDelay.NONE : wsEchoDelay;
    clock = clock == null ? Clock.systemUTC() : clock;
    if (deliveryTimeout == null || deliveryTimeout.toMillis() < 1_000) throw new IllegalArgumentException("delivery timeout must be >= 1 s");
    if (flushTimeout == null || flushTimeout.isNegative()) throw new IllegalArgumentException("flush timeout must be >= 0");
    if (batchSize < 1 || batchSize > 10_000) throw new IllegalArgumentException("batch size must be 1-10000, got " + batchSize);
    if (!(beaconRate >= 0) || Double.isInfinite(beaconRate)) {
      throw new IllegalArgumentException("beacon rate must be >= 0 queries/s (0 = no limit), got " + beaconRate);
    }
  }

  /**
   * A stated location: latitude -90..90 and longitude -180..180 degrees.
   *
   * @throws IllegalArgumentException out of range or not a number
   */
  public static GeoPoint location(double latitudeDeg, double longitudeDeg) {
    checkLocation(latitudeDeg, longitudeDeg);
    return GeoPoint.newBuilder().setLatitudeDeg(latitudeDeg).setLongitudeDeg(longitudeDeg).build();
  }

  /**
   * A stated location from its text form {@code LAT,LON} in degrees, e.g. {@code 50.11,8.68}
   * ({@code --location}, {@code REED_AGENT_LOCATION}).
   *
   * @throws IllegalArgumentException not two numbers, or out of range
   */
  public static GeoPoint location(String text) {
    String[] parts = text.split(",", -1);
    String expected = "expected LAT,LON in degrees, e.g. 50.11,8.68, got '" + text + "'";
    if (parts.length != 2) throw new IllegalArgumentException(expected);
    try {
      return location(Double.parseDouble(parts[0].strip()), Double.parseDouble(parts[1].strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(expected);
    }
  }

  private static void checkLocation(double lat, double lon) {
    if (!(lat >= -90 && lat <= 90)) throw new IllegalArgumentException("latitude must be in -90..90 degrees, got " + lat);
    if (!(lon >= -180 && lon <= 180)) throw new IllegalArgumentException("longitude must be in -180..180 degrees, got " + lon);
  }

  /** The factory of every Kafka client the agent creates. */
  public KafkaClients kafkaClients() {
    return new KafkaClients(kafkaBootstrap, kafkaProperties);
  }

  /** Defaults for everything but the id and the broker. */
  public static Builder builder(String id, String kafkaBootstrap) {
    return new Builder(id, kafkaBootstrap);
  }

  /** Builder with production defaults. */
  public static final class Builder {
    private final String id;
    private final String kafka;
    private String region = "";
    private GeoPoint location;
    private Map<String, String> kafkaProperties = Map.of();
    private InetSocketAddress bind = new InetSocketAddress(0);
    private InetSocketAddress beacon = new InetSocketAddress(DEFAULT_BEACON_PORT);
    private InetSocketAddress beaconAdvertise;
    private Path targetsFile;
    private Path denyFile;
    private Duration interval = DEFAULT_INTERVAL;
    private double jitter = 0.1;
    private double rate = DEFAULT_RATE;
    private Duration probeTimeout = DEFAULT_PROBE_TIMEOUT;
    private int meshProbes = 4;
    private Path spoolDir = DEFAULT_SPOOL_DIR;
    private long spoolMaxBytes = DEFAULT_SPOOL_MAX_BYTES;
    private String metricsHost = DEFAULT_METRICS_HOST;
    private int metricsPort = -1;
    private ReplyDelay beaconDelay = ReplyDelay.NONE;
    private Clock clock = Clock.systemUTC();
    private Duration deliveryTimeout = DEFAULT_DELIVERY_TIMEOUT;
    private Duration flushTimeout = Duration.ofSeconds(30);
    private int batchSize = 500;
    private long seed;
    private WsBeaconConfig wsBeacon;
    private EchoDelay wsEchoDelay = EchoDelay.NONE;
    private double beaconRate;

    private Builder(String id, String kafka) {
      this.id = id;
      this.kafka = kafka;
    }

    public Builder region(String v) { region = v; return this; }
    /** Where the landmark is (see {@link AgentConfig#location(double, double)}); null = not stated. */
    public Builder location(GeoPoint v) { location = v; return this; }
    public Builder kafkaProperties(Map<String, String> v) { kafkaProperties = v; return this; }
    public Builder bind(InetSocketAddress v) { bind = v; return this; }
    public Builder beacon(InetSocketAddress v) { beacon = v; return this; }
    public Builder beaconAdvertise(InetSocketAddress v) { beaconAdvertise = v; return this; }
    public Builder targetsFile(Path v) { targetsFile = v; return this; }
    public Builder denyFile(Path v) { denyFile = v; return this; }
    public Builder interval(Duration v) { interval = v; return this; }
    public Builder jitter(double v) { jitter = v; return this; }
    public Builder rate(double v) { rate = v; return this; }
    public Builder probeTimeout(Duration v) { probeTimeout = v; return this; }
    public Builder meshProbes(int v) { meshProbes = v; return this; }
    public Builder spoolDir(Path v) { spoolDir = v; return this; }
    public Builder spoolMaxBytes(long v) { spoolMaxBytes = v; return this; }
    public Builder metrics(String host, int port) { metricsHost = host; metricsPort = port; return this; }
    public Builder beaconDelay(ReplyDelay v) { beaconDelay = v; return this; }
    public Builder clock(Clock v) { clock = v; return this; }
    public Builder deliveryTimeout(Duration v) { deliveryTimeout = v; return this; }
    public Builder flushTimeout(Duration v) { flushTimeout = v; return this; }
    public Builder batchSize(int v) { batchSize = v; return this; }
    public Builder seed(long v) { seed = v; return this; }
    /** The WebSocket beacon; null = none (the default). */
    public Builder wsBeacon(WsBeaconConfig v) { wsBeacon = v; return this; }
    /** Plain WebSocket beacon on this address with default limits and any origin. */
    public Builder wsBeacon(InetSocketAddress v) { wsBeacon = v == null ? null : WsBeaconConfig.of(v); return this; }
    public Builder wsEchoDelay(EchoDelay v) { wsEchoDelay = v; return this; }
    /** UDP beacon queries per second per network prefix; 0 = no limit (the builder's default). */
    public Builder beaconRate(double v) { beaconRate = v; return this; }

    /** Loopback everything, manual rounds: the shape embedded agents in tests and the demo want. */
    public Builder loopback() {
      bind = new InetSocketAddress("127.0.0.1", 0);
      beacon = new InetSocketAddress("127.0.0.1", 0);
      metricsHost = "127.0.0.1";
      interval = Duration.ZERO;
      return this;
    }

    public AgentConfig build() {
      return new AgentConfig(id, region, location, kafka, kafkaProperties, bind, beacon, beaconAdvertise, targetsFile, denyFile, interval, jitter, rate,
          probeTimeout, meshProbes, spoolDir, spoolMaxBytes, metricsHost, metricsPort, beaconDelay, clock,
          deliveryTimeout, flushTimeout, batchSize, seed, wsBeacon, wsEchoDelay, beaconRate);
    }
  }
}
