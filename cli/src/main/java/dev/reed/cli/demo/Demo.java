package dev.reed.cli.demo;

import dev.reed.coordinator.Coordinator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
 * traditional discovery, over real sockets, giving the figures of the paper's Tables III-VI.
 *
 * <p>It wires the parts: {@link DemoEnvironment} starts and stops everything, {@link
 * MeasurementRounds} measures until the coordinates converge, {@link ClientDiscoveries} runs the
 * clients' {@link DiscoveryMethod}s and the {@link ReportsRound}. Everything stays running until
 * {@link #close()}, which is idempotent and safe from a shutdown hook while {@link #run()} is
 * still going.
 */
final class Demo implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Demo.class);

  private final DemoOptions options;
  private final Progress progress;
  private final DemoEnvironment env;
  private final Heartbeat heartbeat;
  private final MeasurementRounds rounds;
  private final ClientDiscoveries discoveries;

  Demo(DemoOptions options, Progress progress) {
    this(options, progress, LocationStatement.SDK);
  }

  Demo(DemoOptions options, Progress progress, LocationStatement locationStatement) {
    this.options = options;
    this.progress = progress;
    this.env = new DemoEnvironment(options, progress, locationStatement);
    this.heartbeat = new Heartbeat(progress);
    this.rounds = new MeasurementRounds(env, options, progress, heartbeat);
    this.discoveries = new ClientDiscoveries(env, options, progress, heartbeat);
  }

  /**
   * Starts everything, measures until the coordinates converge, runs the discoveries and returns
   * the figures. Everything stays running until {@link #close()}.
   */
  DemoResult run() throws IOException, InterruptedException {
    return run(() -> {});
  }

  /**
   * {@link #run()}, with {@code beside} run on a thread of its own once the measurement rounds are
   * done (it must not take CPU from their probes), while the clients mostly wait on theirs: e.g.
   * warming up what comes after the table.
   */
  DemoResult run(Runnable beside) throws IOException, InterruptedException {
    long t0 = progress.now();
    List<RoundFigures> measured = new ArrayList<>();
    boolean converged = measure(measured);
    List<MethodFigures> methods;
    // traditional discovery needs no coordinator: it runs beside the wait for the location model and the other discoveries
    Thread.ofPlatform().name("reed-demo-beside").daemon().start(beside);
    try (ClientDiscoveries.Traditional traditional = discoveries.startTraditional()) {
      discoveries.warmUp();
      env.awaitLocationModel(heartbeat);
      env.announcePage();
      methods = discoveries.run(traditional);
    }
    return new DemoResult(env.world().description(), env.world().serverCount(), env.landmarks().size(), env.kafkaAddress(),
        env.coordinatorAddress(), env.geo(), measured, converged, options.nClose(), methods, rounds.delayError(),
        progress.secondsSince(t0));
  }

  /**
   * Starts everything and measures until the coordinates converge (everything {@link #run()} does
   * before the discoveries); with the web face on, prints the page's URL once the servers are
   * positioned.
   *
   * @param out receives each measurement round's figures
   * @return true when the coordinates converged before the round cap
   */
  boolean start(List<RoundFigures> out) throws IOException, InterruptedException {
    boolean converged = measure(out);
    env.awaitLocationModel(heartbeat);
    env.announcePage();
    heartbeat.close();
    return converged;
  }

  private boolean measure(List<RoundFigures> out) throws IOException, InterruptedException {
    env.register(heartbeat.start());
    env.start(heartbeat);
    return rounds.run(out);
  }

  /**
   * Keeps everything running, with a measurement round every {@code serveInterval}, until
   * {@link #close()} (Ctrl-C runs it from the shutdown hook).
   */
  void serve() throws InterruptedException {
    heartbeat.close(); // each serving round prints its own line; between them nothing runs
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
        r -> Thread.ofPlatform().name("reed-demo-serve-rounds").daemon().unstarted(r));
    env.register(() -> {
      timer.shutdownNow();
      timer.awaitTermination(30, TimeUnit.SECONDS);
    });
    long every = options.serveInterval().toMillis();
    timer.scheduleWithFixedDelay(() -> {
      try {
        long t = progress.now();
        List<EmulationProcess.AgentRound> reports = rounds.servingRound();
        progress.line("serving: landmark round %d, %d replies (%.1f s)", reports.stream()
            .mapToLong(EmulationProcess.AgentRound::round).max().orElse(0),
            reports.stream().mapToLong(EmulationProcess.AgentRound::replies).sum(), progress.secondsSince(t));
      } catch (IOException | RuntimeException e) {
        if (!env.isClosed()) log.warn("serving: measurement round failed: {}", e.toString());
      }
    }, every, every, TimeUnit.MILLISECONDS);
    env.awaitClose();
  }

  /** Something the caller does after {@link #run()} that the heartbeat names while it runs (e.g. the plots). */
  Heartbeat.Activity during(String name) {
    return heartbeat.begin(name);
  }

  /** The coordinator's gRPC address ("host:port"). */
  String coordinatorAddress() {
    return env.coordinatorAddress();
  }

  DemoWorld world() {
    return env.world();
  }

  long serveIntervalSeconds() {
    return options.serveInterval().toSeconds();
  }

  /** The emulated RTT between a landmark and the browser's host, without jitter (NaN: unreachable). */
  double browserRttMs(String landmarkId) {
    DemoWorld world = env.world();
    for (DemoWorld.Site l : world.landmarks()) {
      if (l.id().equals(landmarkId)) return world.world().rttMs(l.host(), env.browser().host());
    }
    throw new IllegalArgumentException("no landmark " + landmarkId);
  }

  /** The emulated RTT between the browser's host and a game server ("ip:port"); NaN for an unknown server. */
  double browserRttToServerMs(String serverKey) {
    Integer host = env.host(serverKey);
    return host == null ? Double.NaN : env.world().world().rttMs(env.browser().host(), host);
  }

  /** Where the browser of the web page is in the world. */
  DemoWorld.Site browser() {
    return env.browser();
  }

  /** The page's URL: the coordinator's HTTP face. */
  String pageUrl() {
    return env.pageUrl();
  }

  /** The running coordinator (tests stop it to see the page cope). */
  Coordinator coordinator() {
    return env.coordinator();
  }

  /** True once {@link #close()} has begun. */
  boolean isClosed() {
    return env.isClosed();
  }

  /** Stops everything in reverse start order; idempotent, callable from any thread (the shutdown hook). */
  @Override
  public void close() {
    env.close();
  }
}
