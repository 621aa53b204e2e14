package dev.reed.coordinator;

import dev.reed.runtime.KafkaClientProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code ./reed coordinator}: runs one coordinator replica until interrupted. Every option also
 * reads an environment variable {@code REED_COORDINATOR_<OPTION>} (e.g.
 * {@code REED_COORDINATOR_KAFKA}, {@code REED_COORDINATOR_GRPC_PORT}); the command line wins.
 */
@Command(name = "coordinator", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Run a REED coordinator: samples from Kafka to coordinates to rankings over gRPC.",
        "Ingests reed.samples and reed.mesh-samples, embeds the landmarks (leader) and positions the targets,",
        "publishes reed.coordinates, serves ReedService and SnapshotService, runs the Quake3 and Valve master",
        "front ends and writes snapshot files. Every option can also be set with REED_COORDINATOR_<OPTION>."})
public final class CoordinatorCommand implements Callable<Integer> {

  @Option(names = "--kafka", paramLabel = "HOST:PORT", defaultValue = "${REED_COORDINATOR_KAFKA}",
      description = "Kafka bootstrap servers (env REED_COORDINATOR_KAFKA); required")
  String kafka;

  @Option(names = "--kafka-config", paramLabel = "FILE", defaultValue = "${REED_COORDINATOR_KAFKA_CONFIG}",
      description = "Kafka client properties for TLS/SASL (security.protocol, ssl.*, sasl.*), applied to every "
          + "Kafka client (env REED_COORDINATOR_KAFKA_CONFIG; default: none)")
  Path kafkaConfig;

  @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "${REED_COORDINATOR_BIND:-0.0.0.0}",
      description = "address every listener binds (default: ${DEFAULT-VALUE})")
  String bind;

  @Option(names = "--grpc-port", defaultValue = "${REED_COORDINATOR_GRPC_PORT:-50051}",
      description = "gRPC port, 0 = any free port (default: ${DEFAULT-VALUE})")
  int grpcPort;

  @Option(names = "--metrics-port", defaultValue = "${REED_COORDINATOR_METRICS_PORT:--1}",
      description = "HTTP port for /metrics and /healthz, -1 = off (default: ${DEFAULT-VALUE})")
  int metricsPort;

  @Option(names = "--dims", defaultValue = "${REED_COORDINATOR_DIMS:-4}",
      description = "coordinate dimensions: 2, 3, 4, 5, 8 or 10 (default: ${DEFAULT-VALUE})")
  int dims;

  @Option(names = "--height", defaultValue = "${REED_COORDINATOR_HEIGHT:-false}",
      description = "add a height (access-link delay) to every coordinate (default: ${DEFAULT-VALUE})")
  boolean height;

  @Option(names = "--snapshot-dir", paramLabel = "DIR", defaultValue = "${REED_COORDINATOR_SNAPSHOT_DIR}",
      description = "write snapshot files here (default: none)")
  Path snapshotDir;

  @Option(names = "--snapshot-every", paramLabel = "DURATION", defaultValue = "${REED_COORDINATOR_SNAPSHOT_EVERY:-5m}",
      description = "snapshot interval, e.g. 30s, 5m, 1h (default: ${DEFAULT-VALUE})")
  String snapshotEvery;

  @Option(names = "--snapshot-keep", defaultValue = "${REED_COORDINATOR_SNAPSHOT_KEEP:-12}",
      description = "snapshot generations kept (default: ${DEFAULT-VALUE})")
  int snapshotKeep;

  @Option(names = "--targets", paramLabel = "FILE", defaultValue = "${REED_COORDINATOR_TARGETS}",
      description = "static target list: 'q3 HOST:PORT' / 'a2s HOST:PORT' lines (default: none)")
  Path targets;

  @Option(names = "--deny", paramLabel = "FILE", defaultValue = "${REED_COORDINATOR_DENY}",
      description = "never probe these: address, CIDR block or HOST:PORT lines; re-read when it changes (default: none)")
  Path deny;

  @Option(names = "--q3-master-port", defaultValue = "${REED_COORDINATOR_Q3_MASTER_PORT:-27950}",
      description = "Quake3 master front end UDP port, -1 = off (default: ${DEFAULT-VALUE})")
  int q3MasterPort;

  @Option(names = "--valve-master-port", defaultValue = "${REED_COORDINATOR_VALVE_MASTER_PORT:-27011}",
      description = "Valve master front end UDP port, -1 = off (default: ${DEFAULT-VALUE})")
  int valveMasterPort;

  @Option(names = "--crawl", paramLabel = "KIND:HOST:PORT", split = ",", defaultValue = "${REED_COORDINATOR_CRAWL}",
      description = "external masters to crawl, e.g. q3:master.ioquake3.org:27950,valve:hl2master.steampowered.com:27011")
  List<String> crawl;

  @Option(names = "--crawl-every", paramLabel = "DURATION", defaultValue = "${REED_COORDINATOR_CRAWL_EVERY:-10m}",
      description = "interval between crawls of each master (default: ${DEFAULT-VALUE})")
  String crawlEvery;

  @Option(names = "--tls-cert", paramLabel = "FILE", defaultValue = "${REED_COORDINATOR_TLS_CERT}",
      description = "PEM certificate chain: serve gRPC over TLS")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE", defaultValue = "${REED_COORDINATOR_TLS_KEY}",
      description = "PEM private key (PKCS#8) for --tls-cert")
  Path tlsKey;

  @Option(names = "--api-keys", paramLabel = "FILE", defaultValue = "${REED_COORDINATOR_API_KEYS}",
      description = "require an x-api-key header; file of 'KEY [requests-per-second]' lines")
  Path apiKeys;

  @Option(names = "--round-interval", paramLabel = "DURATION", defaultValue = "${REED_COORDINATOR_ROUND_INTERVAL:-30s}",
      description = "how often landmarks are embedded and targets positioned (default: ${DEFAULT-VALUE})")
  String roundInterval;

  @Option(names = "--window", defaultValue = "${REED_COORDINATOR_WINDOW:-8}",
      description = "landmark rounds kept per (landmark, target) window (default: ${DEFAULT-VALUE})")
  int window;

  @Option(names = "--replay", paramLabel = "DURATION", defaultValue = "${REED_COORDINATOR_REPLAY:-45m}",
      description = "samples replayed at start to rebuild the windows (default: ${DEFAULT-VALUE})")
  String replay;

  @Option(names = "--expire-after", paramLabel = "DURATION", defaultValue = "${REED_COORDINATOR_EXPIRE_AFTER:-30m}",
      description = "targets unheard this long are deleted (default: ${DEFAULT-VALUE})")
  String expireAfter;

  @Option(names = "--leader-election", defaultValue = "${REED_COORDINATOR_LEADER_ELECTION:-auto}",
      description = "standalone, kubernetes, or auto = kubernetes inside a pod (default: ${DEFAULT-VALUE})")
  String leaderElection;

  @Option(names = "--lease", paramLabel = "NAMESPACE/NAME", defaultValue = "${REED_COORDINATOR_LEASE:-reed/reed-coordinator-leader}",
      description = "Kubernetes Lease used for leader election (default: ${DEFAULT-VALUE})")
  String lease;

  @Option(names = "--group-id", defaultValue = "${REED_COORDINATOR_GROUP_ID:-reed-coordinator}",
      description = "consumer group the replicas share reed.samples in (default: ${DEFAULT-VALUE})")
  String groupId;

  /** Parses 500ms, 30s, 5m, 2h, 1d, or ISO-8601 (PT5M). */
  static Duration duration(String option, String text) {
    String s = text.strip().toLowerCase(Locale.ROOT);
    try {
      if (s.startsWith("pt") || s.startsWith("p")) return Duration.parse(s.toUpperCase(Locale.ROOT));
      if (s.endsWith("ms")) return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
      long n = Long.parseLong(s.substring(0, s.length() - 1));
      return switch (s.charAt(s.length() - 1)) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        case 'd' -> Duration.ofDays(n);
        default -> throw new NumberFormatException();
      };
    } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
      throw new IllegalArgumentException(option + ": expected a duration like 500ms, 30s, 5m, 2h, got '" + text + "'");
    }
  }

  /** The configuration these options describe. */
  CoordinatorConfig config() {
    if (kafka == null || kafka.isBlank()) {
      throw new IllegalArgumentException("--kafka HOST:PORT is required (or REED_COORDINATOR_KAFKA)");
    }
    String[] ns = lease.split("/", 2);
    if (ns.length != 2 || ns[0].isBlank() || ns[1].isBlank()) {
      throw new IllegalArgumentException("--lease: expected NAMESPACE/NAME, got '" + lease + "'");
    }
    return CoordinatorConfig.builder(kafka)
        .kafkaProperties(kafkaConfig == null ? Map.of()
            : KafkaClientProperties.read(kafkaConfig, CoordinatorConfig.KAFKA_OWNED_KEYS, "coordinator"))
        .bindAddress(bind).grpcPort(grpcPort).metricsPort(metricsPort).dimensions(dims).height(height)
        .snapshotDir(snapshotDir).snapshotEvery(duration("--snapshot-every", snapshotEvery)).snapshotKeep(snapshotKeep)
        .targetsFile(targets).denyFile(deny).quake3MasterPort(q3MasterPort).valveMasterPort(valveMasterPort)
        .crawlMasters(crawl == null ? List.of() : crawl).crawlEvery(duration("--crawl-every", crawlEvery))
        .tls(tlsCert, tlsKey).apiKeysFile(apiKeys)
        .roundInterval(duration("--round-interval", roundInterval)).window(window)
        .replay(duration("--replay", replay)).expireAfter(duration("--expire-after", expireAfter))
        .leaderElection(leaderElection).lease(ns[0], ns[1]).groupId(groupId)
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
    System.err.println("coordinator serving gRPC on " + c.grpcAddress() + " (Ctrl-C to stop)");
    stopped.await();
    return 0;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new CoordinatorCommand()).execute(args));
  }
}
