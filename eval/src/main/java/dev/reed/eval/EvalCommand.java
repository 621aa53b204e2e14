package dev.reed.eval;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.ModelFile;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.coordinates.geo.EstimatorModel;
import dev.reed.runtime.options.DimensionsOption;
import dev.reed.runtime.options.DiscoveryModelOption;
import dev.reed.runtime.options.NCloseOption;
import dev.reed.runtime.options.OptionHeadings;
import dev.reed.runtime.options.SettingsFileOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import dev.reed.coordinates.reports.ReportConfig;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ./reed eval}: REED's section 5 evaluation, offline, on a measured RTT matrix. */
@Command(name = "eval", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
        "Evaluate REED offline on a measured RTT matrix (paper section 5): accuracy, probe order, auto-stop.",
        "Landmarks embed from their own sub-matrix (GNP); every other node is positioned from its RTTs to the"
            + " landmarks only; each client runs the client SDK's discovery policy (calibration, ordered probing that"
            + " learns from every reply) against a simulated coordinator, and each auto-stop policy is applied to its"
            + " probe sequence. The baselines (geo distance, Valve's relay estimate, Armitage's clustering, GNP) are"
            + " scored beside it on the same clients.",
        "Writes results.json, report.md, orders.csv, coordinates.csv and PNG plots to --out."})
public final class EvalCommand implements Callable<Integer>, OptionHeadings.Sectioned {

  /** --help by topic (OptionHeadings; ReedTest checks every option is under one). */
  static final OptionHeadings HEADINGS = OptionHeadings.of(
      OptionHeadings.section("Input and output", "--matrix", "--nodes", "--out", "--describe"),
      OptionHeadings.section("Landmarks and coordinates", "--landmarks", "--landmark-list", "--strategy",
          "--kmedoids-cap", "--dimensions", "--height", "--robust", "--sweep"),
      OptionHeadings.section("Clients and discovery", "--clients", "--players", "--model", "--n-close",
          "--rate", "--page-size"),
      OptionHeadings.section("Baselines", "--baselines", "--geo-error", "--estimator"),
      OptionHeadings.section("Client reports", "--reports", "--liars", "--liar-kind", "--report-attack",
          "--reports-config"),
      OptionHeadings.section("Integrity and quarantine", "--integrity", "--attack", "--attack-share",
          "--integrity-config", "--lying-landmark", "--quarantine"),
      OptionHeadings.section("Runs", "--seed", "--seeds", "--threads"));

  @Override
  public OptionHeadings optionHeadings() {
    return HEADINGS;
  }

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--matrix", required = true, paramLabel = "CSV",
      description = "RTT matrix: N lines of N comma-separated ms values, empty = missing.")
  Path matrix;

  @Option(names = "--nodes", paramLabel = "CSV",
      description = "Optional nodes file: index,name lines, or a header naming columns index and any of name, lat, lon,"
          + " country, asn, region (locations, countries and AS numbers enable the geographic and clustering baselines).")
  Path nodes;

  @Option(names = "--baselines", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Score the baselines beside REED on the same clients (default: on).")
  boolean baselines;

  @Option(names = "--geo-error", defaultValue = "geoip", paramLabel = "MODEL",
      description = "How wrong a GeoIP database is about every located node but the landmarks (clients and servers"
          + " alike): none, geoip (median 50 km, p90 400 km, 5 %% in a wrong country) or"
          + " geoip:MEDIAN_KM:P90_KM:WRONG_SHARE (default ${DEFAULT-VALUE}).")
  String geoError;

  static final class Landmarks {
    @Option(names = "--landmarks", paramLabel = "N", description = "Number of landmarks (default 15).")
    int count = 15;

    @Option(names = "--landmark-list", split = ",", paramLabel = "i,j,...",
        description = "Use exactly these node indices (0-based) as landmarks.")
    int[] list;
  }

  @ArgGroup(exclusive = true)
  Landmarks landmarks = new Landmarks();

  @Mixin DimensionsOption dimensions = new DimensionsOption();

  @Option(names = "--height", negatable = true, fallbackValue = "true",
      description = "Height model (2-D+height etc.; default: off, the coordinator's model).")
  Boolean height;

  @Option(names = "--clients", defaultValue = "all", paramLabel = "all|landmarks",
      description = "all: every non-landmark node is a client in turn; landmarks: paper 5.1.2 (default ${DEFAULT-VALUE}).")
  String clients;

  @Option(names = "--players", defaultValue = "0", paramLabel = "K",
      description = "Players in cities: K players near every host, each with its own last-mile delay (log-normal,"
          + " median 10 ms) added to its host's RTTs and its own GeoIP error; they are the clients, the hosts"
          + " stay the servers (0 = the hosts are the clients; default ${DEFAULT-VALUE}).")
  int players;

  /** N_close 10: the paper's evaluation (browse and the demo want 40, a server list's first page). */
  @Mixin NCloseOption nClose = new NCloseOption(10);

  @Option(names = "--rate", paramLabel = "PROBES/S", defaultValue = "140", description = "Probes per second for the time axis (default ${DEFAULT-VALUE}).")
  double rate;

  @Mixin DiscoveryModelOption model = new DiscoveryModelOption();

  @Option(names = "--estimator", paramLabel = "FILE",
      description = "The fused estimator's parameters (experimental \"reed + geo\" rows, need --nodes with lat/lon) as a"
          + " properties file; keys not given keep the defaults (docs/research/geo-estimator.md).")
  Path estimator;

  @Option(names = "--page-size", defaultValue = "230", paramLabel = "N",
      description = "Servers per page of the simulated coordinator's ordered list (default ${DEFAULT-VALUE}, the SDK's).")
  int pageSize;

  @Option(names = "--strategy", defaultValue = "kmedoids", paramLabel = "random|spread|kmedoids",
      description = "Landmark placement when not listed (default ${DEFAULT-VALUE}).")
  String strategy;

  @Option(names = "--kmedoids-cap", defaultValue = "30", paramLabel = "MS",
      description = "k-medoids landmark choice counts RTTs above MS as MS (default ${DEFAULT-VALUE}).")
  double kmedoidsCap;

  @Option(names = "--client-stride", defaultValue = "1", hidden = true)
  int clientStride;

  @Option(names = "--robust", paramLabel = "K", description = "Huber threshold on relative residuals (0 = plain GNP; default from the engine).")
  Double robust;

  @Option(names = "--sweep", description = "Also sweep dimensions and landmark counts (CDF and error-vs-landmarks plots).")
  boolean sweep;

  @Option(names = "--seed", defaultValue = "1", description = "First landmark seed (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--seeds", defaultValue = "10", description = "Landmark seeds to average over (default ${DEFAULT-VALUE}).")
  int seeds;

  @Option(names = "--threads", description = "Worker threads (default: available processors).")
  Integer threads;

  @Option(names = "--reports", defaultValue = "none", paramLabel = "none|half|withheld",
      description = "half: every other client discovers first and reports what it measured; the rest are scored"
          + " against a coordinator that learned from the reports, and only they are in the results. withheld: the same"
          + " clients scored without reports, the baseline for half (default ${DEFAULT-VALUE}).")
  String reports;

  @Option(names = "--liars", defaultValue = "0", paramLabel = "F",
      description = "Fraction of reporters that lie (needs --reports half; default ${DEFAULT-VALUE}).")
  double liars;

  @Option(names = "--liar-kind", defaultValue = "five-ms", paramLabel = "five-ms|random",
      description = "Liars report 5 ms, or a random 1-500 ms, to every server they probed (default ${DEFAULT-VALUE}).")
  String liarKind;

  @Option(names = "--report-attack", defaultValue = "none", paramLabel = "none|promote:K|demote:K|sybil:T:N:R",
      description = "An attacker who has read the code adds fabricated reports after the honest ones (needs --reports"
          + " half): promote:K under-reports K servers by just under what one network may move them (5 ms + 10 %%) from 200"
          + " places in one AS; demote:K over-reports the K servers nearest its own as much; sybil:T:N:R under-reports T servers to the"
          + " triangle bound from N networks at R places each. Results add the targets' rank gains for the scored"
          + " clients they are not near (default ${DEFAULT-VALUE}).")
  String reportAttack;

  @Mixin SettingsFileOptions settingsFiles = new SettingsFileOptions();

  @Option(names = "--integrity", description = "Instead of the discovery evaluation: the host integrity check"
      + " on every non-landmark node as a server: false alarms, detection of --attack, honest clients' P@10 with the"
      + " attack included, demoted and hidden; writes integrity.json.")
  boolean integrity;

  @Option(names = "--attack", defaultValue = "none", paramLabel = "none|anycast|proxy",
      description = "With --integrity: the lying servers simulated (default ${DEFAULT-VALUE}).")
  String attack;

  @Option(names = "--attack-share", defaultValue = "0.02", paramLabel = "F",
      description = "With --integrity and --attack: share of the servers that lie (default ${DEFAULT-VALUE}).")
  double attackShare;

  @Option(names = "--integrity-clients", defaultValue = "200", hidden = true)
  int integrityClients;
  @Option(names = "--lying-landmark", paramLabel = "none|shift30|random|offset:MS|scale:X",
      description = "Simulate the landmarks' rounds (windows of 8, queueing jitter) with one landmark lying from"
          + " round 9 on for 12 rounds (shift30: +30 ms on half its samples; random: random 1-400 ms RTTs; offset:MS: MS"
          + " added to every sample; scale:X: every sample times X; none: nobody,"
          + " to count false quarantines); the coordinator's check judges every round and the clients are scored on what"
          + " the deployment then serves (default: no simulation).")
  String lyingLandmark;

  @Option(names = "--quarantine", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "With --lying-landmark: apply the quarantine (off: the check is reported, the liar stays; default: on).")
  boolean quarantine;

  @Option(names = "--describe", description = "Instead of the evaluation: print the matrix's statistics (hosts by region,"
      + " RTT over the fibre floor by distance band and region pair, nearest neighbours, triangle-inequality violations)"
      + " to stdout; needs no --out.")
  boolean describe;

  @Option(names = "--out", paramLabel = "DIR", description = "Output directory (created; required unless --describe).")
  Path out;

  public static void main(String[] args) {
    System.exit(OptionHeadings.commandLine(new EvalCommand()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    EvalSettings settings;
    RttMatrix m;
    try {
      settings = settings();
      if (!Files.isRegularFile(matrix)) {
        throw new IllegalArgumentException("--matrix " + matrix + ": no such file");
      }
      if (nodes != null && !Files.isRegularFile(nodes)) {
        throw new IllegalArgumentException("--nodes " + nodes + ": no such file");
      }
      m = RttMatrix.load(matrix, nodes);
      if (describe) {
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.print(MatrixDescription.of(m, seed).format());
        stdout.flush();
        return 0;
      }
      if (out == null) {
        throw new IllegalArgumentException("--out DIR is required (unless --describe)");
      }
      if (settings.landmarkList() != null) {
        for (int i : settings.landmarkList()) {
          if (i < 0 || i >= m.size()) {
            throw new IllegalArgumentException("--landmark-list: index " + i + " outside 0.." + (m.size() - 1));
          }
        }
        if (java.util.Arrays.stream(settings.landmarkList()).distinct().count() != settings.landmarkList().length) {
          throw new IllegalArgumentException("--landmark-list: duplicate index");
        }
      } else if (settings.landmarks() < dimensions.dimensions() + 2 || settings.landmarks() >= m.size() - 1) {
        throw new IllegalArgumentException("--landmarks must be " + (dimensions.dimensions() + 2) + ".." + (m.size() - 2) + " for "
            + m.size() + " nodes and " + dimensions.dimensions() + " dimensions, got " + settings.landmarks());
      }
      if (settings.players() > 0) {
        if (settings.clients() != EvalSettings.ClientMode.ALL) {
          throw new IllegalArgumentException("--players needs --clients all");
        }
        m = PlayerPopulation.of(m, settings.players());
      }
    } catch (IllegalArgumentException e) {
      err.println("eval: " + e.getMessage());
      err.flush();
      return 2;
    }
    Files.createDirectories(out);
    if (integrity) {
      try {
        return new IntegrityOutput(m, out, err).run(integritySettings(settings));
      } catch (IllegalArgumentException e) {
        err.println("eval: " + e.getMessage());
        err.flush();
        return 2;
      }
    }
    if (spec.commandLine().getParseResult().hasMatchedOption("--geo-error") && !settings.geoError().isNone()
        && !m.nodes().hasLocations()) {
      err.println("eval: --geo-error " + settings.geoError() + " has no effect: "
          + (nodes == null ? "no --nodes" : nodes + " has no lat/lon"));
    }
    long t0 = System.nanoTime();
    err.printf(Locale.ROOT, "eval: %s: %d nodes, %s landmarks (%s), %d-D%s, clients %s, %d seed(s), %d thread(s)%n",
        matrix.getFileName(), m.hosts(),
        settings.landmarkList() != null ? settings.landmarkList().length : settings.landmarks(),
        settings.landmarkList() != null ? "listed" : settings.strategy().name().toLowerCase(Locale.ROOT),
        dimensions.dimensions(), settings.coordinates().height() ? "+height" : "", settings.players() > 0 ? settings.players() + " players near every host"
            : settings.clients().name().toLowerCase(Locale.ROOT),
        settings.seeds(), settings.threads());
    err.flush();
    ExecutorService pool = Executors.newFixedThreadPool(settings.threads());
    try {
      Evaluation ev = new Evaluation(m, settings, err);
      Evaluation.Result result = ev.run(pool);
      Evaluation.Sweep sw = sweep ? ev.sweep(pool) : null;
      new OutputWriter(m, settings, out).write(result, sw);
      Map<String, Double> o = result.overall();
      err.printf(Locale.ROOT, "eval: done in %.1f s: rel.err median %.3f, P@%d %.2f, intelligent %.1f probes (precision %.2f),"
              + " all %d nearest seen after %.1f probes (random order %.1f); wrote %s%n",
          (System.nanoTime() - t0) / 1e9, o.get("relErrMedian"), settings.nClose(), o.get("precisionAt10"),
          o.get("intelligent.probes"), o.get("intelligent.precision"), settings.nClose(), o.get("allNearestSeen"),
          o.get("allNearestSeenRandom"), out);
      err.flush();
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("eval: " + e.getMessage());
      err.flush();
      return 2;
    } finally {
      pool.shutdownNow();
    }
  }

  EvalSettings settings() {
    CoordinateConfig cfg = CoordinateConfig.defaults().withDimensions(dimensions.dimensions());
    if (height != null) {
      cfg = cfg.withHeight(height);
    }
    if (robust != null) {
      cfg = cfg.withRobustThreshold(robust);
    }
    EvalSettings.ClientMode mode = switch (clients.toLowerCase(Locale.ROOT)) {
      case "all" -> EvalSettings.ClientMode.ALL;
      case "landmarks" -> EvalSettings.ClientMode.LANDMARKS;
      default -> throw new IllegalArgumentException("--clients must be all or landmarks, got " + clients);
    };
    LandmarkStrategy st;
    try {
      st = LandmarkStrategy.valueOf(strategy.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--strategy must be random, spread or kmedoids, got " + strategy);
    }
    int t = threads != null ? threads : Math.max(1, Runtime.getRuntime().availableProcessors());
    DiscoveryModel discovery = ModelFile.option("--model", model.file(), DiscoveryModel.defaults());
    if (discovery.calibrationProbes() < dimensions.dimensions() + 1) {
      throw new IllegalArgumentException("--model: calibrationProbes must be >= dimensions + 1 = " + (dimensions.dimensions() + 1));
    }
    if (estimator != null && !Files.isRegularFile(estimator)) {
      throw new IllegalArgumentException("--estimator " + estimator + ": no such file");
    }
    EstimatorModel fused;
    try {
      fused = estimator == null ? EstimatorModel.defaults() : EstimatorModel.load(estimator);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("--estimator " + estimator + ": " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--estimator " + e.getMessage(), e); // the message names the file
    }
    return EvalSettings.builder()
        .coordinates(cfg)
        .estimator(fused)
        .model(discovery, pageSize)
        .landmarks(landmarks.count, landmarks.list)
        .strategy(st)
        .clients(mode)
        .probing(nClose.nClose(), rate)
        .kmedoidsCap(kmedoidsCap)
        .clientStride(clientStride)
        .seeds(seed, seeds)
        .threads(t)
        .baselines(baselines, GeoErrorModel.parse(geoError))
        .reports(reportSimulation())
        .players(players)
        .lying(lyingLandmark == null ? LyingLandmarks.Settings.OFF
            : new LyingLandmarks.Settings(LyingLandmarks.Attack.parse(lyingLandmark), quarantine, 8, 12,
                dev.reed.coordinates.integrity.QuarantineConfig.defaults()))
        .build();
  }

  private IntegrityStudy.Settings integritySettings(EvalSettings settings) {
    IntegrityStudy.Attack a = switch (attack.toLowerCase(Locale.ROOT)) {
      case "none" -> IntegrityStudy.Attack.NONE;
      case "anycast" -> IntegrityStudy.Attack.ANYCAST;
      case "proxy" -> IntegrityStudy.Attack.PROXY;
      default -> throw new IllegalArgumentException("--attack must be none, anycast or proxy, got " + attack);
    };
    if (!(attackShare > 0 && attackShare <= 0.5)) {
      throw new IllegalArgumentException("--attack-share must be in (0, 0.5], got " + attackShare);
    }
    if (settings.landmarkList() != null) {
      throw new IllegalArgumentException("--integrity chooses landmarks with --strategy; --landmark-list is not supported");
    }
    dev.reed.coordinates.integrity.IntegrityConfig ic = ModelFile.option("--integrity-config",
        settingsFiles.integrity(), dev.reed.coordinates.integrity.IntegrityConfig.defaults());
    return new IntegrityStudy.Settings(ic, a, attackShare, settings.coordinates(), settings.landmarks(),
        settings.strategy(), settings.kmedoidsCapMs(), settings.seed(), settings.seeds(), integrityClients);
  }

  private ReportSimulation reportSimulation() {
    String mode = reports.toLowerCase(Locale.ROOT);
    if (!List.of("none", "half", "withheld").contains(mode)) {
      throw new IllegalArgumentException("--reports must be none, half or withheld, got " + reports);
    }
    ReportSimulation.LiarKind kind = switch (liarKind.toLowerCase(Locale.ROOT)) {
      case "five-ms" -> ReportSimulation.LiarKind.FIVE_MS;
      case "random" -> ReportSimulation.LiarKind.RANDOM;
      default -> throw new IllegalArgumentException("--liar-kind must be five-ms or random, got " + liarKind);
    };
    ReportConfig config = ModelFile.option("--reports-config", settingsFiles.reports(), ReportConfig.defaults());
    return new ReportSimulation(mode.equals("half"), mode.equals("withheld"), liars, kind, config,
        ReportAttack.parse(reportAttack));
  }
}
