package dev.reed.coordinator;

import dev.reed.coordinator.CoordinatorConfig.Api;
import dev.reed.coordinator.CoordinatorConfig.Catalog;
import dev.reed.coordinator.CoordinatorConfig.Kafka;
import dev.reed.coordinator.CoordinatorConfig.Leadership;
import dev.reed.coordinator.CoordinatorConfig.Rounds;
import dev.reed.coordinator.CoordinatorConfig.Snapshots;
import dev.reed.coordinates.ModelFile;
import dev.reed.coordinates.integrity.IntegrityConfig;
import dev.reed.coordinates.reports.ReportConfig;
import dev.reed.coordinator.index.write.IndexFeed;
import dev.reed.runtime.Durations;
import dev.reed.runtime.EnvironmentDefaults;
import dev.reed.runtime.KafkaClientProperties;
import dev.reed.runtime.options.ClientAddressLogging;
import dev.reed.runtime.options.DimensionsOption;
import dev.reed.runtime.options.GeoDatabaseOptions;
import dev.reed.runtime.options.KafkaOptions;
import dev.reed.runtime.options.MetricsPortOption;
import dev.reed.runtime.options.OptionHeadings;
import dev.reed.runtime.options.SettingsFileOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code ./reed coordinator}: runs one coordinator replica until interrupted. Every option also
 * reads an environment variable {@code REED_COORDINATOR_<OPTION>} (e.g.
 * {@code REED_COORDINATOR_KAFKA}, {@code REED_COORDINATOR_GRPC_PORT}); the command line wins.
 * Defaults are the {@code DEFAULT}s of {@link CoordinatorConfig}'s parts, set as the fields'
 * initial values (picocli shows and applies those when neither flag nor variable is given).
 */
@Command(name = "coordinator", mixinStandardHelpOptions = true, sortOptions = false,
    defaultValueProvider = EnvironmentDefaults.class,
    description = {"Run a REED coordinator: samples from Kafka to coordinates to rankings over gRPC.",
        "Ingests reed.samples and reed.mesh-samples, embeds the landmarks (leader) and positions the targets,"
            + " publishes reed.coordinates, serves ReedService and SnapshotService, runs the Quake3 and Valve master"
            + " front ends and writes snapshot files. Every option can also be set with REED_COORDINATOR_<OPTION>."})
public final class CoordinatorCommand implements Callable<Integer>, OptionHeadings.Sectioned {

  /** --help by topic (OptionHeadings; ReedTest checks every option is under one). */
  static final OptionHeadings HEADINGS = OptionHeadings.of(
      OptionHeadings.section("Kafka", "--kafka", "--kafka-config", "--group-id"),
      OptionHeadings.section("Serving and API", "--bind", "--grpc-port", "--http", "--cors-origins",
          "--ws-overhead-ms", "--q3-master-port", "--valve-master-port", "--metrics-port"),
      OptionHeadings.section("Security", "--tls-cert", "--tls-key", "--api-keys", "--anonymous-rate",
          "--trusted-proxies", "--log-client-addresses"),
      OptionHeadings.section("Rounds and model", "--dimensions", "--height", "--round-interval",
          "--window-rounds", "--replay", "--expire-after", "--landmark-quarantine", "--integrity-config"),
      OptionHeadings.section("Replicas and leadership", "--leader-election", "--lease-file", "--lease",
          "--serve-only"),
      OptionHeadings.section("Catalog", "--targets", "--deny", "--crawl", "--crawl-every"),
      OptionHeadings.section("Snapshots and checkpoints", "--snapshot-dir", "--snapshot-every",
          "--snapshot-keep", "--index-checkpoint", "--index-checkpoint-every",
          "--index-checkpoint-serve-within"),
      OptionHeadings.section("Locations", "--geoip", "--asn"),
      OptionHeadings.section("Client reports", "--reports", "--report-key-file", "--reports-config"));

  @Override
  public OptionHeadings optionHeadings() {
    return HEADINGS;
  }

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Option(names = "--bind", paramLabel = "ADDRESS", description = "address every listener binds (default: ${DEFAULT-VALUE})")
  String bind = CoordinatorConfig.DEFAULT_BIND_ADDRESS;

  @Option(names = "--grpc-port", description = "gRPC port, 0 = any free port (default: ${DEFAULT-VALUE})")
  int grpcPort = Api.DEFAULT.grpcPort();

  @Mixin MetricsPortOption metricsPort = new MetricsPortOption();

  @Mixin DimensionsOption dimensions = new DimensionsOption();

  @Option(names = "--height",
      description = "add a height (access-link delay) to every coordinate (default: ${DEFAULT-VALUE})")
  boolean height = Rounds.DEFAULT.height();

  @Option(names = "--snapshot-dir", paramLabel = "DIR", description = "write snapshot files here (default: none)")
  Path snapshotDir = Snapshots.DEFAULT.dir();

  @Option(names = "--snapshot-every", paramLabel = "DURATION",
      description = "snapshot interval, e.g. 30s, 5m, 1h (default: ${DEFAULT-VALUE})")
  String snapshotEvery = Durations.format(Snapshots.DEFAULT.every());

  @Option(names = "--snapshot-keep", description = "snapshot generations kept (default: ${DEFAULT-VALUE})")
  int snapshotKeep = Snapshots.DEFAULT.keep();

  @Option(names = "--index-checkpoint", paramLabel = "FILE",
      description = "keep a local checkpoint of the coordinate index here; a restarted replica serves from it within "
          + "seconds and reads only the records written since (default: none: read the whole topic)")
  Path indexCheckpoint = IndexFeed.Checkpoints.NONE.file();

  @Option(names = "--index-checkpoint-every", paramLabel = "DURATION",
      description = "index checkpoint interval (default: ${DEFAULT-VALUE})")
  String indexCheckpointEvery = Durations.format(IndexFeed.Checkpoints.NONE.every());

  @Option(names = "--index-checkpoint-serve-within", paramLabel = "DURATION",
      description = "serve a checkpoint at most this old before the newer records are read; an older one only shortens "
          + "the read (default: ${DEFAULT-VALUE})")
  String indexCheckpointServeWithin = Durations.format(IndexFeed.Checkpoints.NONE.serveWithin());

  @Option(names = "--targets", paramLabel = "FILE",
      description = "static target list: 'q3 HOST:PORT' / 'a2s HOST:PORT' lines (default: none)")
  Path targets = Catalog.DEFAULT.targetsFile();

  @Option(names = "--deny", paramLabel = "FILE",
      description = "never probe these: address, CIDR block or HOST:PORT lines; re-read when it changes (default: none)")
  Path deny = Catalog.DEFAULT.denyFile();

  @Option(names = "--q3-master-port", description = "Quake3 master front end UDP port, -1 = off (default: ${DEFAULT-VALUE})")
  int q3MasterPort = Catalog.DEFAULT.quake3MasterPort();

  @Option(names = "--valve-master-port", description = "Valve master front end UDP port, -1 = off (default: ${DEFAULT-VALUE})")
  int valveMasterPort = Catalog.DEFAULT.valveMasterPort();

  @Option(names = "--crawl", paramLabel = "KIND:HOST:PORT", split = ",",
      description = "external masters to crawl, e.g. q3:master.ioquake3.org:27950,valve:hl2master.steampowered.com:27011")
  List<String> crawl;

  @Option(names = "--crawl-every", paramLabel = "DURATION",
      description = "interval between crawls of each master (default: ${DEFAULT-VALUE})")
  String crawlEvery = Durations.format(Catalog.DEFAULT.crawlEvery());

  @Option(names = "--tls-cert", paramLabel = "FILE", description = "PEM certificate chain: serve gRPC over TLS")
  Path tlsCert = Api.DEFAULT.tlsCert();

  @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM private key (PKCS#8) for --tls-cert")
  Path tlsKey = Api.DEFAULT.tlsKey();

  @Option(names = "--api-keys", paramLabel = "FILE",
      description = "API keys for higher limits than --anonymous-rate, sent in the x-api-key header; file of "
          + "'KEY [requests-per-second]' lines. Calls without a key are anonymous; an unknown key is refused")
  Path apiKeys = Api.DEFAULT.apiKeysFile();

  @Option(names = "--anonymous-rate", paramLabel = "N|off",
      description = "requests per second per network prefix (/24 of IPv4, /56 of IPv6; burst two seconds' worth) "
          + "for calls without an API key, on the gRPC port and the HTTP face with its static files; "
          + "0 = refuse them (needs --api-keys); off = no limit (default: ${DEFAULT-VALUE})")
  String anonymousRate = String.valueOf((int) Api.DEFAULT_ANONYMOUS_RATE); // text: "off" too

  @Mixin ClientAddressLogging clientAddresses = new ClientAddressLogging();

  @Option(names = "--round-interval", paramLabel = "DURATION",
      description = "how often landmarks are embedded and targets positioned (default: ${DEFAULT-VALUE})")
  String roundInterval = Durations.format(Rounds.DEFAULT.interval());

  @Option(names = "--window-rounds", paramLabel = "N",
      description = "landmark rounds of samples kept per (landmark, target) and (landmark, landmark) window "
          + "(default: ${DEFAULT-VALUE})")
  int windowRounds = Rounds.DEFAULT.window();

  @Option(names = "--replay", paramLabel = "DURATION",
      description = "samples replayed at start to rebuild the windows (default: ${DEFAULT-VALUE})")
  String replay = Durations.format(Rounds.DEFAULT.replay());

  @Option(names = "--expire-after", paramLabel = "DURATION",
      description = "targets unheard this long are deleted (default: ${DEFAULT-VALUE})")
  String expireAfter = Durations.format(Rounds.DEFAULT.expireAfter());

  @Option(names = "--leader-election",
      description = "standalone, kubernetes, auto = kubernetes inside a pod, or file = whoever holds a lock on "
          + "--lease-file (several replicas on one machine) (default: ${DEFAULT-VALUE})")
  String leaderElection = Leadership.DEFAULT.election();

  @Option(names = "--lease-file", paramLabel = "FILE",
      description = "lock file of --leader-election file; the process holding it leads, the OS frees it when that "
          + "process exits (default: none)")
  Path leaseFile;

  @Option(names = "--lease", paramLabel = "NAMESPACE/NAME",
      description = "Kubernetes Lease used for leader election (default: ${DEFAULT-VALUE})")
  String lease = Leadership.DEFAULT.leaseNamespace() + "/" + Leadership.DEFAULT.leaseName();

  @Mixin GeoDatabaseOptions geo = new GeoDatabaseOptions();

  // the second name makes the variable REED_COORDINATOR_TRUSTED_PROXIES (a list, comma-separated)
  @Option(names = {"--trusted-proxy", "--trusted-proxies"}, paramLabel = "CIDR", split = "\\s*,\\s*",
      description = "a proxy (address or CIDR block) whose X-Forwarded-For names the client for its location "
          + "prior; repeatable (env REED_COORDINATOR_TRUSTED_PROXIES, comma-separated; default: none)")
  List<String> trustedProxies;

  @Option(names = "--http", paramLabel = "ADDR:PORT",
      description = "serve reed.v1 as HTTP/JSON, gRPC-Web and gRPC, and the web page at /, on this address "
          + "(env REED_COORDINATOR_HTTP; default: off)")
  String http;

  // the second name makes the variable REED_COORDINATOR_CORS_ORIGINS (a list, comma-separated)
  @Option(names = {"--cors-origin", "--cors-origins"}, paramLabel = "ORIGIN", split = "\\s*,\\s*",
      description = "an origin (https://servers.example, or * for any) whose pages may call the HTTP face; repeatable "
          + "(env REED_COORDINATOR_CORS_ORIGINS, comma-separated; default: none, same origin only)")
  List<String> corsOrigins;

  @Option(names = "--ws-overhead-ms", paramLabel = "MS",
      description = "subtracted from Locate RTTs measured over WebSocket beacons (default: ${DEFAULT-VALUE}; "
          + "measured negligible on loopback, see the coordinator README)")
  double wsOverheadMs;

  @Option(names = "--landmark-quarantine", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "quarantine landmarks whose RTTs disagree with the other landmarks' (the leader decides); "
          + "--no-landmark-quarantine turns it off and readmits every quarantined landmark at the next embedding "
          + "(env REED_COORDINATOR_LANDMARK_QUARANTINE=false; default: on)")
  boolean landmarkQuarantine = true;

  @Option(names = "--reports", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "accept client reports (ReportMeasurements), learn from them and serve report_factor; "
          + "--no-reports turns it off (env REED_COORDINATOR_REPORTS=false; default: on)")
  boolean reports = CoordinatorConfig.Reports.DEFAULT.enabled();

  @Option(names = "--report-key-file", paramLabel = "FILE",
      description = "secret (>= 16 bytes) the client reports' group keys are HMAC-hashed with; share it between "
          + "replicas (env REED_COORDINATOR_REPORT_KEY_FILE; default: a random key per process)")
  Path reportKeyFile = CoordinatorConfig.Reports.DEFAULT.keyFile();

  @Mixin SettingsFileOptions settingsFiles = new SettingsFileOptions();

  @Option(names = "--serve-only",
      description = "a serving replica: reads the index topics and answers gRPC and HTTP queries, but takes no share "
          + "of reed.samples, positions nothing, never leads and runs no master front end (default: ${DEFAULT-VALUE})")
  boolean serveOnly;

  @Option(names = "--group-id", description = "consumer group the replicas share reed.samples in (default: ${DEFAULT-VALUE})")
  String groupId = Kafka.DEFAULT_GROUP_ID;

  /** {@code N} requests/s, or {@code off} for no limit. */
  static double anonymousRate(String text) {
    String t = text.strip();
    if (t.equalsIgnoreCase("off")) return Double.POSITIVE_INFINITY;
    try {
      double r = Double.parseDouble(t);
      if (r >= 0 && Double.isFinite(r)) return r;
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException("--anonymous-rate: expected requests per second (>= 0) or 'off', got '" + text + "'");
  }

  private static Duration duration(String option, String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + ": " + e.getMessage());
    }
  }

  private static java.net.InetSocketAddress httpAddress(String text) {
    try {
      return dev.reed.proto.Endpoints.socketAddress(text, -1);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--http: expected ADDR:PORT, " + e.getMessage());
    }
  }

  /** The configuration these options describe. */
  CoordinatorConfig config() {
    if (kafka.bootstrap() == null || kafka.bootstrap().isBlank()) {
      throw new IllegalArgumentException("--kafka HOST:PORT is required (or REED_COORDINATOR_KAFKA)");
    }
    String[] ns = lease.split("/", 2);
    if (ns.length != 2 || ns[0].isBlank() || ns[1].isBlank()) {
      throw new IllegalArgumentException("--lease: expected NAMESPACE/NAME, got '" + lease + "'");
    }
    return CoordinatorConfig.builder(kafka.bootstrap())
        .kafkaProperties(kafka.config() == null ? Map.of()
            : KafkaClientProperties.read(kafka.config(), CoordinatorConfig.KAFKA_OWNED_KEYS, "coordinator"))
        .bindAddress(bind).grpcPort(grpcPort).metricsPort(metricsPort.port()).dimensions(dimensions.dimensions()).height(height)
        .snapshotDir(snapshotDir).snapshotEvery(duration("--snapshot-every", snapshotEvery)).snapshotKeep(snapshotKeep)
        .checkpoints(new IndexFeed.Checkpoints(indexCheckpoint, duration("--index-checkpoint-every", indexCheckpointEvery),
            duration("--index-checkpoint-serve-within", indexCheckpointServeWithin)))
        .targetsFile(targets).denyFile(deny).quake3MasterPort(q3MasterPort).valveMasterPort(valveMasterPort)
        .crawlMasters(crawl == null ? List.of() : crawl).crawlEvery(duration("--crawl-every", crawlEvery))
        .tls(tlsCert, tlsKey).apiKeysFile(apiKeys)
        .roundInterval(duration("--round-interval", roundInterval)).window(windowRounds)
        .replay(duration("--replay", replay)).expireAfter(duration("--expire-after", expireAfter))
        .leaderElection(leaderElection).lease(ns[0], ns[1]).leaseFile(leaseFile).groupId(groupId)
        .geo(geo.locations(), geo.asns())
        .trustedProxies(trustedProxies == null ? List.of() : trustedProxies)
        .anonymousRate(anonymousRate(anonymousRate)).logClientAddresses(clientAddresses.enabled())
        .http(http == null || http.isBlank() ? null : httpAddress(http))
        .corsOrigins(corsOrigins == null ? List.of() : corsOrigins)
        .wsOverheadMs(wsOverheadMs)
        .quarantine(landmarkQuarantine ? dev.reed.coordinates.integrity.QuarantineConfig.defaults()
            : dev.reed.coordinates.integrity.QuarantineConfig.off())
        .reports(reports).reportKeyFile(reportKeyFile)
        .reportConfig(ModelFile.option("--reports-config", settingsFiles.reports(), ReportConfig.defaults()))
        .integrityConfig(ModelFile.option("--integrity-config", settingsFiles.integrity(), IntegrityConfig.defaults()))
        .serveOnly(serveOnly)
        .build();
  }

  @Override
  public Integer call() throws Exception {
    CoordinatorConfig config;
    try {
      config = config();
    } catch (IllegalArgumentException e) {
      System.err.println("coordinator: " + e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Coordinator c;
    try {
      c = Coordinator.start(config);
    } catch (IllegalArgumentException | java.io.IOException e) {
      System.err.println("coordinator: " + e.getMessage());
      return 1;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      c.close(); // the JVM exits only after the hook returns: stop cleanly, then let main return
      stopped.countDown();
    }, "coordinator-shutdown"));
    System.err.println("coordinator serving gRPC on " + c.grpcAddress()
        + (c.httpUrl() == null ? "" : ", HTTP and the web page on " + c.httpUrl()) + " (Ctrl-C to stop)");
    stopped.await();
    return 0;
  }

  public static void main(String[] args) {
    System.exit(OptionHeadings.commandLine(new CoordinatorCommand()).execute(args));
  }
}
