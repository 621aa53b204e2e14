package dev.reed.cli.demo;

import dev.reed.client.ReedClient;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinator.Coordinator;
import dev.reed.coordinator.CoordinatorConfig;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.testbed.emulated.EmulatedServer;
import dev.reed.testbed.kafka.EmbeddedKafka;
import dev.reed.testbed.world.HostLocationsCsv;
import dev.reed.testbed.world.Noise;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything the demo runs, started and stopped: the embedded Kafka broker, the world, its
 * location database, the emulated game servers and the landmark agents (in child JVMs, {@link
 * EmulationProcess}), and the coordinator. Everything is registered as it starts and stopped in
 * reverse order by {@link #close()}, which is idempotent and safe from a shutdown hook while a
 * phase is still running. It also builds the demo's clients: a {@link ReedClient} bound to a
 * site's address.
 */
final class DemoEnvironment implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DemoEnvironment.class);
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration COORDINATOR_ROUND = Duration.ofMillis(2000);
  /** File descriptors kept free for everything but the emulated servers (see {@link #localServerBudget()}). */
  private static final long RESERVED_FILES = 4_000;
  private static final Path RT_RUNTIME = Path.of("/proc/sys/kernel/sched_rt_runtime_us");

  private final DemoOptions options;
  private final Progress progress;
  private final LocationStatement locationStatement;
  private final Object lock = new Object();
  private final Deque<AutoCloseable> opened = new ArrayDeque<>();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile boolean closed;

  private Path workDir;
  private EmbeddedKafka kafka;
  private DemoWorld world;
  /** Every emulated game server, the agents' child's first, then those of the server-only child, if any. */
  private List<EmulatedServer> servers;
  private Map<String, Integer> hostByKey;
  /** The child running the first servers, the landmark agents and the delay-error meter over those servers. */
  private EmulationProcess emulation;
  private Coordinator coordinator;
  private Path targetsFile;
  /** The world's location database given to the coordinator; null when the run has none. */
  private Path locationsFile;
  private String geo;
  /** The landmark agents, as the emulation child announced them. */
  private List<EmulationProcess.Landmark> landmarks = List.of();
  /** Where the web page's browser is in the world (the WebSocket beacons' echo delays); set with the world. */
  private DemoWorld.Site browser;

  DemoEnvironment(DemoOptions options, Progress progress, LocationStatement locationStatement) {
    this.options = options;
    this.progress = progress;
    this.locationStatement = locationStatement;
  }

  /** Starts everything up to the landmark agents, which then probe nothing until a round is asked for. */
  void start(Heartbeat heartbeat) throws IOException {
    workDir = Files.createTempDirectory("reed-demo-");
    register(() -> deleteRecursively(workDir));
    try (var a = heartbeat.begin("starting Kafka")) {
      startKafka();
    }
    buildWorld();
    writeLocations();
    try (var a = heartbeat.begin("starting the emulated servers")) {
      startServers();
    }
    try (var a = heartbeat.begin("starting the coordinator")) {
      startCoordinator();
    }
    try (var a = heartbeat.begin("warming the emulation up")) {
      warmUpEmulation();
    }
    startAgents();
    promoteTimingThreads();
  }

  private void startKafka() {
    long t = progress.now();
    kafka = register(EmbeddedKafka.temporary()).start();
    progress.line("Kafka broker (KRaft, in-process) ready at %s, project topics created (%.1f s)", kafka.bootstrapServers(),
        progress.secondsSince(t));
  }

  private void buildWorld() throws IOException {
    long t = progress.now();
    Noise noise = new Noise(options.jitterMs(), options.lossRate());
    world = DemoWorld.of(options.world(), options.servers(), options.landmarks(), options.seed(), noise);
    browser = world.client(options.browserCity());
    progress.line("world: %s; %d servers, %d landmarks (%s), %d clients; jitter %.1f ms mean, loss %.1f %% (%.1f s)",
        world.description(), world.serverCount(), world.landmarks().size(), world.landmarkMix(), world.clients().size(),
        options.jitterMs(), options.lossRate() * 100, progress.secondsSince(t));
  }

  /**
   * The world's location database: every located host at its loopback address, in the
   * ip-location-db CSV layout {@code --geoip} reads, for the coordinator to locate servers and
   * landmarks as a real deployment locates them from DB-IP.
   */
  private void writeLocations() throws IOException {
    if (!world.located()) {
      geo = "off: the world has no locations";
      progress.line("locations: off, the world has no locations (a measured matrix): no location database, no geo distance rows");
      return;
    }
    if (!options.geo()) {
      geo = "off (--no-geo)";
      progress.line("locations: off (--no-geo): the coordinator gets no location database and clients state no location");
      return;
    }
    long t = progress.now();
    locationsFile = workDir.resolve("locations.csv");
    int n = HostLocationsCsv.write(world.world(), locationsFile);
    boolean states = LocationStatement.states(locationStatement);
    geo = "location database of " + n + " hosts; clients " + (states ? "state their location" : "state no location");
    // the SDK's gRPC connections come from 127.0.0.1, outside the world: a client that states nothing has no location
    progress.line("locations: database of %d located hosts (ip-location-db CSV) for the coordinator; clients %s (%.1f s)", n,
        states ? "state their city's location to the SDK" : "state no location", progress.secondsSince(t));
  }

  private void startServers() throws IOException {
    long t = progress.now();
    int[] hosts = world.servers();
    int local = Math.min(hosts.length, localServerBudget());
    emulation = register(EmulationProcess.withLandmarks(options, options.web() ? browser : null, kafka.bootstrapServers(), local,
        workDir));
    List<EmulatedServer> all = new ArrayList<>(emulation.servers());
    if (local < hosts.length) {
      EmulationProcess rest = register(EmulationProcess.serversOnly(options, local, hosts.length, workDir.resolve("servers.log")));
      all.addAll(rest.servers());
      progress.line("%d servers in the agents' JVM (its open-file limit allows ~%d), %d in a second JVM", local,
          maxOpenFiles(), hosts.length - local);
    }
    servers = List.copyOf(all);
    hostByKey = new HashMap<>();
    long a2s = 0;
    for (EmulatedServer s : servers) {
      hostByKey.put(Endpoints.key(s.address()), s.host());
      if (s.protocol() == GameProtocol.GAME_PROTOCOL_A2S) a2s++;
    }
    progress.line("%d emulated game servers answering (%d A2S with challenge, %d Quake3) on %s .. %s, in a child JVM (GC log "
            + "%s) (%.1f s)", all.size(), a2s, all.size() - a2s, all.getFirst().address().getAddress().getHostAddress(),
        all.getLast().address().getAddress().getHostAddress(), workDir.resolve("emulation-gc.log"), progress.secondsSince(t));
  }

  /**
   * Emulated servers the agents' child may bind: one socket each, within the process's open-file
   * limit (RLIMIT_NOFILE, the same as this JVM's; Java raises the soft limit to the hard one), less
   * what the agents and the class path hold (the demo JVM, which held Kafka, the coordinator and
   * the clients too, measured ~1,500 at 5,000 x 15; kept generous).
   */
  private static int localServerBudget() {
    return (int) Math.max(1_000, Math.min(Integer.MAX_VALUE, maxOpenFiles() - RESERVED_FILES));
  }

  private static long maxOpenFiles() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.UnixOperatingSystemMXBean u ? u.getMaxFileDescriptorCount() : Long.MAX_VALUE;
  }

  private void startCoordinator() throws IOException {
    long t = progress.now();
    targetsFile = workDir.resolve("targets.txt");
    Files.writeString(targetsFile, "# filled once the landmark mesh is embedded\n");
    CoordinatorConfig.Builder config = CoordinatorConfig.builder(kafka.bootstrapServers()).loopbackEphemeral()
        .dimensions(options.dimensions()).height(options.height()).roundInterval(COORDINATOR_ROUND).targetsFile(targetsFile)
        .identity("demo-coordinator").groupId("reed-demo-coordinator");
    if (locationsFile != null) config.geo(HostLocationsCsv.geoFiles(locationsFile));
    // the page may also be opened as static files from elsewhere: any origin may call the demo's coordinator
    if (options.web()) config.http(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).corsOrigins(List.of("*"));
    coordinator = register(Coordinator.start(config.build()));
    progress.line("coordinator up: gRPC %s, %d-D%s coordinates, a round every %.1f s, %s (%.1f s)",
        Endpoints.key(coordinator.grpcAddress()), options.dimensions(), options.height() ? "+height" : "",
        COORDINATOR_ROUND.toMillis() / 1000.0, locationsFile == null ? "no location database" : "the world's location database",
        progress.secondsSince(t));
  }

  private void warmUpEmulation() throws IOException {
    long t = progress.now();
    EmulationProcess.WarmUp w = emulation.warmUp();
    progress.line("warm-up: %d probes to the child's servers (%d answered) at normal priority, so the JIT has compiled the "
        + "probe and reply paths before the real-time rounds (%.1f s)", w.probes(), w.replies(), progress.secondsSince(t));
  }

  private void startAgents() throws IOException {
    long t = progress.now();
    landmarks = emulation.startAgents();
    checkOpen();
    progress.line("%d landmark agents up in the child JVM (beacons %s .. %s, delayed by the world), each probing at %.0f "
        + "probes/s (%.1f s)", landmarks.size(), Endpoints.key(landmarks.getFirst().beacon()),
        Endpoints.key(landmarks.getLast().beacon()), options.agentRate(), progress.secondsSince(t));
    if (options.web()) {
      progress.line("WebSocket beacons %s .. %s, each echo delayed by the world's RTT to the browser in %s",
          landmarks.getFirst().wsBeaconUrl(), landmarks.getLast().wsBeaconUrl(), browser.place());
    }
  }

  /**
   * With {@code --realtime}, the threads whose timing the measured RTTs depend on go to SCHED_FIFO
   * (testbed README, "Delay accuracy": with them promoted the emulator stayed within 1 ms at p99 on a
   * saturated machine; at default priority a thread waits tens to hundreds of ms for a CPU there).
   * They are all in the child JVMs; this JVM's clients were never promoted (their probe engines start
   * after the last promotion), so nothing here is.
   */
  private void promoteTimingThreads() throws IOException {
    if (!options.realtime()) return;
    int n = emulation.promote();
    progress.line("real-time priority (SCHED_FIFO %d-%d) for %d timing threads of the agents' JVM%s",
        EmulationChild.REALTIME_PRIORITY, EmulationChild.REALTIME_PRIORITY + 1, n, n == 0 ? " (none: needs root and chrt)" : "");
    String throttle = rtThrottle(RT_RUNTIME);
    if (n > 0 && throttle != null) progress.line("%s", throttle);
  }

  /**
   * A note when the kernel throttles real-time threads (Linux's default: 0.95 s of every second),
   * null when it does not or cannot be read. Throttled, the timing threads stopped for up to ~1 s
   * in some of a 20,000 x 30 demo's first rounds (delay error p99 0.73-1.3 ms over four runs,
   * against 0.65-0.76 ms with throttling off: docs/research/scale.md); the demo leaves the
   * setting to the operator.
   */
  static String rtThrottle(Path runtimeFile) {
    try {
      long us = Long.parseLong(Files.readString(runtimeFile).trim());
      return us < 0 ? null : String.format(Locale.ROOT, "the kernel throttles real-time threads to %.2f s of each "
          + "second (%s = %d); in the 20,000 x 30 runs here that stopped the timing threads for up to ~1 s in the first round. "
          + "`sysctl -w kernel.sched_rt_runtime_us=-1` turns it off (=%d restores it)", us / 1e6, runtimeFile, us, us);
    } catch (IOException | NumberFormatException e) {
      return null;
    }
  }

  /**
   * With locations on, waits until the coordinator's location model covers 99 % of the positioned
   * servers: it trains in the background a few rounds after they arrive, and rankings (the page's,
   * the discoveries') change when it does, so nothing is measured or shown against a half-trained
   * model. The last few servers wait for a later training (10 s or more apart), which the
   * discoveries need not.
   */
  void awaitLocationModel(Heartbeat heartbeat) throws InterruptedException {
    if (locationsFile == null) return; // no location database: the coordinator trains no model
    long t = progress.now();
    int positioned = coordinator.servingState().servers().size();
    try (var a = heartbeat.begin("location model", () -> coordinator.geoModel().servers().size() + " of " + positioned + " servers")) {
      if (!await(Duration.ofSeconds(60), () -> coordinator.geoModel().estimator() != null
          && coordinator.geoModel().servers().size() >= 0.99 * positioned)) {
        log.warn("coordinator: location model covers {} of {} positioned servers after 60 s",
            coordinator.geoModel().servers().size(), positioned);
        return;
      }
    }
    progress.line("location model trained on %d of the %d positioned servers (%.1f s)", coordinator.geoModel().servers().size(),
        positioned, progress.secondsSince(t));
  }

  /** Prints the page's URL and where its browser is (with the web face on). */
  void announcePage() {
    if (!options.web()) return;
    progress.line("page: %s", pageUrl());
    Place where = world.location(browser.host());
    progress.line("  (the browser is emulated in %s, %s%s: each landmark's WebSocket beacon delays its echo by the world's "
        + "RTT to there; the page never contacts a game server)", browser.place(), browser.region(),
        where == null ? "" : String.format(Locale.ROOT, "; state its location with ?lat=%.2f&lon=%.2f", where.lat(), where.lon()));
  }

  /**
   * One round of every landmark, all at once (each agent paces its own probes), in the child; returns
   * once every agent has published it.
   */
  List<EmulationProcess.AgentRound> round() throws IOException {
    checkOpen();
    return emulation.round();
  }

  /** The delay error of the landmark probes answered since the last call. */
  EmulationProcess.Delays delays() throws IOException {
    return emulation.delay(workDir.resolve("delay-errors.bin"));
  }

  /** A client SDK bound to {@code site}'s address, stating its location when the run does. */
  ReedClient.Builder client(DemoWorld.Site site, double rate) {
    ReedClient.Builder b = ReedClient.builder()
        .coordinator(coordinatorAddress())
        .bind(new InetSocketAddress(world.address(site), 0))
        .rate(rate)
        .model(options.model())
        .probeTimeout(PROBE_TIMEOUT)
        .rpcDeadline(Duration.ofSeconds(10))
        .listSeed(options.seed());
    Place location = world.location(site.host());
    return statesLocation() && location != null ? locationStatement.state(b, location) : b;
  }

  /** True when the coordinator has the location database and clients state where they are. */
  boolean statesLocation() {
    return locationsFile != null && LocationStatement.states(locationStatement);
  }

  DemoWorld world() {
    return world;
  }

  /** The clients' discovery model (--model), its stop rules' tunables included. */
  DiscoveryModel model() {
    return options.model();
  }

  List<EmulatedServer> servers() {
    return servers;
  }

  /** The world's host of a server ("ip:port"), or null. */
  Integer host(String serverKey) {
    return hostByKey.get(serverKey);
  }

  List<EmulationProcess.Landmark> landmarks() {
    return landmarks;
  }

  Coordinator coordinator() {
    return coordinator;
  }

  String coordinatorAddress() {
    return Endpoints.key(coordinator.grpcAddress());
  }

  String kafkaAddress() {
    return kafka.bootstrapServers();
  }

  Path workDir() {
    return workDir;
  }

  Path targetsFile() {
    return targetsFile;
  }

  /** What the run does with locations (database, stated locations, or off and why). */
  String geo() {
    return geo;
  }

  DemoWorld.Site browser() {
    return browser;
  }

  /** The page's URL: the coordinator's HTTP face. */
  String pageUrl() {
    InetSocketAddress a = coordinator.httpAddress();
    if (a == null) throw new IllegalStateException("the web face is off");
    return "http://" + Endpoints.key(a) + "/";
  }

  // ---------------------------------------------------------------- lifecycle

  <T extends AutoCloseable> T register(T resource) {
    synchronized (lock) {
      if (!closed) {
        opened.push(resource);
        return resource;
      }
    }
    closeQuietly(resource);
    throw new IllegalStateException("the demo is stopping");
  }

  /** True once {@link #close()} has begun. */
  boolean isClosed() {
    return closed;
  }

  void checkOpen() {
    if (closed) throw new IllegalStateException("the demo is stopping");
  }

  /** Blocks until {@link #close()}. */
  void awaitClose() throws InterruptedException {
    stopped.await();
  }

  /** Stops everything in reverse start order; idempotent, callable from any thread (the shutdown hook). */
  @Override
  public void close() {
    List<AutoCloseable> toClose;
    synchronized (lock) {
      if (closed) return;
      closed = true;
      toClose = new ArrayList<>(opened);
      opened.clear();
    }
    long t = progress.now();
    for (AutoCloseable c : toClose) closeQuietly(c);
    stopped.countDown();
    progress.line("stopped everything (%.1f s)", progress.secondsSince(t));
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      log.warn("while stopping: {}", e.toString());
    }
  }

  /** Polls {@code condition} every 50 ms until it holds (true) or {@code max} has passed (false). */
  static boolean await(Duration max, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) return false;
      Thread.sleep(50);
    }
    return true;
  }

  private static void deleteRecursively(Path dir) {
    if (dir == null || !Files.exists(dir)) return;
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException | UncheckedIOException e) {
      log.warn("could not delete {}: {}", dir, e.toString());
    }
  }
}
