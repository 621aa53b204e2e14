package dev.reed.cli.demo;

import dev.reed.client.DiscoveredServer;
import dev.reed.client.DiscoveryEvent;
import dev.reed.client.DiscoveryRequest;
import dev.reed.client.DiscoveryResult;
import dev.reed.client.Filter;
import dev.reed.client.ListedServer;
import dev.reed.client.PredictedServer;
import dev.reed.client.ReedClient;
import dev.reed.client.ReedClientException;
import dev.reed.client.ServerListSource;
import dev.reed.client.StopRule;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.Stats;
import dev.reed.coordinates.autostop.AutoStopPolicy;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinator.Coordinator;
import dev.reed.coordinator.CoordinatorConfig;
import dev.reed.coordinator.index.ServingState;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.testbed.emulated.EmulatedGameServers;
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
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole REED system on one machine (docs/design.md section 5): an embedded Kafka broker,
 * a coordinator, landmark agents and thousands of emulated game servers, every host on its own
 * loopback address of an emulated world whose latencies the servers and the agents' beacons
 * impose on every reply. The run follows the paper's third-party deployment (Armitage &amp;
 * Heyde, TOMCCAP 2011, section 6.3): landmarks measure each other and every server in rounds,
 * the coordinator embeds and positions, and then clients in Europe, North America and Asia
 * discover servers through the real client SDK, REED (First and Intelligent N_close) against
 * traditional discovery, over real sockets, giving the figures of the paper's Tables III-VI. The
 * emulated servers, the landmark agents and the delay-error meter run in child JVMs ({@link
 * EmulationProcess}), away from the allocation and GC pauses of Kafka and the coordinator, which
 * stay here with the clients.
 *
 * <p>Everything it starts is registered as it starts and stopped in reverse order by
 * {@link #close()}, which is idempotent and safe from a shutdown hook while {@link #run()} is
 * still going.
 */
final class Demo implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Demo.class);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration COORDINATOR_ROUND = Duration.ofMillis(2000);
  /** Random server pairs whose predicted RTT is checked against the world each round. */
  private static final int PAIRS = 2000;
  /**
   * The geo distance rows probe the nearest 10 x N_close servers by distance: enough for either
   * stop rule to decide in the synthetic world, 3 s at 140 probes/s instead of the whole list.
   */
  private static final int GEO_LIST_PER_N_CLOSE = 10;
  /** File descriptors kept free for everything but the emulated servers (see {@link #localServerBudget()}). */
  private static final long RESERVED_FILES = 4_000;

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
  private List<EmulatedServer> serverList;
  /** The child running the first servers, the landmark agents and the delay-error meter over those servers. */
  private EmulationProcess emulation;
  private final List<Double> delayErrors = new ArrayList<>();
  /** The emulated servers' counters after the last measurement round. */
  private EmulatedGameServers.Counters emulatorCounters;
  private Map<String, Integer> hostByKey;
  private Coordinator coordinator;
  private Path targetsFile;
  /** The world's location database given to the coordinator; null when the run has none. */
  private Path locationsFile;
  private String geo;
  /** The landmark agents, as the emulation child announced them. */
  private List<EmulationProcess.Landmark> landmarks = List.of();
  /** Where the web page's browser is in the world (the WebSocket beacons' echo delays); set with the world. */
  private DemoWorld.Site browser;

  Demo(DemoOptions options, Progress progress) {
    this(options, progress, LocationStatement.SDK);
  }

  Demo(DemoOptions options, Progress progress, LocationStatement locationStatement) {
    this.options = options;
    this.progress = progress;
    this.locationStatement = locationStatement;
  }

  /**
   * Starts everything, measures until the coordinates converge, runs the discoveries and returns
   * the figures. Everything stays running until {@link #close()}.
   */
  DemoReport run() throws IOException, InterruptedException {
    long t0 = progress.now();
    List<RoundFigures> rounds = new ArrayList<>();
    boolean converged = start(rounds);
    List<MethodFigures> methods = discover();
    return new DemoReport(world.description(), world.serverCount(), landmarks.size(), kafka.bootstrapServers(),
        Endpoints.key(coordinator.grpcAddress()), geo, rounds, converged, options.nClose(), methods,
        DelayError.of(delayErrors.stream().mapToDouble(Double::doubleValue).toArray()), progress.secondsSince(t0));
  }

  /**
   * Starts everything and measures until the coordinates converge (everything {@link #run()} does
   * before the discoveries); with the web face on, prints the page's URL once the servers are
   * positioned.
   *
   * @param rounds receives each measurement round's figures
   * @return true when the coordinates converged before the round cap
   */
  boolean start(List<RoundFigures> rounds) throws IOException, InterruptedException {
    workDir = Files.createTempDirectory("reed-demo-");
    register(() -> deleteRecursively(workDir));
    startKafka();
    buildWorld();
    writeLocations();
    startServers();
    startCoordinator();
    warmUpEmulation();
    startAgents();
    promoteTimingThreads();
    meshRounds();
    publishCatalog();
    boolean converged = measure(rounds);
    awaitGeoModel();
    if (options.web()) {
      progress.line("page: %s", pageUrl());
      Place where = world.location(browser.host());
      progress.line("  (the browser is emulated in %s, %s%s: each landmark's WebSocket beacon delays its echo by the world's "
          + "RTT to there; the page never contacts a game server)", browser.place(), browser.region(),
          where == null ? "" : String.format(Locale.ROOT, "; state its location with ?lat=%.2f&lon=%.2f", where.lat(), where.lon()));
    }
    return converged;
  }

  /**
   * With locations on, waits until the coordinator's location model covers the positioned servers:
   * it trains in the background a few rounds after they arrive, and rankings (the page's, the
   * discoveries') change when it does, so nothing is measured or shown against a half-trained model.
   */
  private void awaitGeoModel() throws InterruptedException {
    if (locationsFile == null) return; // no location database: the coordinator trains no model
    long t = progress.now();
    int positioned = coordinator.servingState().servers().size();
    if (!await(Duration.ofSeconds(60), () -> coordinator.geoModel().estimator() != null
        && coordinator.geoModel().servers().size() >= positioned)) {
      log.warn("coordinator: location model covers {} of {} positioned servers after 60 s",
          coordinator.geoModel().servers().size(), positioned);
      return;
    }
    progress.line("location model trained on the %d positioned servers (%.1f s)", positioned, progress.secondsSince(t));
  }

  // ---------------------------------------------------------------- phase 1: start everything

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
   * The world's location database (issue 15): every located host at its loopback address, in the
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
    serverList = List.copyOf(all);
    hostByKey = new HashMap<>();
    long a2s = 0;
    for (EmulatedServer s : serverList) {
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
        .dimensions(options.dimensions()).height(options.height()).roundInterval(COORDINATOR_ROUND).targetsFile(targetsFile).identity("demo-coordinator")
        .groupId("reed-demo-coordinator");
    if (locationsFile != null) config.geo(HostLocationsCsv.geoFiles(locationsFile));
    // the page may also be opened as static files from elsewhere: any origin may call the demo's coordinator
    if (options.web()) config.http(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).corsOrigins(List.of("*"));
    coordinator = register(Coordinator.start(config.build()));
    progress.line("coordinator up: gRPC %s, %d-D%s coordinates, a round every %.1f s, %s (%.1f s)",
        Endpoints.key(coordinator.grpcAddress()), options.dimensions(), options.height() ? "+height" : "", COORDINATOR_ROUND.toMillis() / 1000.0,
        locationsFile == null ? "no location database" : "the world's location database", progress.secondsSince(t));
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

  private static final Path RT_RUNTIME = Path.of("/proc/sys/kernel/sched_rt_runtime_us");

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

  /** The emulated RTT between a landmark and the browser's host, without jitter (NaN: unreachable). */
  double browserRttMs(String landmarkId) {
    for (DemoWorld.Site l : world.landmarks()) if (l.id().equals(landmarkId)) return world.world().rttMs(l.host(), browser.host());
    throw new IllegalArgumentException("no landmark " + landmarkId);
  }

  /** The emulated RTT between the browser's host and a game server ("ip:port"); NaN for an unknown server. */
  double browserRttToServerMs(String serverKey) {
    Integer host = hostByKey.get(serverKey);
    return host == null ? Double.NaN : world.world().rttMs(browser.host(), host);
  }

  /** Where the browser of the web page is in the world. */
  DemoWorld.Site browser() {
    return browser;
  }

  /** The page's URL: the coordinator's HTTP face. */
  String pageUrl() {
    InetSocketAddress a = coordinator.httpAddress();
    if (a == null) throw new IllegalStateException("the web face is off");
    return "http://" + Endpoints.key(a) + "/";
  }

  /** The running coordinator (tests stop it to see the page cope). */
  Coordinator coordinator() {
    return coordinator;
  }

  // ---------------------------------------------------------------- phase 2: measure

  /**
   * The landmark mesh first, with no targets yet: a round's mesh probes go to the landmarks
   * announced before it, so the first round introduces the landmarks and the second measures the
   * full mesh; the coordinator then embeds them (GNP) and can position targets from then on.
   */
  private void meshRounds() throws IOException, InterruptedException {
    long t = progress.now();
    int rounds = 0;
    boolean embedded = false;
    while (!embedded && rounds < 4) {
      roundAll();
      rounds++;
      if (rounds >= 2) {
        embedded = await(Duration.ofSeconds(20), () -> coordinator.servingState().landmarks().size() >= landmarks.size());
      }
    }
    ServingState s = coordinator.servingState();
    if (s.landmarks().size() <= options.dimensions()) {
      throw new IOException("the coordinator embedded only " + s.landmarks().size() + " of " + landmarks.size()
          + " landmarks after " + rounds + " mesh rounds; cannot position servers");
    }
    double[] errors = s.landmarks().values().stream().mapToDouble(l -> l.getFit().getRelativeError()).sorted().toArray();
    progress.line("landmark mesh: %d rounds, %d/%d landmarks embedded (epoch %d), median mesh fit error %.3f (%.1f s)",
        rounds, s.landmarks().size(), landmarks.size(), s.landmarkEpoch(), Stats.quantile(errors, 0.5), progress.secondsSince(t));
  }

  /** The catalog: every server goes into the coordinator's target file, from there to reed.targets. */
  private void publishCatalog() throws IOException, InterruptedException {
    long t = progress.now();
    StringBuilder sb = new StringBuilder("# the demo's emulated game servers\n");
    for (EmulatedServer s : serverList) {
      sb.append(s.protocol() == GameProtocol.GAME_PROTOCOL_A2S ? "a2s " : "q3 ").append(Endpoints.key(s.address())).append('\n');
    }
    Path tmp = workDir.resolve("targets.tmp");
    Files.writeString(tmp, sb);
    Files.move(tmp, targetsFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    int n = world.serverCount();
    if (!await(Duration.ofSeconds(60), () -> coordinator.servingState().targets().size() >= n)) {
      throw new IOException("the coordinator published only " + coordinator.servingState().targets().size() + " of " + n
          + " targets to reed.targets within 60 s");
    }
    progress.line("catalog: %d targets in reed.targets (static target file of the coordinator) (%.1f s)", n,
        progress.secondsSince(t));
  }

  /**
   * Measurement rounds until the median fit error stops improving by more than the convergence
   * threshold (at least two rounds), or the round cap.
   *
   * @return true when converged before the cap
   */
  private boolean measure(List<RoundFigures> out) throws IOException, InterruptedException {
    long t = progress.now();
    progress.line("measurement rounds: %d landmarks x %d servers, %.0f probes/s per landmark; until the median fit error "
        + "improves by < %.0f %% (at most %d rounds)", landmarks.size(), world.serverCount(), options.agentRate(),
        options.convergence() * 100, options.maxRounds());
    RoundFigures previous = null;
    for (int r = 1; r <= options.maxRounds(); r++) {
      RoundFigures f = measureRound(r);
      out.add(f);
      progress.line("round %d: %d probes, %d replies, %d timeouts in %.1f s | coordinator: %d/%d servers positioned, fit error "
              + "median %.3f p90 %.3f, predicted server-to-server RTT error median %.3f (%.1f s)",
          r, (long) f.targets() * landmarks.size(), f.replies(), f.timeouts(), f.measureSeconds(), f.positioned(),
          world.serverCount(), f.medianFitError(), f.p90FitError(), f.medianPairError(), f.seconds());
      EmulatedGameServers.Counters c = emulatorCounters;
      progress.line("  delay error of the emulation (measured - intended RTT) over %d landmark probes: p50 %.3f ms, p99 %.3f ms, "
          + "max %.1f ms (so far the servers' sender sent %d of %d replies > 1 ms late, the worst %.1f ms late)", f.delayError().probes(),
          f.delayError().p50Ms(), f.delayError().p99Ms(), f.delayError().maxMs(), c.lateOver1ms(), c.sent(), c.maxLatenessMicros() / 1e3);
      if (previous != null && f.positioned() >= 0.95 * world.serverCount()
          && previous.medianFitError() - f.medianFitError() < options.convergence() * previous.medianFitError()) {
        progress.line("converged after %d rounds: median fit error %.3f -> %.3f (%.1f s)", r, previous.medianFitError(),
            f.medianFitError(), progress.secondsSince(t));
        return true;
      }
      previous = f;
    }
    progress.line("round cap of %d reached (%.1f s)", options.maxRounds(), progress.secondsSince(t));
    return false;
  }

  private RoundFigures measureRound(int r) throws IOException, InterruptedException {
    long t = progress.now();
    List<EmulationProcess.AgentRound> reports = roundAll();
    double measured = progress.secondsSince(t);
    EmulationProcess.Delays delays = emulation.delay(workDir.resolve("delay-errors.bin"));
    double[] delay = delays.errorsMs();
    for (double d : delay) delayErrors.add(d);
    emulatorCounters = delays.counters();
    long agentRound = reports.stream().mapToLong(EmulationProcess.AgentRound::round).max().orElse(0);
    int targets = reports.stream().mapToInt(EmulationProcess.AgentRound::targets).max().orElse(0);
    long replies = reports.stream().mapToLong(EmulationProcess.AgentRound::replies).sum();
    long timeouts = reports.stream().mapToLong(EmulationProcess.AgentRound::timeouts).sum();
    int n = world.serverCount();
    // every sample of the round is in Kafka now. The coordinator polls between its rounds, so the
    // second round it starts from now on positions with all of them; then the index feed picks up
    // the published coordinates
    long done = coordinator.roundsCompleted();
    if (!await(Duration.ofSeconds(90), () -> coordinator.roundsCompleted() >= done + 2 && fresh(agentRound) >= 0.99 * n)) {
      log.warn("coordinator: only {} of {} servers positioned with round {} after 90 s", fresh(agentRound), n, agentRound);
    }
    Thread.sleep(500);
    ServingState s = coordinator.servingState();
    double[] errors = s.servers().values().stream().mapToDouble(c -> c.getFit().getRelativeError()).sorted().toArray();
    return new RoundFigures(r, agentRound, targets, replies, timeouts, measured, fresh(agentRound), Stats.quantile(errors, 0.5),
        Stats.quantile(errors, 0.9), pairError(s, r), DelayError.of(delay), progress.secondsSince(t));
  }

  private int fresh(long agentRound) {
    int k = 0;
    for (ServerCoordinate c : coordinator.servingState().servers().values()) if (c.getRound() >= agentRound) k++;
    return k;
  }

  /** Median relative error of predicted vs true RTT over random server pairs (never measured by anyone). */
  private double pairError(ServingState s, int round) {
    List<Map.Entry<String, ServerCoordinate>> list = new ArrayList<>(s.servers().entrySet());
    if (list.size() < 2) return Double.NaN;
    SplittableRandom rng = new SplittableRandom(options.seed() + round);
    double[] rel = new double[PAIRS];
    int k = 0;
    for (int i = 0; i < PAIRS; i++) {
      var a = list.get(rng.nextInt(list.size()));
      var b = list.get(rng.nextInt(list.size()));
      Integer ha = hostByKey.get(a.getKey());
      Integer hb = hostByKey.get(b.getKey());
      if (ha == null || hb == null || ha.equals(hb)) continue;
      double truth = world.world().rttMs(ha, hb);
      if (!(truth > 0)) continue;
      double predicted = coordinate(a.getValue().getCoordinate()).distanceTo(coordinate(b.getValue().getCoordinate()));
      rel[k++] = Math.abs(predicted - truth) / truth;
    }
    double[] v = Arrays.copyOf(rel, k);
    Arrays.sort(v);
    return Stats.quantile(v, 0.5);
  }

  private static Coordinate coordinate(dev.reed.proto.v1.Coordinate c) {
    double[] v = new double[c.getComponentsCount()];
    for (int i = 0; i < v.length; i++) v[i] = c.getComponents(i);
    return new Coordinate(v, c.getHeightMs());
  }

  /**
   * One round of every landmark, all at once (each agent paces its own probes), in the child; returns
   * once every agent has published it.
   */
  private List<EmulationProcess.AgentRound> roundAll() throws IOException {
    checkOpen();
    return emulation.round();
  }

  // ---------------------------------------------------------------- phase 3: discover

  /**
   * REED discovery (First, then Intelligent N_close) from each client in turn, then traditional
   * discovery from all clients at once, each from its own address and sockets as players browse.
   * At 140 probes/s a list of thousands takes most of a minute, so the traditional runs cannot
   * go one after another in the demo's time budget; REED's short runs go one at a time so that
   * their RTTs are measured on a quiet machine.
   */
  private List<MethodFigures> discover() throws IOException, InterruptedException {
    List<ListedServer> master = new ArrayList<>();
    for (EmulatedServer s : serverList) master.add(new ListedServer(s.address(), s.protocol()));
    Collections.shuffle(master, new Random(options.seed()));   // a master list is in no useful order
    warmUp();
    long t = progress.now();
    List<DemoWorld.Site> clients = world.clients();
    progress.line("REED discovery through the client SDK (ReedClient bound to the client's address, real probes), First "
        + "and Intelligent N_close=%d at %.0f probes/s:", options.nClose(), options.clientRate());
    Map<DemoWorld.Site, double[]> optimal = new HashMap<>();
    Map<DemoWorld.Site, Set<String>> nearest = new HashMap<>();
    Map<DemoWorld.Site, List<MethodFigures>> byClient = new HashMap<>();
    boolean reporting = options.reports() && coordinator.reportLearning() != null && !world.neighbours().isEmpty();
    long reportsBefore = reporting ? coordinator.reportLearning().reports() : 0;
    for (DemoWorld.Site client : clients) {
      checkOpen();
      long tc = progress.now();
      optimal.put(client, world.optimal(client, options.nClose()));
      nearest.put(client, nearestKeys(client));
      MethodFigures first = reed(client, "first", StopRule.first(options.nClose()), optimal.get(client), nearest.get(client),
          reporting);
      MethodFigures intelligent = reed(client, "intelligent", StopRule.intelligent(options.nClose()), optimal.get(client),
          nearest.get(client), reporting);
      byClient.put(client, new ArrayList<>(List.of(first, intelligent)));
      progress.line("  %s (%s, %s, %s): First %d probes (mean RTT %.1f ms, %+.1f ms from the optimum, %d/%d nearest), "
              + "Intelligent %d probes (%.1f ms); optimal %.1f ms (%.1f s)", client.id(), client.region(), client.place(),
          first.address(), first.probes(), first.meanRttMs(), first.excessMs(), first.nearestFound(), options.nClose(),
          intelligent.probes(), intelligent.meanRttMs(), first.optimalMeanMs(), progress.secondsSince(tc));
      if (world.located()) {
        long tg = progress.now();
        List<MethodFigures> geoRows = geoDistance(client, optimal.get(client), nearest.get(client));
        byClient.get(client).addAll(geoRows);
        progress.line("  %s geo distance, no calibration: First %d probes (mean RTT %.1f ms, %d/%d nearest), Intelligent %d "
                + "probes (%.1f ms) (%.1f s)", client.id(), geoRows.get(0).probes(), geoRows.get(0).meanRttMs(),
            geoRows.get(0).nearestFound(), options.nClose(), geoRows.get(1).probes(), geoRows.get(1).meanRttMs(),
            progress.secondsSince(tg));
      }
      if (locationsFile != null && LocationStatement.states(locationStatement)) {
        long tz = progress.now();
        List<MethodFigures> zeroRows = zeroProbe(client, optimal.get(client), nearest.get(client));
        byClient.get(client).addAll(zeroRows);
        if (!zeroRows.isEmpty()) {
          progress.line("  %s zero-probe ranking (the coordinator's, from the stated location): First %d probes (mean RTT %.1f ms, "
                  + "%d/%d nearest), Intelligent %d probes (%.1f ms) (%.1f s)", client.id(), zeroRows.get(0).probes(),
              zeroRows.get(0).meanRttMs(), zeroRows.get(0).nearestFound(), options.nClose(), zeroRows.get(1).probes(),
              zeroRows.get(1).meanRttMs(), progress.secondsSince(tz));
        }
      }
    }
    if (reporting) {
      secondRound(clients, byClient, reportsBefore + 2L * clients.size());
    }
    progress.line("traditional discovery from all %d clients at once: the whole list of %d servers, shuffled, at %.0f "
        + "probes/s each ...", clients.size(), master.size(), options.traditionalRate());
    long tt = progress.now();
    ExecutorService pool = Executors.newFixedThreadPool(clients.size(),
        r -> Thread.ofPlatform().name("reed-demo-traditional").daemon().unstarted(r));
    try {
      Map<DemoWorld.Site, Future<MethodFigures>> running = new LinkedHashMap<>();
      for (DemoWorld.Site client : clients) {
        running.put(client, pool.submit(() -> traditional(client, master, optimal.get(client), nearest.get(client))));
      }
      for (var e : running.entrySet()) {
        try {
          byClient.get(e.getKey()).add(e.getValue().get());
        } catch (ExecutionException ex) {
          throw new IOException("traditional discovery from " + e.getKey().id() + " failed: " + ex.getCause(), ex.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
    List<MethodFigures> out = new ArrayList<>();
    for (DemoWorld.Site client : clients) {
      MethodFigures m = byClient.get(client).getLast();
      progress.line("  %s: %d probes, %d servers answered, mean RTT of the best %d %.1f ms", client.id(), m.probes(), m.found(),
          options.nClose(), m.meanRttMs());
      out.addAll(byClient.get(client));
    }
    progress.line("discovery done (%.1f s; traditional %.1f s)", progress.secondsSince(t), progress.secondsSince(tt));
    return out;
  }

  /**
   * Issue 16's second round: once the coordinator has learned the first round's reports, a new player
   * in each client's city (its own host and address, {@link DemoWorld#neighbours()}) runs REED First
   * and Intelligent N_close, without reporting; the rows sit beside the city's first client, with the
   * new player's own optimum and true nearest.
   */
  private void secondRound(List<DemoWorld.Site> clients, Map<DemoWorld.Site, List<MethodFigures>> byClient, long reports)
      throws InterruptedException {
    long t = progress.now();
    boolean learned = await(Duration.ofSeconds(30), () -> coordinator.reportLearning().reports() >= reports);
    progress.line("reports: the coordinator learned %d reports (%d RTTs kept%s); a new player in each city discovers (%.1f s)",
        coordinator.reportLearning().reports(), coordinator.reportLearning().kept(), learned ? "" : ", fewer than sent after 30 s",
        progress.secondsSince(t));
    for (int i = 0; i < clients.size(); i++) {
      checkOpen();
      long tc = progress.now();
      DemoWorld.Site client = clients.get(i);
      DemoWorld.Site next = world.neighbours().get(i);
      double[] optimal = world.optimal(next, options.nClose());
      Set<String> nearest = nearestKeys(next);
      MethodFigures first = reed(next, "reports-first", StopRule.first(options.nClose()), optimal, nearest).inRowsOf(client);
      MethodFigures intelligent = reed(next, "reports-intelligent", StopRule.intelligent(options.nClose()), optimal, nearest)
          .inRowsOf(client);
      List<MethodFigures> rows = byClient.get(client);
      int at = 2; // right after the city's REED rows
      rows.add(at, first);
      rows.add(at + 1, intelligent);
      progress.line("  %s (%s, a new player in %s's city): First %d probes (mean RTT %.1f ms, %+.1f ms from its optimum, %d/%d "
              + "nearest), Intelligent %d probes (%.1f ms) (%.1f s)", next.id(), first.address(), client.id(), first.probes(),
          first.meanRttMs(), first.excessMs(), first.nearestFound(), options.nClose(), intelligent.probes(),
          intelligent.meanRttMs(), progress.secondsSince(tc));
    }
  }

  /**
   * One calibration from the first client, not counted: the first gRPC call of a JVM loads and
   * compiles the whole Netty stack, which a server browser pays once at start, not per discovery.
   */
  private void warmUp() {
    long t = progress.now();
    DemoWorld.Site client = world.clients().getFirst();
    try (ReedClient c = client(client, options.clientRate()).build()) {
      c.locate();
    }
    progress.line("client SDK warmed up: one calibration from %s, not counted (%.1f s)", client.id(), progress.secondsSince(t));
  }

  private Set<String> nearestKeys(DemoWorld.Site client) {
    List<EmulatedServer> all = new ArrayList<>(serverList);
    all.removeIf(s -> Double.isNaN(world.world().rttMs(client.host(), s.host())));
    all.sort(Comparator.comparingDouble(s -> world.world().rttMs(client.host(), s.host())));
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < Math.min(options.nClose(), all.size()); i++) keys.add(Endpoints.key(all.get(i).address()));
    return keys;
  }

  private ReedClient.Builder client(DemoWorld.Site client, double rate) {
    ReedClient.Builder b = ReedClient.builder()
        .coordinator(Endpoints.key(coordinator.grpcAddress()))
        .bind(new InetSocketAddress(world.address(client), 0))
        .rate(rate)
        .calibrationCount(options.calibration())
        .probeTimeout(PROBE_TIMEOUT)
        .rpcDeadline(Duration.ofSeconds(10))
        .listSeed(options.seed());
    Place location = world.location(client.host());
    return locationsFile != null && location != null ? locationStatement.state(b, location) : b;
  }

  /**
   * The geo distance rows (issue 15): the servers nearest the client's location by great-circle
   * distance, in that order, no calibration.
   */
  private List<MethodFigures> geoDistance(DemoWorld.Site client, double[] optimal, Set<String> nearest) {
    Place from = world.location(client.host());
    List<EmulatedServer> ordered = GeoDistanceOrder.byDistance(from, serverList, s -> world.location(s.host()));
    List<EmulatedServer> list = ordered.subList(0, Math.min(ordered.size(), GEO_LIST_PER_N_CLOSE * options.nClose()));
    double[] predicted = new double[list.size()];
    Arrays.fill(predicted, Double.NaN);
    return probedInOrder(client, "geo", list, predicted, optimal, nearest);
  }

  /**
   * The zero-probe rows (issue 15): the coordinator's ranking from the client's stated location
   * alone ({@code ReedClient.rankByLocation}, one call), probed in that order, no calibration.
   *
   * @return the rows, or none (and a line saying why) when the coordinator cannot rank yet
   */
  private List<MethodFigures> zeroProbe(DemoWorld.Site client, double[] optimal, Set<String> nearest) {
    Map<String, EmulatedServer> byKey = new HashMap<>();
    for (EmulatedServer s : serverList) byKey.put(Endpoints.key(s.address()), s);
    List<PredictedServer> ranked;
    try (ReedClient c = client(client, options.clientRate()).build()) {
      ranked = c.rankByLocation(Filter.none(), Math.min(5000, GEO_LIST_PER_N_CLOSE * options.nClose()));
    } catch (ReedClientException e) {
      progress.line("  %s zero-probe ranking unavailable: %s", client.id(), e.getMessage());
      return List.of();
    }
    List<EmulatedServer> list = new ArrayList<>();
    List<Double> predicted = new ArrayList<>();
    for (PredictedServer p : ranked) {
      EmulatedServer s = byKey.get(Endpoints.key(p.address()));
      if (s == null) continue;   // a landmark's beacon or a server the demo does not know: not a game server here
      list.add(s);
      predicted.add(p.predictedMs());
    }
    return probedInOrder(client, "zero", list, predicted.stream().mapToDouble(Double::doubleValue).toArray(), optimal, nearest);
  }

  /**
   * Probes {@code list} in its order for real, through the SDK's list discovery from the client's
   * address at the REED rows' rate; First and Intelligent N_close are then replayed on the replies
   * in probe order, as the SDK applies them ({@link GeoDistanceOrder#replay}).
   *
   * @param prefix the rows' method prefix: "geo" gives "geo-first" and "geo-intelligent"
   * @param predicted the order's predicted RTT per list entry, NaN where it has none
   */
  private List<MethodFigures> probedInOrder(DemoWorld.Site client, String prefix, List<EmulatedServer> list, double[] predicted,
      double[] optimal, Set<String> nearest) {
    Map<String, Integer> indexByKey = new HashMap<>();
    List<ListedServer> listed = new ArrayList<>();
    for (EmulatedServer s : list) {
      indexByKey.put(Endpoints.key(s.address()), listed.size());
      listed.add(new ListedServer(s.address(), s.protocol()));
    }
    List<GeoDistanceOrder.Outcome> arrivals = Collections.synchronizedList(new ArrayList<>());
    Set<Integer> seen = Collections.synchronizedSet(new HashSet<>());
    long t0 = System.nanoTime();
    try (ReedClient c = client(client, options.clientRate()).traditionalList(ServerListSource.of(listed)).build()) {
      c.discoverTraditional(DiscoveryRequest.defaults().withMaxDuration(Duration.ofMinutes(2)), e -> {
        Integer index = null;
        double rtt = Double.NaN;
        int sent = 0;
        if (e instanceof DiscoveryEvent.ServerFound f) {
          index = indexByKey.get(f.server().key());
          rtt = f.server().rttMs();
          sent = f.probesSent();
        } else if (e instanceof DiscoveryEvent.NoReply n) {
          index = indexByKey.get(Endpoints.key(n.address()));
          sent = n.probesSent();
        }
        if (index != null && seen.add(index)) {
          arrivals.add(new GeoDistanceOrder.Outcome(index, rtt, sent, (System.nanoTime() - t0) / 1e9));
        }
      });
    }
    List<MethodFigures> out = new ArrayList<>();
    out.add(replayed(client, prefix + "-first", AutoStopPolicy.firstNClose(options.nClose()), list, predicted, arrivals, optimal,
        nearest));
    StopRule.IntelligentClose rule = StopRule.intelligent(options.nClose());
    out.add(replayed(client, prefix + "-intelligent", AutoStopPolicy.intelligentNClose(rule.nClose(), rule.window(), rule.marginMs()),
        list, predicted, arrivals, optimal, nearest));
    return out;
  }

  private MethodFigures replayed(DemoWorld.Site client, String method, AutoStopPolicy policy, List<EmulatedServer> list,
      double[] predicted, List<GeoDistanceOrder.Outcome> arrivals, double[] optimal, Set<String> nearest) {
    GeoDistanceOrder.Stop stop = GeoDistanceOrder.replay(List.copyOf(arrivals), list.size(), policy);
    double[] rtt = stop.found().stream().mapToDouble(GeoDistanceOrder.Outcome::rttMs).sorted().toArray();
    int k = Math.min(options.nClose(), rtt.length);
    double mean = k == 0 ? Double.NaN : Arrays.stream(rtt, 0, k).average().orElse(Double.NaN);
    double median = k == 0 ? Double.NaN : Stats.median(rtt, k);
    int nearestFound = 0;
    List<double[]> points = new ArrayList<>();
    for (GeoDistanceOrder.Outcome o : stop.found()) {
      EmulatedServer s = list.get(o.index());
      if (nearest.contains(Endpoints.key(s.address()))) nearestFound++;
      points.add(new double[] {o.index(), o.rttMs(), predicted[o.index()], world.world().rttMs(client.host(), s.host())});
    }
    double rate = options.clientRate();
    boolean rescaled = rate != DemoOptions.PAPER_RATE;
    double at140 = rescaled ? stop.probes() / DemoOptions.PAPER_RATE + Math.max(0, stop.seconds() - stop.probes() / rate)
        : stop.seconds();
    return new MethodFigures(client, world.address(client).getHostAddress(), method, stop.probes(), 0, stop.timeouts(),
        stop.found().size(), at140, rescaled, stop.seconds(), rate, mean, median, optimal[0], optimal[1], nearestFound,
        Double.NaN, null, stop.reason(), List.copyOf(points));
  }

  private MethodFigures reed(DemoWorld.Site client, String method, StopRule rule, double[] optimal, Set<String> nearest) {
    return reed(client, method, rule, optimal, nearest, false);
  }

  /** @param report the discovery reports what it measured (the SDK sends it in the background; close waits for it) */
  private MethodFigures reed(DemoWorld.Site client, String method, StopRule rule, double[] optimal, Set<String> nearest,
      boolean report) {
    List<double[]> points = new ArrayList<>();
    try (ReedClient c = client(client, options.clientRate()).reportMeasurements(report).build()) {
      DiscoveryResult r = c.discover(DiscoveryRequest.defaults().withStop(rule).withMaxDuration(Duration.ofMinutes(2)),
          e -> collect(client, e, points));
      return figures(client, method, r, options.clientRate(), optimal, nearest, points);
    }
  }

  private MethodFigures traditional(DemoWorld.Site client, List<ListedServer> master, double[] optimal, Set<String> nearest) {
    List<double[]> points = new ArrayList<>();
    try (ReedClient c = client(client, options.traditionalRate()).traditionalList(ServerListSource.of(master)).build()) {
      DiscoveryResult r = c.discoverTraditional(DiscoveryRequest.defaults().withMaxDuration(Duration.ofMinutes(10)),
          e -> collect(client, e, points));
      return figures(client, "traditional", r, options.traditionalRate(), optimal, nearest, points);
    }
  }

  /** (probe index, measured RTT, predicted RTT, the world's true RTT) of every reply. */
  private void collect(DemoWorld.Site client, DiscoveryEvent e, List<double[]> points) {
    if (e instanceof DiscoveryEvent.ServerFound f) {
      Integer host = hostByKey.get(f.server().key());
      double truth = host == null ? Double.NaN : world.world().rttMs(client.host(), host);
      points.add(new double[] {f.server().probeIndex(), f.server().rttMs(), f.server().predictedMs(), truth});
    }
  }

  private MethodFigures figures(DemoWorld.Site client, String method, DiscoveryResult r, double rate, double[] optimal,
      Set<String> nearest, List<double[]> points) {
    List<DiscoveredServer> closest = r.closest(options.nClose());
    double[] rtt = closest.stream().mapToDouble(DiscoveredServer::rttMs).toArray();
    double mean = Arrays.stream(rtt).average().orElse(Double.NaN);
    double median = Stats.median(rtt);
    int nearestFound = (int) r.servers().stream().filter(s -> nearest.contains(s.key())).count();
    double wall = r.seconds();
    boolean rescaled = rate != DemoOptions.PAPER_RATE;
    // sending at 140/s takes probes/140 s; the wait for the last replies after the last send is as measured
    double at140 = rescaled ? r.probes() / DemoOptions.PAPER_RATE + Math.max(0, wall - r.probes() / rate) : wall;
    double positionError = Double.NaN;
    double[] position = null;
    if (r.position() != null) {
      positionError = r.position().relativeError();
      Coordinate c = r.position().coordinate();
      position = Arrays.copyOf(c.components(), c.dimensions() + 1);
      position[c.dimensions()] = c.height();
    }
    return new MethodFigures(client, world.address(client).getHostAddress(), method, r.probes(), r.calibrationProbes(),
        r.timeouts(), r.servers().size(), at140, rescaled, wall, rate, mean, median, optimal[0], optimal[1], nearestFound,
        positionError, position, r.stopReason().name().toLowerCase(), List.copyOf(points));
  }

  // ---------------------------------------------------------------- phase 5: serve

  /**
   * Keeps everything running, with a measurement round every {@code serveInterval}, until
   * {@link #close()} (Ctrl-C runs it from the shutdown hook).
   */
  void serve() throws InterruptedException {
    ScheduledExecutorService rounds = Executors.newSingleThreadScheduledExecutor(
        r -> Thread.ofPlatform().name("reed-demo-serve-rounds").daemon().unstarted(r));
    register(() -> {
      rounds.shutdownNow();
      rounds.awaitTermination(30, TimeUnit.SECONDS);
    });
    long every = options.serveInterval().toMillis();
    rounds.scheduleWithFixedDelay(() -> {
      try {
        long t = progress.now();
        List<EmulationProcess.AgentRound> reports = roundAll();
        progress.line("serving: landmark round %d, %d replies (%.1f s)", reports.stream()
            .mapToLong(EmulationProcess.AgentRound::round).max().orElse(0),
            reports.stream().mapToLong(EmulationProcess.AgentRound::replies).sum(), progress.secondsSince(t));
      } catch (IOException | RuntimeException e) {
        if (!closed) log.warn("serving: measurement round failed: {}", e.toString());
      }
    }, every, every, TimeUnit.MILLISECONDS);
    stopped.await();
  }

  /** The coordinator's gRPC address ("host:port"). */
  String coordinatorAddress() {
    return Endpoints.key(coordinator.grpcAddress());
  }

  DemoWorld world() {
    return world;
  }

  long serveIntervalSeconds() {
    return options.serveInterval().toSeconds();
  }

  // ---------------------------------------------------------------- lifecycle

  private <T extends AutoCloseable> T register(T resource) {
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

  private void checkOpen() {
    if (closed) throw new IllegalStateException("the demo is stopping");
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

  private static boolean await(Duration max, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) return false;
      Thread.sleep(100);
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
