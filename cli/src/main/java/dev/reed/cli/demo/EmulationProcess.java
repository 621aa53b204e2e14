package dev.reed.cli.demo;

import dev.reed.cli.ChildJvm;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.emulated.EmulatedGameServers;
import dev.reed.testbed.emulated.EmulatedServer;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo's handle on a child JVM of emulation ({@link EmulationChild}): a range of the world's
 * emulated servers and, in the first child, the landmark agents and the delay-error meter, away from
 * the demo JVM, whose GC pauses (Kafka, the coordinator) would otherwise delay replies and probe
 * timestamps alike. Every emulated server is also a UDP socket, a process may hold only
 * RLIMIT_NOFILE descriptors (20,000 on the reference machine, and raising the hard limit needs
 * CAP_SYS_RESOURCE, which a container usually lacks), and Java cannot serve many addresses from one
 * wildcard socket (it has no IP_PKTINFO); so a world bigger than one child's descriptor budget puts
 * the rest of its servers in a second, server-only child.
 *
 * <p>The child rebuilds the world from the same options (it is deterministic in its seed) and
 * announces its servers on stdout, one line each ({@code host ip port protocol-number info}, the
 * info as base64 protobuf), then {@code ready}. The agents' child then takes one command a line on
 * stdin ({@code warm-up}, {@code agents}, {@code promote}, {@code round}, {@code delay PATH}) and answers lines of
 * figures, then {@code ok} or {@code error MESSAGE}. A child stops when its stdin closes, so it
 * cannot outlive the demo.
 */
final class EmulationProcess implements AutoCloseable {
  static final String READY = "ready";
  static final String OK = "ok";
  static final String ERROR = "error ";

  /**
   * A landmark agent of the child.
   *
   * @param id landmark id
   * @param beacon its UDP beacon's announced address
   * @param wsBeaconUrl its WebSocket beacon's URL, null without the web face
   */
  record Landmark(String id, InetSocketAddress beacon, String wsBeaconUrl) {}

  /** What the demo uses of an agent's {@code RoundReport}. */
  record AgentRound(String id, long round, int targets, int replies, int timeouts) {}

  /**
   * A round's delay error.
   *
   * @param errorsMs measured minus intended RTT of every answered landmark probe of the child's servers since the last call
   * @param counters the child's emulated servers' counters so far
   */
  record Delays(double[] errorsMs, EmulatedGameServers.Counters counters) {}

  private final Process process;
  private final Path log;
  private final String what;
  private final BufferedReader in;
  private final Writer commands;
  private final List<EmulatedServer> servers;

  private EmulationProcess(Process process, Path log, String what, BufferedReader in, List<EmulatedServer> servers) {
    this.process = process;
    this.log = log;
    this.what = what;
    this.in = in;
    this.commands = process.outputWriter(StandardCharsets.UTF_8);
    this.servers = List.copyOf(servers);
  }

  /**
   * Starts a JVM serving the demo world's servers {@code [0, to)} in {@link DemoWorld#servers()}
   * order, ready to run the landmark agents ({@link #startAgents()}) and to meter the delay error
   * over its servers, and waits until the servers answer. Its eden about holds a measurement
   * round's allocation (~15 KB a probe: ~9 GB in a ~95 s round at 20,000 x 30), and the child
   * collects fully before each round, so a young collection comes at most in a round's last
   * seconds, after its probes. What survives one is tenured at once, and the heap is touched at
   * start, so a round's first use of a page is no page fault. Smaller young generations collected
   * inside the rounds every ~40 s (6 GB heap) or every 3 s (1 GB), 30-160 ms each; ZGC stalled
   * allocations on the saturated cores (docs/research/scale.md, "Demo at 20,000 x 30").
   * Its GC log (collections and safepoints) is {@code emulation-gc.log} in {@code workDir}.
   *
   * @param browser the web page's browser; null without the web face (no WebSocket beacons)
   * @param bootstrap Kafka
   * @param workDir the demo's work directory: the agents' spools, the process's logs
   * @throws IOException the process failed to start or to bind its servers (its log says why)
   */
  static EmulationProcess withLandmarks(DemoOptions options, DemoWorld.Site browser, String bootstrap, int to, Path workDir)
      throws IOException {
    long pairs = (long) options.servers() * options.landmarks();
    long youngMb = Math.max(256, pairs / 64); // 9.4 GB at 20,000 x 30
    long oldMb = Math.max(256, pairs / 300); // 2 GB: the world, the agents' catalogs and spools
    List<String> jvm = List.of("-Xms" + (youngMb + oldMb) + "m", "-Xmx" + (youngMb + oldMb) + "m", "-Xmn" + youngMb + "m",
        "-XX:+UseParallelGC", "-XX:MaxTenuringThreshold=0", "-XX:SurvivorRatio=32", "-XX:-UseAdaptiveSizePolicy",
        "-XX:+AlwaysPreTouch", "-XX:MetaspaceSize=256m", "-XX:+UseCountedLoopSafepoints", "-XX:LoopStripMiningIter=1000",
        "-Xlog:gc,safepoint:file=" + workDir.resolve("emulation-gc.log") + ":utctime,uptime");
    List<String> args = new ArrayList<>(worldArgs(options, 0, to));
    args.addAll(List.of(bootstrap, workDir.toString(), Double.toString(options.agentRate()), browser == null ? "-" : browser.id()));
    return start(jvm, args, to, workDir.resolve("emulation.log"), "the emulation process (servers 0-" + (to - 1) + ", agents)");
  }

  /**
   * Starts a JVM serving the demo world's servers {@code from} (inclusive) to {@code to} (exclusive),
   * in {@link DemoWorld#servers()} order, and waits until they answer.
   *
   * @param log where the process's stderr goes
   * @throws IOException the process failed to start or to bind its servers (its log says why)
   */
  static EmulationProcess serversOnly(DemoOptions options, int from, int to, Path log) throws IOException {
    return start(List.of("-Xms32m", "-Xmx256m", "-XX:+UseSerialGC"), worldArgs(options, from, to), to - from, log,
        "the server process for servers " + from + "-" + (to - 1));
  }

  private static List<String> worldArgs(DemoOptions options, int from, int to) {
    return List.of(options.world(), Integer.toString(options.servers()), Integer.toString(options.landmarks()),
        Long.toString(options.seed()), Double.toString(options.jitterMs()), Double.toString(options.lossRate()),
        Integer.toString(from), Integer.toString(to), Boolean.toString(options.realtime()));
  }

  private static EmulationProcess start(List<String> jvm, List<String> args, int count, Path log, String what)
      throws IOException {
    List<String> command = ChildJvm.command(jvm, EmulationChild.class.getName(), args);
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    List<EmulatedServer> out = new ArrayList<>(count);
    try {
      BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = r.readLine()) != null && !line.equals(READY)) {
        String[] f = line.split(" ");
        int host = Integer.parseInt(f[0]);
        GameProtocol protocol = GameProtocol.forNumber(Integer.parseInt(f[3]));
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(f[1]), Integer.parseInt(f[2]));
        out.add(new EmulatedServer(host, address, protocol, ServerInfo.parseFrom(Base64.getDecoder().decode(f[4]))));
      }
      if (line == null || out.size() != count) {
        throw new IOException(what + " stopped after announcing " + out.size() + " servers; see " + log + ": " + tail(log));
      }
      return new EmulationProcess(p, log, what, r, out);
    } catch (IOException | RuntimeException e) {
      p.destroyForcibly();
      throw e instanceof IOException io ? io : new IOException(what + " announced garbage: " + e, e);
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }

  List<EmulatedServer> servers() {
    return servers;
  }

  /** Starts the landmark agents (after the coordinator, as a deployment would) and returns them in the world's order. */
  synchronized List<Landmark> startAgents() throws IOException {
    List<Landmark> out = new ArrayList<>();
    for (String line : command("agents")) {
      String[] f = line.split(" ");
      out.add(new Landmark(f[1], Endpoints.socketAddress(f[2], 0), f[3].equals("-") ? null : f[3]));
    }
    return out;
  }

  /** What the child's warm-up did: probes sent, answered, and how long it took. */
  record WarmUp(int probes, int replies, long millis) {}

  /** Runs the child's probe and reply paths hot before anything is measured (see {@code EmulationChild}). */
  synchronized WarmUp warmUp() throws IOException {
    String[] f = command("warm-up").getFirst().split(" ");
    return new WarmUp(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]));
  }

  /** Moves the child's timing threads to SCHED_FIFO (needs root and chrt); returns how many it moved. */
  synchronized int promote() throws IOException {
    return Integer.parseInt(command("promote").getFirst().split(" ")[1]);
  }

  /**
   * One round of every landmark agent, all at once; returns once each has published its samples.
   * With {@code --realtime} the child promotes its timing threads again first (HotSpot starts GC
   * workers as it needs them).
   */
  synchronized List<AgentRound> round() throws IOException {
    List<AgentRound> out = new ArrayList<>();
    for (String line : command("round")) {
      String[] f = line.split(" ");
      out.add(new AgentRound(f[1], Long.parseLong(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]), Integer.parseInt(f[5])));
    }
    return out;
  }

  /**
   * The delay error of the landmark probes answered since the last call; call it once a round has
   * been published.
   *
   * @param file where the child writes the errors (deleted once read)
   */
  synchronized Delays delay(Path file) throws IOException {
    List<String> lines = command("delay " + file);
    int n = Integer.parseInt(lines.get(0).split(" ")[1]);
    long[] c = Arrays.stream(lines.get(1).split(" ")).skip(1).mapToLong(Long::parseLong).toArray();
    double[] errors = new double[n];
    try (DataInputStream d = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      for (int i = 0; i < n; i++) errors[i] = d.readDouble();
    }
    Files.delete(file);
    return new Delays(errors, new EmulatedGameServers.Counters(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10]));
  }

  /**
   * Sends a command; returns the answer's lines before {@code ok}.
   *
   * @throws IOException the command failed (its message), or the process is gone (its log's tail)
   */
  private List<String> command(String command) throws IOException {
    List<String> lines = new ArrayList<>();
    String line;
    try {
      commands.write(command + "\n");
      commands.flush();
      while ((line = in.readLine()) != null && !line.equals(OK) && !line.startsWith(ERROR)) lines.add(line);
    } catch (IOException e) {
      throw gone(command, e);
    }
    if (line == null) throw gone(command, null);
    if (line.startsWith(ERROR)) throw new IOException(what + ": '" + command + "' failed: " + line.substring(ERROR.length()));
    return lines;
  }

  private IOException gone(String command, IOException cause) {
    String exit;
    try {
      exit = process.waitFor(5, TimeUnit.SECONDS) ? "exit " + process.exitValue() : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exit = "interrupted while waiting for it";
    }
    return new IOException(what + " stopped answering (" + exit + ") and cannot run '" + command + "'; see " + log + ": "
        + tail(log), cause);
  }

  /**
   * Closes the process's stdin (it stops its agents, which drain their spools, and its servers,
   * then exits), then waits; kills it after 60 s.
   */
  @Override
  public void close() throws InterruptedException {
    try {
      process.getOutputStream().close();
    } catch (IOException exited) {
      // a command's bytes were left unsent because it exited: nothing left to tell it
    }
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
