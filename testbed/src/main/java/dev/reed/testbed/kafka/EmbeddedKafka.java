package dev.reed.testbed.kafka;

import dev.reed.proto.Topic;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker (KRaft, combined broker and controller) running inside this
 * JVM on 127.0.0.1. It backs {@code ./reed kafka}, the demo, and every integration test, so the
 * project is tested against the same broker code that runs in production, not a mock.
 *
 * <p>The broker can be stopped and started again on the same ports and data directory, which is
 * how tests take the broker away in the middle of a round. Kafka's own bootstrap classes are
 * internal APIs (as in Kafka's test kit); this is the one class that touches them.
 *
 * <p>Not thread-safe: one owner starts and stops it.
 */
public final class EmbeddedKafka implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);
  private static final String CONTROLLER_LISTENER = "CONTROLLER";
  private static final int NODE_ID = 1;

  private final Path dataDir;
  private final boolean deleteOnClose;
  private final int port;
  private final int controllerPort;
  private final boolean createTopics;
  private KafkaRaftServer server;

  /**
   * @param port client port on 127.0.0.1; 0 picks a free one, kept across restarts
   * @param dataDir log and metadata directory; null for a temporary one deleted on close
   * @param createTopics create the project's topics ({@link Topic#ALL}) when started
   */
  public EmbeddedKafka(int port, Path dataDir, boolean createTopics) {
    try {
      this.deleteOnClose = dataDir == null;
      this.dataDir = dataDir == null ? Files.createTempDirectory("reed-kafka-") : dataDir.toAbsolutePath();
      Files.createDirectories(this.dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create Kafka data directory " + dataDir, e);
    }
    this.port = port == 0 ? freePort() : port;
    this.controllerPort = controllerPort(this.dataDir, this.port);
    this.createTopics = createTopics;
  }

  /** A broker on free ports with a temporary data directory and the project's topics. */
  public static EmbeddedKafka temporary() {
    return new EmbeddedKafka(0, null, true);
  }

  /** {@code 127.0.0.1:port}, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public Path dataDir() {
    return dataDir;
  }

  public boolean isRunning() {
    return server != null;
  }

  /**
   * Formats the data directory if it is new, starts the broker and waits until it answers
   * metadata requests; then creates the project's topics if asked. Idempotent.
   *
   * @throws IllegalStateException if the broker does not come up within 60 s
   */
  public synchronized EmbeddedKafka start() {
    if (server != null) return this;
    long t0 = System.nanoTime();
    // Kafka calls System.exit on fatal errors; in a JVM that also runs the coordinator, the
    // agents and the tests, a broker failure must surface as an exception instead.
    Exit.setExitProcedure((code, message) -> {
      throw new IllegalStateException("Kafka requested exit(" + code + "): " + message);
    });
    Exit.setHaltProcedure((code, message) -> {
      throw new IllegalStateException("Kafka requested halt(" + code + "): " + message);
    });
    KafkaConfig config = KafkaConfig.fromProps(brokerProperties(), false);
    format();
    KafkaRaftServer s = new KafkaRaftServer(config, Time.SYSTEM);
    s.startup();
    server = s;
    awaitReady(Duration.ofSeconds(60));
    if (createTopics) createTopics(Topic.ALL);
    log.info("Kafka broker ready at {} in {} ms (data {})", bootstrapServers(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), dataDir);
    return this;
  }

  /** Stops the broker, keeping its data; {@link #start()} brings it back on the same ports. */
  public synchronized void stop() {
    if (server == null) return;
    KafkaRaftServer s = server;
    server = null;
    s.shutdown();
    s.awaitShutdown();
    log.info("Kafka broker at {} stopped", bootstrapServers());
  }

  /** Stops the broker and deletes a temporary data directory. */
  @Override
  public synchronized void close() {
    stop();
    if (deleteOnClose) deleteRecursively(dataDir);
  }

  /** Creates topics (replication factor 1); topics that exist already are left as they are. */
  public void createTopics(List<Topic> topics) {
    try (Admin admin = admin()) {
      List<NewTopic> requests = new ArrayList<>();
      for (Topic t : topics) {
        requests.add(new NewTopic(t.name(), t.partitions(), (short) 1).configs(t.configs()));
      }
      var result = admin.createTopics(requests);
      for (var e : result.values().entrySet()) {
        try {
          e.getValue().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException ex) {
          if (!(ex.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException("cannot create topic " + e.getKey() + ": " + ex.getCause().getMessage(), ex);
          }
        }
      }
      awaitLeaders(admin, requests.stream().map(NewTopic::name).toList());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("timed out creating topics on " + bootstrapServers(), e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot describe the new topics on " + bootstrapServers() + ": " + e.getCause(), e);
    }
  }

  /**
   * Waits until the broker leads every partition of the topics: a topic is created before its
   * partitions' leadership reaches the broker, and an idempotent producer that writes in between
   * gets NOT_LEADER, retries, and can then be refused with OutOfOrderSequenceException for its
   * whole delivery timeout (seen as a 2-minute stall in a test). Waits for the partitions' logs on
   * the broker too, which come after the metadata that names the leader.
   */
  private static void awaitLeaders(Admin admin, List<String> names)
      throws InterruptedException, ExecutionException, java.util.concurrent.TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      boolean led;
      try {
        var topics = admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS).values();
        led = topics.stream().flatMap(d -> d.partitions().stream())
            .allMatch(p -> p.leader() != null && p.leader().id() == NODE_ID);
        if (led) {
          // the metadata can name the broker leader before its replica manager has made the logs
          // (a producer still got NOT_LEADER then, in ReplicasTest): wait for every partition's log too
          Set<TopicPartition> logs = new HashSet<>();
          admin.describeLogDirs(List.of(NODE_ID)).allDescriptions().get(30, TimeUnit.SECONDS).values().forEach(
              dirs -> dirs.values().forEach(d -> logs.addAll(d.replicaInfos().keySet())));
          led = topics.stream().allMatch(d -> d.partitions().stream()
              .allMatch(p -> logs.contains(new TopicPartition(d.name(), p.partition()))));
        }
      } catch (ExecutionException e) {
        // a topic just created may not be in the broker's metadata yet: not led yet, ask again
        if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)) throw e;
        led = false;
      }
      if (led) return;
      if (System.nanoTime() > deadline) throw new java.util.concurrent.TimeoutException("partition leaders of " + names);
      Thread.sleep(20);
    }
  }

  /** A new admin client for this broker; the caller closes it. */
  public Admin admin() {
    Map<String, Object> props = new HashMap<>();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    return Admin.create(props);
  }

  private Properties brokerProperties() {
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", Integer.toString(NODE_ID));
    p.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
    p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + "," + CONTROLLER_LISTENER + "://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.put("controller.listener.names", CONTROLLER_LISTENER);
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
    p.put("log.dirs", dataDir.toString());
    // a single node: every internal topic has one replica
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "5");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "5");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    // The cleaner's default 128 MiB dedupe buffer lives on the heap and kills small JVMs.
    p.put("log.cleaner.dedupe.buffer.size", Integer.toString(4 * 1024 * 1024));
    p.put("log.cleaner.backoff.ms", "5000");
    // The project's topics are created explicitly; a typo must fail, not create a topic.
    p.put("auto.create.topics.enable", "false");
    p.put("num.partitions", "1");
    p.put("log.segment.bytes", Integer.toString(64 * 1024 * 1024));
    return p;
  }

  private void format() {
    if (Files.exists(dataDir.resolve("meta.properties"))) return; // a restart keeps cluster id and data
    try {
      new Formatter()
          .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
          .setNodeId(NODE_ID)
          .setClusterId(Uuid.randomUuid().toString())
          .addDirectory(dataDir.toString())
          .setMetadataLogDirectory(dataDir.toString())
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
          .setControllerListenerName(CONTROLLER_LISTENER)
          .run();
    } catch (Exception e) {
      throw new IllegalStateException("cannot format Kafka storage in " + dataDir + ": " + e.getMessage(), e);
    }
  }

  private void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Admin admin = admin()) {
      while (true) {
        try {
          if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) return;
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("Kafka broker at " + bootstrapServers() + " not ready in " + timeout, e);
          }
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the broker", e);
    }
  }

  /**
   * The controller's quorum endpoint is part of the metadata a restarted node reads back, so a data
   * directory keeps the port it was first given.
   */
  private static int controllerPort(Path dataDir, int clientPort) {
    Path file = dataDir.resolve("reed-controller-port");
    try {
      if (Files.exists(file)) return Integer.parseInt(Files.readString(file).strip());
      int p = freePort();
      // the kernel may hand out the port it just gave the client listener
      while (p == clientPort) p = freePort();
      Files.writeString(file, Integer.toString(p));
      return p;
    } catch (IOException | NumberFormatException e) {
      throw new IllegalStateException("cannot read or write " + file + ": " + e.getMessage(), e);
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) return;
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.warn("could not delete {}: {}", dir, e.getMessage());
    }
  }
}
