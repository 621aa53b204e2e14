package dev.reed.cli.scale;

import dev.reed.cli.ChildJvm;
import dev.reed.cli.Reed;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One coordinator replica as its own JVM, started exactly as {@code ./reed coordinator} runs (this
 * JVM's java binary and class path, {@code dev.reed.cli.Reed coordinator}), with an explicit heap,
 * free gRPC and metrics ports, the file-lock leader election and its log in the output directory.
 * Read through its Prometheus endpoint and {@code /proc/PID/status}.
 */
final class ReplicaProcess implements AutoCloseable {
  private final int index;
  private final List<String> command;
  private final String name;
  private final Path log;
  private final Path outDir;
  private final int grpcPort;
  private final int metricsPort;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private Process process;
  private long startedNanos;

  /** @param serveOnly a serving replica ({@code --serve-only}), named serving-N in the output directory */
  ReplicaProcess(int index, boolean serveOnly, String bootstrap, Path outDir, String heap, List<String> gcOptions,
      Duration roundInterval, Duration replay, Path leaseFile)
      throws IOException {
    this.index = index;
    this.grpcPort = freePort();
    this.metricsPort = freePort();
    this.name = (serveOnly ? "serving-" : "replica-") + index;
    this.log = outDir.resolve(name + ".log");
    this.outDir = outDir;
    // The priority flags are ./reed coordinator's (coordinator README, "Pipeline details"); the
    // GC log (collections and safepoints) shows the pauses behind the query tail.
    List<String> jvm = new ArrayList<>(List.of("-Xms" + heap, "-Xmx" + heap));
    jvm.addAll(gcOptions);
    jvm.addAll(List.of("-XX:ThreadPriorityPolicy=1", "-XX:JavaPriority1_To_OSPriority=10",
        "-Xlog:gc,safepoint:file=" + outDir.resolve(name + "-gc-%p.log") + ":uptime"));
    List<String> args = new ArrayList<>(List.of("coordinator",
        "--kafka", bootstrap, "--bind", "127.0.0.1", "--grpc-port", Integer.toString(grpcPort),
        "--metrics-port", Integer.toString(metricsPort), "--q3-master-port", "-1", "--valve-master-port", "-1",
        "--round-interval", roundInterval.toMillis() + "ms", "--replay", replay.toSeconds() + "s", "--leader-election", "file",
        // the query load is one host asking 1,000 times a second: the harness measures capacity,
        // not the per-prefix limit for anonymous clients
        "--lease-file", leaseFile.toString(), "--no-reports", "--anonymous-rate", "off",
        "--index-checkpoint", outDir.resolve(name + ".checkpoint").toString()));
    if (serveOnly) args.add("--serve-only");
    command = ChildJvm.command(jvm, Reed.class.getName(), args);
  }

  int index() {
    return index;
  }

  String grpcTarget() {
    return "127.0.0.1:" + grpcPort;
  }

  /** Starts (or starts again after a kill) the process, appending to its log. */
  void start() throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().put("HOSTNAME", name.replace("-", "")); // the replica's identity: replica1, serving1
    startedNanos = System.nanoTime();
    process = pb.start();
  }

  long startedNanos() {
    return startedNanos;
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /** SIGKILL (Process.destroyForcibly on Linux), waits for the process to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  /** Prometheus text of the replica, summed per metric name over tags; empty when unreachable. */
  Map<String, Double> metrics() {
    Map<String, Double> out = new HashMap<>();
    if (!alive()) return out;
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) return out;
      for (String line : r.body().split("\n")) {
        if (line.isEmpty() || line.charAt(0) == '#') continue;
        int sp = line.lastIndexOf(' ');
        if (sp < 0) continue;
        int brace = line.indexOf('{');
        String name = brace >= 0 && brace < sp ? line.substring(0, brace) : line.substring(0, sp);
        double v;
        try {
          v = Double.parseDouble(line.substring(sp + 1));
        } catch (NumberFormatException e) {
          continue;
        }
        // heap only, for the JVM memory gauges
        if (name.startsWith("jvm_memory_") && !line.contains("area=\"heap\"")) continue;
        out.merge(name, v, Double::sum);
      }
    } catch (IOException e) {
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return out;
  }

  /** Resident set size in bytes from /proc/PID/status (VmRSS), -1 if unknown. */
  long rssBytes() {
    if (!alive()) return -1;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
        if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }

  /**
   * Heap in use right after a full GC ({@code jcmd PID GC.run}): what the replica's GC log gives for
   * that collection, else the heap gauge; -1 if unknown. The gauge is read after jcmd returns, when
   * the replica has allocated again (60-110 MB more at 250,000 x 30), and counts non-heap memory
   * too (docs/research/scale.md).
   */
  long heapAfterGcBytes() throws InterruptedException {
    if (!alive()) return -1;
    Path jcmd = Path.of(ChildJvm.java()).resolveSibling("jcmd");
    Path gcLog = outDir.resolve(name + "-gc-" + process.pid() + ".log");
    try {
      long before = Files.exists(gcLog) ? Files.size(gcLog) : 0; // only this collection's lines are read
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "GC.run")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      p.waitFor();
      if (Files.exists(gcLog)) {
        String added;
        try (SeekableByteChannel ch = Files.newByteChannel(gcLog)) {
          added = new String(Channels.newInputStream(ch.position(before)).readAllBytes(), StandardCharsets.UTF_8);
        }
        long after = -1;
        for (String line : added.split("\n")) {
          long heap = heapAfter(line);
          if (heap >= 0) after = heap;
        }
        if (after >= 0) return after;
      }
    } catch (IOException e) {
      return -1;
    }
    Double used = metrics().get("jvm_memory_used_bytes");
    return used == null ? -1 : used.longValue();
  }

  private static final Pattern DCMD_GC = Pattern.compile("Pause Full \\(Diagnostic Command\\) \\d+[KMG]->(\\d+)([KMG])\\(");

  /** The heap after a {@code jcmd GC.run} collection in a unified GC log line, in bytes; -1 for other lines. */
  static long heapAfter(String gcLogLine) {
    Matcher m = DCMD_GC.matcher(gcLogLine);
    if (!m.find()) return -1;
    int shift = switch (m.group(2)) {
      case "K" -> 10;
      case "M" -> 20;
      default -> 30;
    };
    return Long.parseLong(m.group(1)) << shift;
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) kill();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
