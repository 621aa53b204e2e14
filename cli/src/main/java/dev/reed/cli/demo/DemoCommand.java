package dev.reed.cli.demo;

import dev.reed.coordinates.ModelFile;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.runtime.options.DimensionsOption;
import dev.reed.runtime.options.DiscoveryModelOption;
import dev.reed.runtime.options.NCloseOption;
import dev.reed.runtime.options.OptionHeadings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./reed demo}: the whole system on one machine (see {@link Demo}), ending with the
 * paper's comparison table (Armitage &amp; Heyde, TOMCCAP 2011, Tables III-VI), plots, and
 * optionally a running system to try {@code ./reed browse} against.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, usageHelpWidth = 100,
    description = {"Run the whole REED system on this machine in an emulated world and compare REED with traditional discovery.",
        "",
        "Starts an embedded Kafka broker, a coordinator, landmark agents (Europe, North America, Asia) and emulated game "
            + "servers, each on its own 127.x address with the world's latency; measures until the coordinates converge; "
            + "then clients in Europe, North America and Asia discover servers with the real client SDK (REED First and "
            + "Intelligent N_close, the server list ordered by great-circle distance from the client's location with the same "
            + "stop rules, and traditional) and a table like the paper's Tables III-VI is printed. Plots go to "
            + "--out. Everything it started is stopped at the end (or on Ctrl-C)."})
public final class DemoCommand implements Callable<Integer>, OptionHeadings.Sectioned {

  /** --help by topic (OptionHeadings; ReedTest checks every option is under one). */
  static final OptionHeadings HEADINGS = OptionHeadings.of(
      OptionHeadings.section("World", "--world", "--servers", "--landmarks", "--seed", "--jitter", "--loss",
          "--no-geo", "--realtime"),
      OptionHeadings.section("Measurement", "--agent-rate", "--max-rounds", "--convergence", "--dimensions",
          "--no-height"),
      OptionHeadings.section("Discovery", "--model", "--n-close", "--rate", "--traditional-rate",
          "--no-reports"),
      OptionHeadings.section("Output", "--out", "--json", "--markdown", "--verbose"),
      OptionHeadings.section("Serving after the table", "--serve", "--serve-interval", "--browser-city"));

  @Override
  public OptionHeadings optionHeadings() {
    return HEADINGS;
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--servers", paramLabel = "N", description = "Emulated game servers (default: ${DEFAULT-VALUE}).")
  int servers = 5000;

  @Option(names = "--landmarks", paramLabel = "N",
      description = "Landmark agents, split evenly over Europe, North America and Asia (default: ${DEFAULT-VALUE}).")
  int landmarks = 15;

  @Option(names = "--world", paramLabel = "synthetic|matrix:PATH",
      description = "Latency model: the synthetic geographic world, or a measured matrix.csv (or its directory), "
          + "e.g. matrix:data/planetlab490_netlatency (default: ${DEFAULT-VALUE}).")
  String world = "synthetic";

  @Mixin DimensionsOption dimensions = new DimensionsOption();

  @Option(names = "--no-height", description = "Plain Euclidean coordinates, without the height (access-link delay) the demo adds by default.")
  boolean noHeight;

  @Option(names = "--serve", description = "Keep everything running after the table and print a ./reed browse command to try; "
      + "also serve the web page (the coordinator's HTTP face, each landmark's WebSocket beacon) and print its URL; Ctrl-C stops.")
  boolean serve;

  @Option(names = "--browser-city", paramLabel = "CITY",
      description = "With --serve: where the web page's browser is in the emulated world, one of the demo's client cities "
          + "or ids (e.g. Amsterdam, client-na); the WebSocket beacons delay their echo by the world's RTT to there "
          + "(default: the first client's city).")
  String browserCity;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the table's figures as JSON.")
  Path json;

  @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the table and the locations target as Markdown.")
  Path markdown;

  @Option(names = "--out", paramLabel = "DIR", description = "Directory for the PNG plots (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("reed-data", "demo");

  @Option(names = "--seed", paramLabel = "N", description = "Seed of the world and every random choice (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(names = "--agent-rate", paramLabel = "PROBES/S",
      description = "Probe rate of each landmark agent (default: ${DEFAULT-VALUE}; production agents use 140).")
  double agentRate = 500;

  @Option(names = "--max-rounds", paramLabel = "N", description = "Measurement rounds at most (default: ${DEFAULT-VALUE}).")
  int maxRounds = 3;

  @Option(names = "--convergence", paramLabel = "FRACTION",
      description = "Stop measuring when the median fit error improves by less than this fraction (default: ${DEFAULT-VALUE}).")
  double convergence = 0.05;

  @Mixin NCloseOption nClose = new NCloseOption(40);

  @Mixin DiscoveryModelOption model = new DiscoveryModelOption();

  @Option(names = "--rate", paramLabel = "PROBES/S", description = "Probe rate of REED discovery (default: ${DEFAULT-VALUE}, the paper's DSL setting).")
  double rate = 140;

  @Option(names = "--traditional-rate", paramLabel = "PROBES/S",
      description = "Probe rate of traditional discovery (the clients run it at the same time); above 140 the time at "
          + "140 probes/s is computed from the probe count (default: ${DEFAULT-VALUE}).")
  double traditionalRate = 140;

  @Option(names = "--jitter", paramLabel = "MS", description = "Mean per-probe jitter of the world (default: ${DEFAULT-VALUE}).")
  double jitterMs = 1.0;

  @Option(names = "--loss", paramLabel = "FRACTION", description = "Per-probe loss of the world, 0-0.2 (default: ${DEFAULT-VALUE}).")
  double loss = 0;

  @Option(names = "--serve-interval", paramLabel = "S", description = "With --serve: seconds between measurement rounds (default: ${DEFAULT-VALUE}).")
  long serveIntervalSeconds = 60;

  @Option(names = "--no-geo", description = "Run without locations, for comparison: no location database for the "
      + "coordinator, no stated client location, no geo distance rows (a measured matrix has no locations anyway).")
  boolean noGeo;

  @Option(names = "--no-reports", description = "Skip the client reports round: by default the first REED discoveries "
      + "report what they measured to the coordinator and new players in the same cities then discover again (the "
      + "'REED + reports' rows).")
  boolean noReports;

  @Option(names = "--realtime", description = "Run the timing threads of the emulation's child JVMs (the emulated servers' "
      + "receive and send loops, the landmarks' probe send and receive threads, HotSpot's VM thread and GC workers) at "
      + "real-time priority (SCHED_FIFO, with chrt; needs "
      + "root), as kernel network emulation runs ahead of every process: keeps the emulated delays within ~1 ms on a busy "
      + "machine. Without root nothing changes. Notes when the kernel throttles real-time threads "
      + "(kernel.sched_rt_runtime_us), which stopped them for up to ~1 s at 20,000 x 30.")
  boolean realtime;

  @Option(names = "--verbose", description = "Show the components' INFO logs (default: warnings only).")
  boolean verbose;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter stderr = spec.commandLine().getErr();
    DemoOptions options;
    try {
      DiscoveryModel discovery = ModelFile.option("--model", model.file(), DiscoveryModel.defaults());
      options = new DemoOptions(servers, landmarks, world, dimensions.dimensions(), !noHeight, seed, jitterMs, loss,
          agentRate, maxRounds, convergence, nClose.nClose(), discovery, rate, traditionalRate, out, json, markdown, serve,
          Duration.ofSeconds(serveIntervalSeconds), !noGeo, serve, browserCity, !noReports, realtime);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (!verbose) quietLogs();
    Progress progress = new Progress(stdout, System::nanoTime);
    Demo demo = new Demo(options, progress);
    Thread hook = Thread.ofPlatform().name("reed-demo-shutdown").unstarted(demo::close);
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      DemoResult report = demo.run(RttPlots::warmUp);
      progress.plain("");
      ResultTable.lines(report).forEach(progress::plain);
      progress.plain("");
      long tp = progress.now();
      List<Path> plots;
      try (var a = demo.during("writing the plots")) {
        plots = RttPlots.write(report, options.out());
      }
      progress.line("plots: %s (%.1f s)", String.join(", ", plots.stream().map(Path::toString).toList()), progress.secondsSince(tp));
      if (options.json() != null) {
        JsonOutput.write(report, options.json());
        progress.line("figures written to %s", options.json());
      }
      if (options.markdown() != null) {
        MarkdownOutput.write(report, options.markdown());
        progress.line("table written to %s", options.markdown());
      }
      progress.line("demo finished in %.1f s", progress.elapsed());
      if (options.serve()) serve(demo, progress);
      return 0;
    } catch (IOException | RuntimeException e) {
      if (demo.isClosed()) {   // Ctrl-C: the shutdown hook stopped everything under our feet
        stderr.println("reed demo stopped before it finished");
        stderr.flush();
        return 130;
      }
      stderr.println("reed demo failed: " + e.getMessage());
      stderr.flush();
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stderr.println("reed demo interrupted");
      return 130;
    } finally {
      demo.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook is running (or ran) demo.close()
      }
    }
  }

  private static void serve(Demo demo, Progress progress) throws InterruptedException {
    List<DemoWorld.Site> clients = demo.world().clients();
    DemoWorld.Site first = clients.getFirst();
    progress.plain("");
    progress.plain("Everything keeps running (a measurement round every " + demo.serveIntervalSeconds()
        + " s). Try REED discovery from " + first.id() + " (" + first.region() + ", " + first.place() + "):");
    progress.plain("./reed browse --coordinator " + demo.coordinatorAddress() + " --bind "
        + demo.world().address(first).getHostAddress());
    for (DemoWorld.Site c : clients.subList(1, clients.size())) {
      progress.plain(String.format(Locale.ROOT, "  (from %s, %s, %s: --bind %s)", c.id(), c.region(), c.place(),
          demo.world().address(c).getHostAddress()));
    }
    progress.plain("Or open the web page (positions the browser over WebSockets to the landmarks; it never contacts a game server):");
    progress.plain("page: " + demo.pageUrl());
    progress.plain("Press Ctrl-C to stop everything.");
    demo.serve();
  }

  /**
   * The components log one INFO line per event (per round, per agent); the demo prints its own
   * progress, so they are limited to warnings unless --verbose. Set before their loggers exist.
   */
  private static void quietLogs() {
    for (String name : List.of("dev.reed", "io.grpc", "org.apache.kafka", "kafka")) {
      String key = "org.slf4j.simpleLogger.log." + name;
      if (System.getProperty(key) == null) System.setProperty(key, "warn");
    }
  }
}
