package dev.reed.agent;

import dev.reed.agent.beacon.WsBeaconConfig;
import dev.reed.agent.round.RoundReport;
import dev.reed.proto.Endpoints;
import dev.reed.runtime.Durations;
import dev.reed.runtime.EnvironmentDefaults;
import dev.reed.runtime.KafkaClientProperties;
import dev.reed.runtime.options.ClientAddressLogging;
import dev.reed.runtime.options.KafkaOptions;
import dev.reed.runtime.options.MetricsPortOption;
import dev.reed.runtime.options.OptionHeadings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code ./reed agent}: runs a landmark agent until stopped (SIGTERM/Ctrl-C shut it down
 * gracefully), or one round with {@code --once}. Every option can also come from an environment
 * variable {@code REED_AGENT_<OPTION>} (upper case, dashes as underscores) for containers; a flag
 * wins over the variable.
 */
@Command(name = "agent", mixinStandardHelpOptions = true, sortOptions = false,
    defaultValueProvider = EnvironmentDefaults.class,
    description = {
        "Run a REED landmark agent: probe game servers and peer landmarks in rounds, publish RTT samples to Kafka.",
        "Every option can also be set with an environment variable REED_AGENT_<OPTION>, e.g. REED_AGENT_KAFKA.",
        "Exit codes: 0 ok; 2 bad options; 3 (--once) the round's records are still spooled (replayed by the next run)."},
    footer = {"", "Targets file lines: 'q3 HOST:PORT' or 'a2s HOST:PORT'; '#' starts a comment.",
        "Deny file lines: an address, a CIDR block or an IP:PORT endpoint; '#' starts a comment."})
public final class AgentCommand implements Callable<Integer>, OptionHeadings.Sectioned {

  /** --help by topic (OptionHeadings; ReedTest checks every option is under one). */
  static final OptionHeadings HEADINGS = OptionHeadings.of(
      OptionHeadings.section("Identity and Kafka", "--id", "--region", "--location", "--kafka",
          "--kafka-config"),
      OptionHeadings.section("Probing", "--bind", "--targets", "--deny", "--interval", "--rate", "--once",
          "--probe-timeout"),
      OptionHeadings.section("Calibration beacons", "--beacon", "--beacon-advertise", "--beacon-rate",
          "--ws-beacon", "--ws-advertise", "--ws-tls-cert", "--ws-tls-key", "--ws-origins",
          "--ws-max-connections", "--ws-rate"),
      OptionHeadings.section("Delivery and spool", "--spool-dir", "--spool-max-mb", "--delivery-timeout"),
      OptionHeadings.section("Operations", "--metrics-port", "--metrics-host", "--log-client-addresses"));

  @Override
  public OptionHeadings optionHeadings() {
    return HEADINGS;
  }

  @Spec CommandSpec spec;

  @Option(names = "--id", paramLabel = "ID",
      description = "Landmark id, unique in the deployment (A-Z a-z 0-9 . _ -). Required. Env: REED_AGENT_ID.")
  String id;

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Option(names = "--region", paramLabel = "NAME", 
      description = "Region label for people, e.g. Europe/Frankfurt. Env: REED_AGENT_REGION.")
  String region;

  @Option(names = "--location", paramLabel = "LAT,LON",
      description = "Where this host is, in degrees (e.g. 50.11,8.68 for Frankfurt): latitude -90..90, longitude "
          + "-180..180. Announced on reed.landmarks; wins over a geolocation database. Env: REED_AGENT_LOCATION.")
  String location;

  @Option(names = "--bind", paramLabel = "ADDR[:PORT]", defaultValue = "0.0.0.0",
      description = "Local address probes are sent from (default ${DEFAULT-VALUE}). Env: REED_AGENT_BIND.")
  String bind;

  @Option(names = "--beacon", paramLabel = "ADDR:PORT",
      description = "Where the calibration beacon answers A2S_INFO and Quake3 getinfo (default ${DEFAULT-VALUE}). "
          + "Env: REED_AGENT_BEACON.")
  String beacon = "0.0.0.0:" + AgentConfig.DEFAULT_BEACON_PORT;

  @Option(names = "--beacon-advertise", paramLabel = "ADDR:PORT",
      description = "Beacon address announced to peers and clients (public IP behind NAT). Default: the beacon "
          + "address, or if that is 0.0.0.0, the local address that routes to Kafka. Env: REED_AGENT_BEACON_ADVERTISE.")
  String beaconAdvertise;

  @Option(names = "--ws-beacon", paramLabel = "ADDR:PORT",
      description = "Run a WebSocket beacon here for web pages (echoes frames of at most 64 bytes); off by default. "
          + "Env: REED_AGENT_WS_BEACON.")
  String wsBeacon;

  @Option(names = "--ws-advertise", paramLabel = "HOST:PORT",
      description = "Host (a name for TLS, matching the certificate) and port in the announced ws(s):// URL. Default: "
          + "the --ws-beacon address, or if that is 0.0.0.0, the announced beacon address with the WebSocket port. "
          + "Env: REED_AGENT_WS_ADVERTISE.")
  String wsAdvertise;

  @Option(names = "--ws-tls-cert", paramLabel = "FILE",
      description = "PEM certificate chain: serve the WebSocket beacon over TLS (wss://). Env: REED_AGENT_WS_TLS_CERT.")
  Path wsTlsCert;

  @Option(names = "--ws-tls-key", paramLabel = "FILE",
      description = "PEM private key (PKCS#8) for --ws-tls-cert. Env: REED_AGENT_WS_TLS_KEY.")
  Path wsTlsKey;

  @Option(names = "--ws-origins", paramLabel = "ORIGIN", split = ",",
      description = "Allowed Origin headers of WebSocket beacon connections, e.g. https://servers.example "
          + "(comma-separated; default: any). Env: REED_AGENT_WS_ORIGINS.")
  List<String> wsOrigins;

  @Option(names = "--ws-max-connections", paramLabel = "N",
      description = "Open WebSocket beacon connections per network prefix (/24 of IPv4, /56 of IPv6) (default ${DEFAULT-VALUE}). "
          + "Env: REED_AGENT_WS_MAX_CONNECTIONS.")
  int wsMaxConnections = WsBeaconConfig.DEFAULT_MAX_CONNECTIONS;

  @Option(names = "--ws-rate", paramLabel = "N",
      description = "WebSocket beacon frames per second per network prefix, PINGs included, burst two seconds' worth; "
          + "a connection over it is closed with 1008 (default ${DEFAULT-VALUE}). Env: REED_AGENT_WS_RATE.")
  double wsRate = WsBeaconConfig.DEFAULT_MESSAGES_PER_SECOND;

  @Option(names = "--beacon-rate", paramLabel = "N",
      description = "UDP beacon queries answered per second per network prefix (/24 of IPv4, /56 of IPv6), burst two "
          + "seconds' worth; the rest are dropped unanswered; 0 = no limit (default ${DEFAULT-VALUE}). "
          + "Env: REED_AGENT_BEACON_RATE.")
  double beaconRate = AgentConfig.DEFAULT_BEACON_RATE;

  @Mixin ClientAddressLogging clientAddresses = new ClientAddressLogging();

  @Option(names = "--targets", paramLabel = "FILE",
      description = "Static targets added to those of the reed.targets topic. Env: REED_AGENT_TARGETS.")
  Path targets;

  @Option(names = "--deny", paramLabel = "FILE",
      description = "Never probe these, whatever reed.targets says: address, CIDR block or HOST:PORT lines; "
          + "re-read before every round. Env: REED_AGENT_DENY.")
  Path deny;

  @Option(names = "--interval", paramLabel = "DURATION",
      description = "Time between rounds, e.g. 5m, 30s, 1h (default ${DEFAULT-VALUE}, +-10%% jitter). Env: REED_AGENT_INTERVAL.")
  String interval = Durations.format(AgentConfig.DEFAULT_INTERVAL);

  @Option(names = "--rate", paramLabel = "N",
      description = "Probes per second (default ${DEFAULT-VALUE}). Env: REED_AGENT_RATE.")
  double rate = AgentConfig.DEFAULT_RATE;

  @Option(names = "--once", defaultValue = "false",
      description = "Run one round, flush to Kafka and exit. Env: REED_AGENT_ONCE=true.")
  boolean once;

  @Option(names = "--spool-dir", paramLabel = "DIR",
      description = "On-disk spool for batches Kafka has not acknowledged yet (default ${DEFAULT-VALUE}). "
          + "Env: REED_AGENT_SPOOL_DIR.")
  Path spoolDir = AgentConfig.DEFAULT_SPOOL_DIR;

  @Option(names = "--spool-max-mb", paramLabel = "MIB",
      description = "Spool bound in MiB; when full the oldest batches are dropped (default ${DEFAULT-VALUE}). "
          + "Env: REED_AGENT_SPOOL_MAX_MB.")
  long spoolMaxMb = AgentConfig.DEFAULT_SPOOL_MAX_BYTES >> 20;

  @Mixin MetricsPortOption metricsPort = new MetricsPortOption();

  @Option(names = "--metrics-host", paramLabel = "ADDR",
      description = "Address of the metrics endpoint (default ${DEFAULT-VALUE}). Env: REED_AGENT_METRICS_HOST.")
  String metricsHost = AgentConfig.DEFAULT_METRICS_HOST;

  @Option(names = "--probe-timeout", paramLabel = "DURATION",
      description = "Time to wait for a reply (default ${DEFAULT-VALUE}). Env: REED_AGENT_PROBE_TIMEOUT.")
  String probeTimeout = Durations.format(AgentConfig.DEFAULT_PROBE_TIMEOUT);

  @Option(names = "--delivery-timeout", paramLabel = "DURATION",
      description = "How long Kafka sends are retried before a batch waits in the spool for a replay "
          + "(default ${DEFAULT-VALUE}). Env: REED_AGENT_DELIVERY_TIMEOUT.")
  String deliveryTimeout = Durations.format(AgentConfig.DEFAULT_DELIVERY_TIMEOUT);

  /** Builds the configuration, or throws a ParameterException naming the bad option. */
  AgentConfig config() {
    if (id == null || id.isBlank()) throw usage("--id is required (or REED_AGENT_ID)");
    if (kafka.bootstrap() == null || kafka.bootstrap().isBlank()) throw usage("--kafka is required (or REED_AGENT_KAFKA)");
    try {
      AgentConfig.Builder b = AgentConfig.builder(id, kafka.bootstrap())
          .region(region)
          .location(location == null || location.isBlank() ? null : option("--location", () -> AgentConfig.location(location)))
          .kafkaProperties(kafka.config() == null ? Map.of()
              : KafkaClientProperties.read(kafka.config(), AgentConfig.KAFKA_OWNED_KEYS, "agent"))
          .bind(option("--bind", () -> Endpoints.socketAddress(bind, 0)))
          .beacon(option("--beacon", () -> Endpoints.socketAddress(beacon, AgentConfig.DEFAULT_BEACON_PORT)))
          .interval(option("--interval", () -> Durations.parse(interval)))
          .rate(rate)
          .probeTimeout(option("--probe-timeout", () -> Durations.parse(probeTimeout)))
          .deliveryTimeout(option("--delivery-timeout", () -> Durations.parse(deliveryTimeout)))
          .spoolDir(spoolDir)
          .spoolMaxBytes(spoolMaxMb << 20)
          .metrics(metricsHost, metricsPort.port())
          .targetsFile(targets)
          .denyFile(deny)
          .beaconRate(beaconRate);
      if (beaconAdvertise != null && !beaconAdvertise.isBlank()) {
        b.beaconAdvertise(option("--beacon-advertise", () -> Endpoints.socketAddress(beaconAdvertise, -1)));
      }
      if (wsBeacon != null && !wsBeacon.isBlank()) {
        b.wsBeacon(new WsBeaconConfig(option("--ws-beacon", () -> Endpoints.socketAddress(wsBeacon, -1)),
            wsAdvertise == null || wsAdvertise.isBlank() ? null : option("--ws-advertise", () -> unresolved(wsAdvertise)),
            wsTlsCert, wsTlsKey, wsOrigins, wsMaxConnections, wsRate, clientAddresses.enabled()));
      } else if (wsTlsCert != null || wsTlsKey != null || wsAdvertise != null) {
        throw usage("--ws-tls-cert, --ws-tls-key and --ws-advertise need --ws-beacon");
      }
      if (once) b.interval(Duration.ZERO);
      else if (option("--interval", () -> Durations.parse(interval)).isZero()) throw usage("--interval must be > 0 (or use --once)");
      return b.build();
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
  }

  /** HOST:PORT kept as written: a name must reach the URL unresolved, to match a TLS certificate. */
  private static InetSocketAddress unresolved(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
    }
    if (port < 1 || port > 65535) throw new IllegalArgumentException("port must be 1-65535, got " + port);
    return InetSocketAddress.createUnresolved(host, port);
  }

  private <T> T option(String name, java.util.function.Supplier<T> parse) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      throw usage(name + ": " + e.getMessage());
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  @Override
  public Integer call() throws Exception {
    AgentConfig config = config();
    LandmarkAgent agent;
    try {
      agent = LandmarkAgent.start(config);
    } catch (IllegalArgumentException e) { // bad targets or deny file: the message names file and line
      throw usage(e.getMessage());
    }
    if (once) {
      try (agent) {
        RoundReport r = agent.runRound();
        boolean flushed = agent.awaitPublished(Duration.ofSeconds(30));
        spec.commandLine().getOut().printf("round %d: %d targets, %d replies, %d timeouts, %d errors, mesh %d/%d, "
                + "%d records published, %d spooled%n", r.round(), r.targets(), r.replies(), r.timeouts(), r.errors(),
            r.mesh(), r.meshPeers(), r.published(), agent.spooledRecords());
        spec.commandLine().getOut().flush();
        return flushed ? 0 : 3;
      }
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      agent.close();
      stopped.countDown();
    }, "reed-agent-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    stopped.await();
    return 0;
  }

  /** Runs the command standalone: {@code java -cp ... dev.reed.agent.AgentCommand --help}. */
  public static void main(String[] args) {
    System.exit(OptionHeadings.commandLine(new AgentCommand()).execute(args));
  }
}
