package dev.reed.testbed.openarena;

import dev.reed.proto.Endpoints;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real OpenArena dedicated server (ioquake3 engine, Quake3 protocol 71) launched as a child
 * process on a loopback address. The REED paper's measurements (Armitage &amp; Heyde, TOMCCAP
 * 2011) probed real Quake III Arena family servers; tests probe this real server rather than a
 * re-implementation, so quirks such as ioquake3's per-IP reply rate limit are the real ones.
 *
 * <p>The server silently moves to one of the next nine ports when its port is taken, so the
 * address is read from its last successful {@code Opening IP socket: ADDR:PORT} console line
 * (a failed bind is followed by a {@code WARNING: NET_IPSocket} line), never assumed.
 * Readiness is then confirmed with one {@code getinfo} at a time (resent every 250 ms), which
 * spends at most a few of the per-IP burst of ten replies on 127.0.0.1.
 *
 * <p>Not thread-safe: one owner starts and closes it.
 */
public final class OpenArenaServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(OpenArenaServer.class);
  /** The Debian launcher script; it {@code exec}s the engine, so signals reach the server. */
  public static final Path BINARY = Path.of("/usr/games/openarena-server");

  private static final Pattern OPENING = Pattern.compile("Opening IP socket: ([0-9.]+:\\d+)");
  private static final int CONSOLE_LINES_KEPT = 60;
  private static final Duration STOP_GRACE = Duration.ofSeconds(5);

  /**
   * How to launch the server.
   *
   * @param bindIp loopback address to bind ({@code net_ip}), e.g. 127.0.0.1 or 127.3.0.7
   * @param port UDP port; 0 picks a free one
   * @param hostname {@code sv_hostname}
   * @param map first map, e.g. {@code oa_dm1}
   * @param dedicated 1 (no heartbeats) or 2 (heartbeats to {@code masterAddress})
   * @param masterAddress {@code "host:port"} of a master for {@code sv_master1}; null for none
   * @param homeDir {@code fs_homepath}; null for a temporary directory deleted on close
   * @param cvars further {@code +set name value} pairs (e.g. {@code sv_maxclients}, {@code g_needpass})
   * @param startTimeout how long to wait for the socket and the first {@code getinfo} reply
   */
  public record Options(
      InetAddress bindIp,
      int port,
      String hostname,
      String map,
      int dedicated,
      String masterAddress,
      Path homeDir,
      Map<String, String> cvars,
      Duration startTimeout) {
    public Options {
      Objects.requireNonNull(bindIp, "bindIp");
      Objects.requireNonNull(hostname, "hostname");
      Objects.requireNonNull(map, "map");
      Objects.requireNonNull(startTimeout, "startTimeout");
      if (!bindIp.isLoopbackAddress()) {
        throw new IllegalArgumentException("bindIp must be a loopback address (127/8): " + bindIp);
      }
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      if (dedicated != 1 && dedicated != 2) {
        throw new IllegalArgumentException("dedicated must be 1 or 2: " + dedicated);
      }
      if (dedicated == 2 && masterAddress == null) {
        throw new IllegalArgumentException("dedicated 2 sends heartbeats and needs a masterAddress");
      }
      cvars = Map.copyOf(cvars == null ? Map.of() : cvars);
      for (var e : cvars.entrySet()) {
        if (!e.getKey().matches("[A-Za-z0-9_]+") || e.getValue().contains("\"")) {
          throw new IllegalArgumentException("bad cvar " + e.getKey() + "=" + e.getValue());
        }
      }
    }

    /** 127.0.0.1, a free port, hostname "reed test", oa_dm1, dedicated 1, no master, temp home, 10 s. */
    public static Options defaults() {
      return new Options(InetAddress.getLoopbackAddress(), 0, "reed test", "oa_dm1", 1, null, null,
          Map.of(), Duration.ofSeconds(10));
    }

    public Options withBindIp(InetAddress ip) {
      return new Options(ip, port, hostname, map, dedicated, masterAddress, homeDir, cvars, startTimeout);
    }

    public Options withPort(int p) {
      return new Options(bindIp, p, hostname, map, dedicated, masterAddress, homeDir, cvars, startTimeout);
    }

    public Options withHostname(String h) {
      return new Options(bindIp, port, h, map, dedicated, masterAddress, homeDir, cvars, startTimeout);
    }

    public Options withMap(String m) {
      return new Options(bindIp, port, hostname, m, dedicated, masterAddress, homeDir, cvars, startTimeout);
    }

    /** Dedicated 2 with heartbeats to {@code master} ("host:port"). */
    public Options withMaster(String master) {
      return new Options(bindIp, port, hostname, map, 2, master, homeDir, cvars, startTimeout);
    }

    public Options withHomeDir(Path dir) {
      return new Options(bindIp, port, hostname, map, dedicated, masterAddress, dir, cvars, startTimeout);
    }

    public Options withCvar(String name, String value) {
      var m = new LinkedHashMap<>(cvars);
      m.put(name, value);
      return new Options(bindIp, port, hostname, map, dedicated, masterAddress, homeDir, m, startTimeout);
    }

    public Options withStartTimeout(Duration t) {
      return new Options(bindIp, port, hostname, map, dedicated, masterAddress, homeDir, cvars, t);
    }
  }

  private final Process process;
  private final InetSocketAddress address;
  private final Path homeDir;
  private final boolean deleteHome;
  private final Deque<String> console;
  private boolean closed;

  private OpenArenaServer(Process process, InetSocketAddress address, Path homeDir, boolean deleteHome,
      Deque<String> console) {
    this.process = process;
    this.address = address;
    this.homeDir = homeDir;
    this.deleteHome = deleteHome;
    this.console = console;
  }

  /** True when the Debian {@code openarena-server} package is installed. */
  public static boolean isInstalled() {
    return Files.isExecutable(BINARY);
  }

  /**
   * Launches the server and returns once it answers {@code getinfo}.
   *
   * @throws IOException the binary is missing, the process exits early, or it is not ready in time
   *     (the message carries the last console lines)
   */
  public static OpenArenaServer start(Options o) throws IOException {
    if (!isInstalled()) {
      throw new IOException(BINARY + " is not installed (apt-get install openarena-server)");
    }
    boolean deleteHome = o.homeDir() == null;
    Path home = deleteHome ? Files.createTempDirectory("reed-openarena-") : Files.createDirectories(o.homeDir());
    int port = o.port() == 0 ? freeUdpPort(o.bindIp()) : o.port();
    List<String> cmd = command(o, home, port);
    Process process = new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
    Deque<String> console = new ArrayDeque<>();
    CompletableFuture<InetSocketAddress> opened = new CompletableFuture<>();
    Thread reader = new Thread(() -> drain(process, console, opened), "openarena-console-" + process.pid());
    reader.setDaemon(true);
    reader.start();
    long deadline = System.nanoTime() + o.startTimeout().toNanos();
    try {
      InetSocketAddress address = opened.get(o.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
      awaitGetinfo(address, deadline, process);
      log.info("OpenArena server '{}' pid {} ready on {}", o.hostname(), process.pid(), address);
      return new OpenArenaServer(process, address, home, deleteHome, console);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop(process);
      if (deleteHome) {
        deleteTree(home);
      }
      throw new IOException("interrupted while starting OpenArena", e);
    } catch (ExecutionException | TimeoutException | IOException e) {
      stop(process);
      if (deleteHome) {
        deleteTree(home);
      }
      String why = e instanceof TimeoutException ? "no 'Opening IP socket' line within " + o.startTimeout()
          : e instanceof ExecutionException ee ? ee.getCause().getMessage() : e.getMessage();
      throw new IOException("OpenArena server did not start: " + why + "; console:\n" + tail(console), e);
    }
  }

  static List<String> command(Options o, Path home, int port) {
    List<String> cmd = new ArrayList<>(List.of(BINARY.toString(),
        "+set", "fs_homepath", home.toAbsolutePath().toString(),
        "+set", "dedicated", Integer.toString(o.dedicated()),
        "+set", "net_enabled", "1",
        "+set", "net_ip", o.bindIp().getHostAddress(),
        "+set", "net_port", Integer.toString(port)));
    for (int i = 1; i <= 5; i++) {
      cmd.addAll(List.of("+set", "sv_master" + i, i == 1 && o.masterAddress() != null ? o.masterAddress() : ""));
    }
    cmd.addAll(List.of("+set", "sv_hostname", o.hostname()));
    o.cvars().forEach((k, v) -> cmd.addAll(List.of("+set", k, v)));
    cmd.addAll(List.of("+map", o.map()));
    return cmd;
  }

  private static void drain(Process process, Deque<String> console, CompletableFuture<InetSocketAddress> opened) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      InetSocketAddress candidate = null;
      while ((line = r.readLine()) != null) {
        log.debug("[oa {}] {}", process.pid(), line);
        synchronized (console) {
          console.addLast(line);
          if (console.size() > CONSOLE_LINES_KEPT) {
            console.removeFirst();
          }
        }
        if (opened.isDone()) {
          continue;
        }
        // "Opening IP socket" is printed before bind(); a failed bind follows it with a WARNING
        // and the engine tries the next port, so a candidate counts once another line follows.
        if (candidate != null) {
          if (line.startsWith("WARNING: NET_IPSocket")) {
            candidate = null;
          } else {
            opened.complete(candidate);
          }
        }
        Matcher m = OPENING.matcher(line);
        if (m.find()) {
          candidate = Endpoints.socketAddress(m.group(1), -1);
        } else if (line.contains("Couldn't bind to a v4 ip address")) {
          opened.completeExceptionally(new IOException("no free port: " + line));
        }
      }
    } catch (IOException e) {
      log.debug("console of OpenArena pid {} closed: {}", process.pid(), e.toString());
    }
    opened.completeExceptionally(new IOException("process exited (code "
        + exitCode(process) + ") before opening its socket"));
  }

  private static String exitCode(Process p) {
    try {
      return p.waitFor(1, TimeUnit.SECONDS) ? Integer.toString(p.exitValue()) : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  private static void awaitGetinfo(InetSocketAddress address, long deadline, Process process) throws IOException {
    byte[] req = "\u00ff\u00ff\u00ff\u00ffgetinfo reedready".getBytes(StandardCharsets.ISO_8859_1);
    byte[] buf = new byte[2048];
    try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(address.getAddress(), 0))) {
      s.setSoTimeout(250);
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new IOException("process exited (code " + process.exitValue() + ") while loading the map");
        }
        s.send(new DatagramPacket(req, req.length, address));
        try {
          DatagramPacket p = new DatagramPacket(buf, buf.length);
          s.receive(p);
          String text = new String(p.getData(), 0, p.getLength(), StandardCharsets.ISO_8859_1);
          if (text.startsWith("\u00ff\u00ff\u00ff\u00ffinfoResponse")) {
            return;
          }
        } catch (SocketTimeoutException notYet) {
          // the map is still loading; ask again
        }
      }
    }
    throw new IOException("socket " + address + " opened but no getinfo reply before the deadline");
  }

  /** The address the server really bound (it may differ from the requested port). */
  public InetSocketAddress address() {
    return address;
  }

  /** The server's {@code fs_homepath}. */
  public Path homeDir() {
    return homeDir;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The last console lines (for diagnostics in failing tests). */
  public String consoleTail() {
    return tail(console);
  }

  /** SIGTERM, wait up to 5 s, then SIGKILL; deletes a temporary home directory. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    stop(process);
    if (deleteHome) {
      deleteTree(homeDir);
    }
    log.info("OpenArena server pid {} on {} stopped", process.pid(), address);
  }

  private static void stop(Process process) {
    process.destroy();
    try {
      if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("OpenArena pid {} ignored SIGTERM for {}; killing it", process.pid(), STOP_GRACE);
        process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static String tail(Deque<String> console) {
    synchronized (console) {
      return String.join("\n", console);
    }
  }

  private static int freeUdpPort(InetAddress ip) throws IOException {
    try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(ip, 0))) {
      return s.getLocalPort();
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      log.warn("could not delete {}: {}", dir, e.toString());
    }
  }
}
