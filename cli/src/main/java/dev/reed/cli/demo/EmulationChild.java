package dev.reed.cli.demo;

import dev.reed.agent.LandmarkAgent;
import dev.reed.agent.round.RoundReport;
import dev.reed.probe.ProbeEngine;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.proto.Endpoints;
import dev.reed.testbed.delay.RealtimePriority;
import dev.reed.testbed.emulated.EmulatedGameServers;
import dev.reed.testbed.emulated.EmulatedServer;
import dev.reed.testbed.world.Noise;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What runs in an {@link EmulationProcess}: a range of the demo world's emulated servers and, in
 * the first one, the landmark agents ({@link DemoLandmarks}) and the {@link DelayErrorMeter} over
 * its own servers. Everything whose timing the measured RTTs depend on is here, in a JVM whose small
 * heap barely allocates, so the pauses of the demo JVM (Kafka, the coordinator) stop neither the
 * replies nor the probes' timestamps. It answers {@link EmulationProcess}'s commands on stdin, one
 * at a time, and stops when stdin closes.
 */
final class EmulationChild {
  /**
   * Threads {@code --realtime} promotes first (Linux keeps 15 characters of a name): the emulated
   * servers' loops, and HotSpot's VM thread and parallel GC workers (every safepoint and young
   * collection stops all Java threads until they have run; on a saturated machine a normal-priority
   * GC worker stretched a pause to tens of ms).
   */
  static final List<String> REALTIME_EMULATOR_THREADS = List.of("emulated-server", "VM Thread", "GC Thread");
  /**
   * Then, one priority lower so they never hold up a reply, the probe engines' send and receive
   * threads (not their completion threads: they publish; a thread inherits its creator's policy,
   * so those created by a promoted thread are promoted too).
   */
  static final List<String> REALTIME_PROBE_THREADS = List.of("reed-probe-send", "reed-probe-rece");
  /** Low among real-time priorities: above every normal thread, below the kernel's own. */
  static final int REALTIME_PRIORITY = 10;

  private final DemoWorld world;
  private final EmulatedGameServers servers;
  private final boolean realtime;
  /** Null in a server-only child. */
  private final Landmarks landmarks;
  private final PrintStream out;
  private DemoLandmarks agents;

  /**
   * What the agents' child needs beyond its servers.
   *
   * @param bootstrap Kafka
   * @param workDir the demo's work directory (the agents' spools)
   * @param agentRate probes per second of each agent
   * @param seed the demo's seed
   * @param jitterMs the world's mean jitter
   * @param browser the web page's browser, null without the web face
   * @param meter compares the agents' samples with its servers' intended delays
   * @param hostByKey the world host of each of its servers' "ip:port"
   */
  private record Landmarks(String bootstrap, Path workDir, double agentRate, long seed, double jitterMs, DemoWorld.Site browser,
      DelayErrorMeter meter, Map<String, Integer> hostByKey) {}

  private EmulationChild(DemoWorld world, EmulatedGameServers servers, boolean realtime, Landmarks landmarks, PrintStream out) {
    this.world = world;
    this.servers = servers;
    this.realtime = realtime;
    this.landmarks = landmarks;
    this.out = out;
  }

  /**
   * {@code WORLD SERVERS LANDMARKS SEED JITTER_MS LOSS FROM TO REALTIME [BOOTSTRAP WORK_DIR AGENT_RATE BROWSER]}:
   * the demo's options that build its world, the range of its servers to run here, whether to
   * promote the timing threads, and for the agents' child Kafka, the work directory, the agents'
   * rate and the browser's client id ({@code -}: no web face).
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 9 && args.length != 13) {
      System.err.println("usage: EmulationChild WORLD SERVERS LANDMARKS SEED JITTER_MS LOSS FROM TO REALTIME "
          + "[BOOTSTRAP WORK_DIR AGENT_RATE BROWSER] (started by ./reed demo)");
      System.exit(2);
    }
    long seed = Long.parseLong(args[3]);
    double jitterMs = Double.parseDouble(args[4]);
    DemoWorld world = DemoWorld.of(args[0], Integer.parseInt(args[1]), Integer.parseInt(args[2]), seed,
        new Noise(jitterMs, Double.parseDouble(args[5])));
    int from = Integer.parseInt(args[6]);
    int[] hosts = Arrays.copyOfRange(world.servers(), from, Integer.parseInt(args[7]));
    boolean realtime = Boolean.parseBoolean(args[8]);
    DelayErrorMeter meter = args.length == 9 ? null : new DelayErrorMeter(world.world().size(), world.landmarks(), hosts, args[9]);
    // the servers from 0 on emulate with the demo's own seed, as when they ran in the demo JVM
    EmulatedGameServers.Options options =
        EmulatedGameServers.Options.defaults().withSeed(from == 0 ? seed : seed * 1_000_003L + from);
    try (EmulatedGameServers servers = EmulatedGameServers.start(world.world(), hosts, options,
        meter == null ? EmulatedGameServers.ReplyTap.NONE : meter)) {
      Landmarks landmarks = null;
      if (meter != null) {
        Map<String, Integer> hostByKey = new HashMap<>();
        for (EmulatedServer s : servers.servers()) hostByKey.put(Endpoints.key(s.address()), s.host());
        landmarks = new Landmarks(args[9], Path.of(args[10]), Double.parseDouble(args[11]), seed, jitterMs,
            args[12].equals("-") ? null : world.client(args[12]), meter, hostByKey);
      }
      new EmulationChild(world, servers, realtime, landmarks, System.out).run();
    } finally {
      if (meter != null) meter.close();
    }
  }

  /** Announces the servers, then answers commands until stdin closes; stops the agents then. */
  private void run() throws IOException, InterruptedException {
    if (realtime) RealtimePriority.promote(REALTIME_EMULATOR_THREADS, REALTIME_PRIORITY + 1);
    StringBuilder sb = new StringBuilder();
    for (EmulatedServer s : servers.servers()) {
      sb.append(s.host()).append(' ').append(s.address().getAddress().getHostAddress()).append(' ')
          .append(s.address().getPort()).append(' ').append(s.protocol().getNumber()).append(' ')
          .append(Base64.getEncoder().encodeToString(s.info().toByteArray())).append('\n');
    }
    out.print(sb);
    out.println(EmulationProcess.READY);
    out.flush();
    // commands run on their own thread, so that stdin closing during a round stops the agents at once
    ExecutorService commands = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().name("reed-demo-command").unstarted(r));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      String command = line;
      commands.execute(() -> answer(command));
    }
    // the demo closed our stdin (or died): stop the agents now, which ends a running round, and once more
    // after the last command, in case it was still starting them
    closeAgents();
    commands.shutdown();
    commands.awaitTermination(60, TimeUnit.SECONDS);
    closeAgents();
  }

  private void closeAgents() throws InterruptedException {
    DemoLandmarks started;
    synchronized (this) {
      started = agents;
      agents = null;
    }
    if (started != null) started.close();
  }

  private void answer(String command) {
    try {
      if (landmarks == null) throw new IllegalStateException("a server-only process takes no commands: " + command);
      if (command.equals("agents")) startAgents();
      else if (command.equals("promote")) out.println("promoted " + promote());
      else if (command.equals("warm-up")) warmUp();
      else if (command.equals("round")) round();
      else if (command.startsWith("delay ")) delay(Path.of(command.substring("delay ".length())));
      else throw new IllegalArgumentException("unknown command: " + command);
      out.println(EmulationProcess.OK);
    } catch (Exception e) {
      out.println(EmulationProcess.ERROR + e.toString().replace('\n', ' '));
    }
    out.flush();
  }

  private void startAgents() throws IOException, InterruptedException {
    synchronized (this) {
      if (agents != null) throw new IllegalStateException("the landmark agents are running already");
    }
    DemoLandmarks started = DemoLandmarks.start(world, landmarks.bootstrap(), landmarks.workDir(), landmarks.agentRate(),
        landmarks.seed(), landmarks.jitterMs(), landmarks.browser());
    synchronized (this) {
      agents = started;
    }
    for (LandmarkAgent a : started.agents()) {
      out.println("agent " + a.config().id() + " " + Endpoints.key(a.beaconAddress()) + " "
          + (a.wsBeaconUrl() == null ? "-" : a.wsBeaconUrl()));
    }
  }

  /** Probes per server in the warm-up: at 16,000 servers, 48,000 invocations of the hot paths (C2 compiles at ~15,000). */
  static final int WARM_UP_PASSES = 3;
  /** The warm-up's rate, probes/s: about the rounds' (30 agents x 250/s). */
  static final double WARM_UP_RATE = 8_000;

  /**
   * Runs the probe and reply paths hot before anything is measured, at normal priority: a probe
   * engine like the agents' probes every server here {@link #WARM_UP_PASSES} times from the first
   * client's address, so each reply takes the world's delay as the landmarks' will (the client
   * binds that address only later, in the demo JVM; a world without clients probes from loopback,
   * answered at once). Cold, round 1 ran these paths interpreted on the real-time threads, which
   * then held both cores and starved the JIT's compiler threads that would have made them cheap:
   * the first round's delay error p99 was 13-25 ms against ~1 ms in the second, 1.5-1.9 ms with
   * the warm-up (docs/research/scale.md). Answers {@code warmed PROBES REPLIES MILLIS}.
   */
  private void warmUp() throws IOException, InterruptedException {
    long t = System.nanoTime();
    List<CompletableFuture<ProbeResult>> results = new ArrayList<>();
    InetAddress client = world.clients().isEmpty() ? InetAddress.getLoopbackAddress()
        : world.world().address(world.clients().getFirst().host());
    try (ProbeEngine engine = ProbeEngine.builder().bind(new InetSocketAddress(client, 0))
        .rate(WARM_UP_RATE).perTargetSpacing(Duration.ZERO).build()) {
      for (int pass = 0; pass < WARM_UP_PASSES; pass++) {
        for (EmulatedServer s : servers.servers()) {
          results.add(engine.probe(new ProbeTarget(s.address(), s.protocol())));
        }
      }
      CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).join();
    }
    long ok = results.stream().filter(f -> f.join().ok()).count();
    out.println("warmed " + results.size() + " " + ok + " " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t));
  }

  /** Promotes the timing threads (again before each round: HotSpot starts GC workers as it needs them). */
  private static int promote() throws IOException, InterruptedException {
    return RealtimePriority.promote(REALTIME_EMULATOR_THREADS, REALTIME_PRIORITY + 1)
        + RealtimePriority.promote(REALTIME_PROBE_THREADS, REALTIME_PRIORITY);
  }

  private void round() throws IOException, InterruptedException {
    DemoLandmarks now;
    synchronized (this) {
      now = agents;
    }
    if (now == null) throw new IllegalStateException("no landmark agents running");
    // every agent reads the catalog now and the heap is collected, before the round rather than in
    // it: the agents' targets (20,000 each at 20,000 x 30, ~200 MB for 30 agents) are tenured here,
    // outside any probe's round trip; read during round 1, a young collection tenured them there
    // and stopped every reply and timestamp for 150-240 ms (docs/research/scale.md). The round then
    // reuses each target that did not change. This JVM is the emulated world, not the system measured.
    for (LandmarkAgent a : now.agents()) a.readTargets();
    System.gc();
    if (realtime) promote();
    List<RoundReport> reports = now.round();
    for (int i = 0; i < reports.size(); i++) {
      RoundReport r = reports.get(i);
      out.println("report " + now.agents().get(i).config().id() + " " + r.round() + " " + r.targets() + " " + r.replies() + " "
          + r.timeouts());
    }
  }

  /** Writes the delay errors since the last call to {@code file}, as doubles; answers their count and the servers' counters. */
  private void delay(Path file) throws IOException {
    double[] errors = landmarks.meter().collect(landmarks.hostByKey(), Duration.ofSeconds(30));
    try (DataOutputStream d = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
      for (double e : errors) d.writeDouble(e);
    }
    EmulatedGameServers.Counters c = servers.counters();
    out.println("errors " + errors.length);
    out.println("counters " + c.received() + " " + c.replies() + " " + c.challenges() + " " + c.badChallenges() + " "
        + c.malformed() + " " + c.unknownSource() + " " + c.lost() + " " + c.sent() + " " + c.dropped() + " " + c.lateOver1ms()
        + " " + c.maxLatenessMicros());
  }
}
