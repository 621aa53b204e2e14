package dev.reed.cli.scale;

import dev.reed.runtime.options.OptionHeadings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./reed scale}: one step of the scale harness; a sweep is several runs. */
@Command(name = "scale", mixinStandardHelpOptions = true, usageHelpWidth = 100,
    description = {
        "Measure the coordinator at fleet size. Publishes what L landmark agents would send for T game servers (a synthetic geographic "
            + "world, jitter, timeouts, the landmark mesh; every target once per landmark per round, spread over the "
            + "round) into Kafka, runs R coordinator replicas as separate processes sharing the sample partitions "
            + "(leader: a file lock), and measures ingest rate, consumer lag, time from a round's end to every target "
            + "served, heap/RSS and bytes per (landmark, target) pair, GetOrderedServers latency at a fixed rate "
            + "during ingest, a SIGKILLed replica's hand-over and restart to serving. Writes report.md, PNG plots and "
            + "summary.tsv to --out.",
        "The harness JVM holds the broker, the world and the query load: give it heap with REED_JAVA_OPTS "
            + "(e.g. -Xmx4g for 250,000 targets)."})
public final class ScaleCommand implements Callable<Integer>, OptionHeadings.Sectioned {

  /** --help by topic (OptionHeadings; ReedTest checks every option is under one). */
  static final OptionHeadings HEADINGS = OptionHeadings.of(
      OptionHeadings.section("Load", "--targets", "--landmarks", "--timeouts", "--round-seconds",
          "--rounds", "--query-rate", "--query-warmup", "--page-size"),
      OptionHeadings.section("Replicas", "--replicas", "--serving-replicas", "--replica-heap",
          "--replica-gc", "--coordinator-round", "--no-kill"),
      OptionHeadings.section("Broker and output", "--bootstrap", "--out"));

  @Override
  public OptionHeadings optionHeadings() {
    return HEADINGS;
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--targets", paramLabel = "T", description = "Game servers (default: ${DEFAULT-VALUE}).")
  int targets = 10_000;

  @Option(names = "--landmarks", paramLabel = "L", description = "Landmarks, 6-64 (default: ${DEFAULT-VALUE}).")
  int landmarks = 15;

  @Option(names = "--round-seconds", paramLabel = "S",
      description = "Landmark round; the agents' default is 300, shorter keeps each round's work and raises the rate (default: ${DEFAULT-VALUE}).")
  int roundSeconds = 60;

  @Option(names = "--rounds", paramLabel = "N", description = "Steady rounds measured (default: ${DEFAULT-VALUE}).")
  int rounds = 3;

  @Option(names = "--replicas", paramLabel = "R", description = "Coordinator processes, 1-3 (default: ${DEFAULT-VALUE}).")
  int replicas = 1;

  @Option(names = "--serving-replicas", paramLabel = "N",
      description = "Serving replicas, 0-3 (./reed coordinator --serve-only: the index and the API, no share of the "
          + "samples); when set, the query load goes to them instead of the ingesting replicas (default: ${DEFAULT-VALUE}).")
  int servingReplicas = 0;

  @Option(names = "--replica-heap", paramLabel = "SIZE", description = "-Xms/-Xmx of each replica (default: ${DEFAULT-VALUE}).")
  String replicaHeap = "2g";

  @Option(names = "--replica-gc", paramLabel = "JVM_OPTIONS",
      description = "The replicas' collector and its options (-XX:, -Xmn, -Xlog:), whitespace-separated, e.g. \"-XX:+UseZGC\" (default: ${DEFAULT-VALUE}: "
          + "at 250,000 x 30 on 2 cores ParallelGC ingested fastest, and with safepoint polls in counted loops, which "
          + "ParallelGC leaves out, a collection does not wait for a long loop to end; the heap touched at start, "
          + "or young collections fault its pages in and spend as long in the kernel as in copying; coordinator README).")
  String replicaGc = "-XX:+UseParallelGC -XX:+UseCountedLoopSafepoints -XX:LoopStripMiningIter=1000 -XX:+AlwaysPreTouch";

  @Option(names = "--coordinator-round", paramLabel = "SECONDS",
      description = "The replicas' --round-interval in seconds: how often they position what changed (default: ${DEFAULT-VALUE}).")
  int coordinatorRoundSeconds = 5;

  @Option(names = "--query-rate", paramLabel = "PER_S",
      description = "GetOrderedServers per second during ingest, open loop, round robin over the replicas; 0 = none (default: ${DEFAULT-VALUE}).")
  double queryRate = 1000;

  @Option(names = "--query-warmup", paramLabel = "SECONDS",
      description = "The query load runs this long unmeasured first: the replicas' ranking path is cold (default: ${DEFAULT-VALUE}).")
  int queryWarmupSeconds = 15;

  @Option(names = "--page-size", paramLabel = "N", description = "Servers per page (default: ${DEFAULT-VALUE}, the Valve master's page).")
  int pageSize = 230;

  @Option(names = "--timeouts", paramLabel = "FRACTION", description = "Share of probes that time out (default: ${DEFAULT-VALUE}).")
  double timeouts = 0.05;

  @Option(names = "--no-kill", description = "Skip the SIGKILL and restart of a replica after the steady rounds.")
  boolean noKill;

  @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
      description = "An existing broker with the project's topics, instead of an embedded one (its reed.samples should be empty).")
  String bootstrap;

  @Option(names = "--out", paramLabel = "DIR", description = "Report, plots, replica logs and the embedded broker's data (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("reed-data/scale");

  @Override
  public Integer call() throws Exception {
    ScaleSettings s;
    try {
      s = new ScaleSettings(targets, landmarks, Duration.ofSeconds(roundSeconds), rounds, replicas, servingReplicas, replicaHeap, replicaGc,
          Duration.ofSeconds(coordinatorRoundSeconds), queryRate, Duration.ofSeconds(queryWarmupSeconds), pageSize, timeouts, !noKill, bootstrap, out);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    spec.commandLine().getOut().printf("scale: %,d targets x %d landmarks every %d s = %,.0f samples/s offered, %d replica(s)%s%n",
        targets, landmarks, roundSeconds, s.offeredRate(), replicas,
        servingReplicas == 0 ? "" : " and " + servingReplicas + " serving replica(s)");
    ScaleResult r = new ScaleRun(s, System.out).run();
    Path md = ScaleOutput.write(r, "./reed " + String.join(" ", spec.commandLine().getParseResult().originalArgs()));
    System.out.println("report: " + md.toAbsolutePath());
    System.out.println(ScaleOutput.TSV_HEADER);
    System.out.println(ScaleOutput.tsv(r));
    return 0;
  }
}
