package dev.reed.testbed.qstat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real {@code quakestat} client (Debian package {@code qstat}) against a server, so
 * tests cross-check the project's servers and relays with the browser-side tool players use,
 * not with the project's own probe code.
 */
public final class QStat {
  public static final Path BINARY = Path.of("/usr/bin/quakestat");

  /** One {@code -raw ,} line: {@code TYPE,addr,name,map,max,players,ping,retries}, or DOWN/TIMEOUT. */
  public record Reply(String type, String address, String status, String name, String map, int maxPlayers,
      int players, int pingMs, int retries) {
    /** True when the server answered. */
    public boolean up() {
      return status == null;
    }

    static Reply parse(String line) {
      String[] f = line.split(",", -1);
      if (f.length < 3) {
        throw new IllegalArgumentException("unexpected quakestat output: " + line);
      }
      if (f.length < 8) {
        return new Reply(f[0], f[1], f[2], null, null, 0, 0, -1, 0);
      }
      // the name may contain commas: take the fixed fields from the end
      int n = f.length;
      String name = String.join(",", java.util.Arrays.copyOfRange(f, 2, n - 5));
      return new Reply(f[0], f[1], null, name, f[n - 5], Integer.parseInt(f[n - 4]), Integer.parseInt(f[n - 3]),
          Integer.parseInt(f[n - 2]), Integer.parseInt(f[n - 1]));
    }
  }

  private QStat() {}

  public static boolean isInstalled() {
    return Files.isExecutable(BINARY);
  }

  /** {@code quakestat -q3s addr -raw ,} (Quake3 getstatus). */
  public static Reply q3s(InetSocketAddress server, InetAddress srcIp) throws IOException {
    return query("-q3s", server, srcIp);
  }

  /** {@code quakestat -a2s addr -raw ,} (A2S_INFO, answering the 2020 challenge). */
  public static Reply a2s(InetSocketAddress server, InetAddress srcIp) throws IOException {
    return query("-a2s", server, srcIp);
  }

  /**
   * @param type a quakestat server type option such as {@code -q3s} or {@code -a2s}
   * @param srcIp source address ({@code -srcip}), or null for the default
   */
  public static Reply query(String type, InetSocketAddress server, InetAddress srcIp) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(BINARY.toString(), type,
        server.getAddress().getHostAddress() + ":" + server.getPort(), "-raw", ",", "-retry", "1",
        "-timeout", "5"));
    if (srcIp != null) {
      cmd.addAll(List.of("-srcip", srcIp.getHostAddress()));
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IOException("quakestat did not finish in 10 s: " + cmd);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    String first = out.lines().filter(l -> !l.isBlank()).findFirst()
        .orElseThrow(() -> new IOException("quakestat printed nothing: " + cmd));
    try {
      return Reply.parse(first);
    } catch (RuntimeException e) {
      throw new IOException("cannot parse quakestat output '" + out + "'", e);
    }
  }
}
