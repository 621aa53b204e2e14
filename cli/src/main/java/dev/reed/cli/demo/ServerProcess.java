package dev.reed.cli.demo;

import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.delay.RealtimePriority;
import dev.reed.testbed.emulated.EmulatedGameServers;
import dev.reed.testbed.emulated.EmulatedServer;
import dev.reed.testbed.world.Noise;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
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
 * Part of the demo's emulated game servers in a JVM of their own. Every emulated server is a UDP
 * socket, a process may hold only RLIMIT_NOFILE descriptors (20,000 on the reference machine, and
 * raising the hard limit needs CAP_SYS_RESOURCE, which a container usually lacks), and Java cannot
 * serve many addresses from one wildcard socket (it has no IP_PKTINFO). So a world bigger than the
 * demo JVM's descriptor budget puts the rest of its servers here. The world is rebuilt from the same
 * options (it is deterministic in its seed); the servers are announced on stdout, one line each
 * ({@code host ip port protocol-number info}, the info as base64 protobuf), then {@code ready}; the process stops when its stdin closes,
 * so it cannot outlive the demo.
 */
final class ServerProcess implements AutoCloseable {
  private static final String READY = "ready";
  private static final long START_TIMEOUT_SECONDS = 120;

  private final Process process;
  private final List<EmulatedServer> servers;

  private ServerProcess(Process process, List<EmulatedServer> servers) {
    this.process = process;
    this.servers = List.copyOf(servers);
  }

  /**
   * Starts a JVM serving the demo world's servers {@code from} (inclusive) to {@code to} (exclusive),
   * in {@link DemoWorld#servers()} order, and waits until they answer.
   *
   * @param log where the process's stderr goes
   * @throws IOException the process failed to start or to bind its servers (its log says why)
   */
  static ServerProcess start(DemoOptions options, int from, int to, Path log) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> command = new ArrayList<>(List.of(java, "-Xms32m", "-Xmx256m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), ServerProcess.class.getName(),
        options.world(), Integer.toString(options.servers()), Integer.toString(options.landmarks()),
        Long.toString(options.seed()), Double.toString(options.jitterMs()), Double.toString(options.lossRate()),
        Integer.toString(from), Integer.toString(to), Boolean.toString(options.realtime())));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    List<EmulatedServer> out = new ArrayList<>(to - from);
    try {
      BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
      String line;
      while ((line = r.readLine()) != null && !line.equals(READY)) {
        String[] f = line.split(" ");
        int host = Integer.parseInt(f[0]);
        GameProtocol protocol = GameProtocol.forNumber(Integer.parseInt(f[3]));
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(f[1]), Integer.parseInt(f[2]));
        out.add(new EmulatedServer(host, address, protocol, ServerInfo.parseFrom(Base64.getDecoder().decode(f[4]))));
      }
      if (line == null || out.size() != to - from) {
        throw new IOException("the server process for servers " + from + "-" + (to - 1) + " stopped after announcing "
            + out.size() + " servers; see " + log + ": " + tail(log));
      }
    } catch (IOException | RuntimeException e) {
      p.destroyForcibly();
      throw e instanceof IOException io ? io : new IOException("the server process announced garbage: " + e, e);
    }
    return new ServerProcess(p, out);
  }

  /** The emulation seed of the servers from index {@code from} on: distinct from the demo JVM's own servers'. */
  private static long seedOf(long seed, int from) {
    return seed * 1_000_003L + from;
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

  /** Closes the process's stdin (it stops its servers and exits), then waits; kills it after 10 s. */
  @Override
  public void close() throws IOException, InterruptedException {
    process.getOutputStream().close();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * {@code WORLD SERVERS LANDMARKS SEED JITTER_MS LOSS FROM TO REALTIME}: the demo's options that
   * build its world, the range of its servers to run here, and whether to promote their threads.
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 9) {
      System.err.println("usage: ServerProcess WORLD SERVERS LANDMARKS SEED JITTER_MS LOSS FROM TO REALTIME (started by ./reed demo)");
      System.exit(2);
    }
    String spec = args[0];
    int n = Integer.parseInt(args[1]);
    int landmarks = Integer.parseInt(args[2]);
    long seed = Long.parseLong(args[3]);
    Noise noise = new Noise(Double.parseDouble(args[4]), Double.parseDouble(args[5]));
    int from = Integer.parseInt(args[6]);
    int to = Integer.parseInt(args[7]);
    boolean realtime = Boolean.parseBoolean(args[8]);
    DemoWorld world = DemoWorld.of(spec, n, landmarks, seed, noise);
    int[] hosts = Arrays.copyOfRange(world.servers(), from, to);
    PrintStream out = System.out;
    try (EmulatedGameServers servers = EmulatedGameServers.start(world.world(), hosts,
        EmulatedGameServers.Options.defaults().withSeed(seedOf(seed, from)))) {
      if (realtime) RealtimePriority.promote(Demo.REALTIME_EMULATOR_THREADS, Demo.REALTIME_PRIORITY + 1);
      StringBuilder sb = new StringBuilder();
      for (EmulatedServer s : servers.servers()) {
        sb.append(s.host()).append(' ').append(s.address().getAddress().getHostAddress()).append(' ')
            .append(s.address().getPort()).append(' ').append(s.protocol().getNumber()).append(' ')
            .append(Base64.getEncoder().encodeToString(s.info().toByteArray())).append('\n');
      }
      out.print(sb);
      out.println(READY);
      out.flush();
      // until the demo closes our stdin (or dies)
      while (System.in.read() >= 0) {
        // nothing is sent on stdin
      }
    }
  }
}
