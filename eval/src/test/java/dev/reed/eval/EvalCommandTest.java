package dev.reed.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.reports.ReportConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class EvalCommandTest {

  @TempDir
  Path dir;

  /** A small noisy 3-D world with heights, a few asymmetric and missing cells. */
  static Path smallMatrix(Path dir, int n) throws IOException {
    SplittableRandom r = new SplittableRandom(17);
    double[][] x = new double[n][3];
    double[] h = new double[n];
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < 3; k++) {
        x[i][k] = (r.nextDouble() - 0.5) * 200;
      }
      h[i] = r.nextDouble() * 5;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (j > 0) {
          sb.append(',');
        }
        if (i == j) {
          sb.append('0');
          continue;
        }
        if ((i * 31 + j) % 97 == 0) {
          continue; // missing
        }
        double d = Math.sqrt(Math.pow(x[i][0] - x[j][0], 2) + Math.pow(x[i][1] - x[j][1], 2)
            + Math.pow(x[i][2] - x[j][2], 2)) + h[i] + h[j];
        sb.append(String.format(Locale.ROOT, "%.3f", d * (1 + 0.05 * r.nextGaussian()) + 0.5));
      }
      sb.append('\n');
    }
    Path p = dir.resolve("m.csv");
    Files.writeString(p, sb.toString());
    return p;
  }

  record Run(int code, String err) {}

  static Run run(String... args) {
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new EvalCommand());
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(new StringWriter(), true));
    int code = cl.execute(args);
    return new Run(code, err.toString());
  }

  @Test
  void writesEveryOutputOnASmallMatrix() throws IOException {
    Path m = smallMatrix(dir, 60);
    Path out = dir.resolve("out");
    Run r = run("--matrix", m.toString(), "--landmarks", "10", "--dimensions", "3", "--seeds", "2", "--threads", "2",
        "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("seed 1 (1/2)").contains("seed 2 (2/2)").contains("done in");
    List<String> orders = Files.readAllLines(out.resolve("orders.csv"));
    assertThat(orders.get(0)).isEqualTo("client,rank,server,predicted_ms,calib_probes");
    // 50 clients, each ranks the 49 other non-landmark nodes
    assertThat(orders).hasSize(1 + 50 * 49);
    assertThat(orders.get(1)).matches("\\d+,1,\\d+,[0-9.]+,\\d+");
    List<String> coords = Files.readAllLines(out.resolve("coordinates.csv"));
    assertThat(coords.get(0)).isEqualTo(CoordinateHeader.expected(3, false));
    assertThat(coords).hasSize(61);
    assertThat(coords.stream().filter(l -> l.contains(",landmark,"))).hasSize(10);
    String json = Files.readString(out.resolve("results.json"));
    assertThat(json).startsWith("{").contains("\"overall\":{").contains("\"relErrMedian\":")
        .contains("\"intelligent.probes\":").contains("\"rttstop160.playableFoundPct\":").contains("\"perSeed\":[")
        .contains("\"clients\":[{").contains("\"nearestLandmarkMs\":").contains("\"byNearestLandmark.0-5.clients\":");
    assertThat(json.chars().filter(c -> c == '{').count()).isEqualTo(json.chars().filter(c -> c == '}').count());
    String report = Files.readString(out.resolve("report.md"));
    assertThat(report).contains("Table I").contains("Table VI").contains("Table VII").doesNotContain("NaN");
    assertThat(Files.size(out.resolve("probed-rtt-vs-time.png"))).isGreaterThan(1000);
  }

  @Test
  void sweepsModelsAndLandmarkCounts() throws IOException {
    Path m = smallMatrix(dir, 60);
    Path out = dir.resolve("sweep");
    Run r = run("--matrix", m.toString(), "--landmarks", "10", "--dimensions", "2", "--height", "--seeds", "1",
        "--clients", "landmarks", "--sweep", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("sweep: model 8:").doesNotContain("sweep: model 10:").contains("sweep: 20 landmarks");
    assertThat(Files.size(out.resolve("relerr-cdf.png"))).isGreaterThan(1000);
    assertThat(Files.size(out.resolve("relerr-vs-landmarks.png"))).isGreaterThan(1000);
    assertThat(Files.readString(out.resolve("results.json"))).contains("\"relErrMedianByModel\":{\"2\":");
    assertThat(Files.readAllLines(out.resolve("coordinates.csv")).get(0)).isEqualTo("node,role,c1,c2,height");
    // landmarks mode: each of the 10 landmarks is a client against the 50 servers
    assertThat(Files.readAllLines(out.resolve("orders.csv"))).hasSize(1 + 10 * 50);
  }

  @Test
  void badInputGetsAClearErrorAndExitCode2() throws IOException {
    Path m = smallMatrix(dir, 30);
    Path out = dir.resolve("bad");
    Path ragged = dir.resolve("ragged.csv");
    Files.writeString(ragged, "0,1,2\n1,0\n2,1,0\n", StandardCharsets.UTF_8);
    Path garbage = dir.resolve("garbage.csv");
    Files.writeString(garbage, "0,x,2\n1,0,1\n2,1,0\n", StandardCharsets.UTF_8);
    Path negative = dir.resolve("neg.csv");
    Files.writeString(negative, "0,-1,2\n1,0,1\n2,1,0\n", StandardCharsets.UTF_8);
    assertThat(run("--matrix", ragged.toString(), "--out", out.toString()).err()).contains("line 2: 2 values, expected 3");
    assertThat(run("--matrix", garbage.toString(), "--out", out.toString()).err()).contains("line 1 column 2");
    assertThat(run("--matrix", negative.toString(), "--out", out.toString()).err()).contains(">= 0");
    assertThat(run("--matrix", dir.resolve("absent.csv").toString(), "--out", out.toString()).err())
        .contains("no such file");
    Run clients = run("--matrix", m.toString(), "--clients", "everyone", "--out", out.toString());
    assertThat(clients.code()).isEqualTo(2);
    assertThat(clients.err()).contains("--clients must be all or landmarks");
    assertThat(run("--matrix", m.toString(), "--landmark-list", "1,2,300", "--out", out.toString()).err())
        .contains("index 300");
    assertThat(run("--matrix", m.toString(), "--landmarks", "3", "--out", out.toString()).err()).contains("--landmarks must be");
    assertThat(run("--matrix", m.toString(), "--dimensions", "0", "--out", out.toString()).err()).contains("dimensions");
    assertThat(run("--matrix", m.toString(), "--landmarks", "5", "--landmark-list", "1,2", "--out", out.toString()).code())
        .isEqualTo(2); // mutually exclusive
    assertThat(run("--matrix", m.toString(), "--model", dir.resolve("absent.properties").toString(), "--out", out.toString())
        .err()).contains("--model").contains("no such file");
    Path badModel = dir.resolve("bad.properties");
    Files.writeString(badModel, "nearDifferenceWeight = -1\n");
    Run bad = run("--matrix", m.toString(), "--model", badModel.toString(), "--out", out.toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("bad.properties").contains("nearDifferenceWeight must be >= 0");
    assertThat(run("--matrix", m.toString(), "--page-size", "0", "--out", out.toString()).err()).contains("--page-size");
    assertThat(run("--matrix", m.toString(), "--kmedoids-cap", "0", "--out", out.toString()).code()).isEqualTo(2);
    Path badMargin = Files.writeString(dir.resolve("margin.properties"), "windowMarginMs = -1\n");
    Run margin = run("--matrix", m.toString(), "--model", badMargin.toString(), "--out", out.toString());
    assertThat(margin.code()).isEqualTo(2);
    assertThat(margin.err()).contains("margin.properties", "windowMarginMs must be >= 0 and finite");
    Run reports = run("--matrix", m.toString(), "--reports", "all", "--out", out.toString());
    assertThat(reports.code()).isEqualTo(2);
    assertThat(reports.err()).contains("--reports must be none, half or withheld");
    assertThat(run("--matrix", m.toString(), "--liars", "0.2", "--out", out.toString()).err())
        .contains("--liars needs --reports half");
    assertThat(run("--matrix", m.toString(), "--reports", "half", "--liars", "1.5", "--out", out.toString()).err())
        .contains("--liars must be within 0-1");
    assertThat(run("--matrix", m.toString(), "--reports", "half", "--liar-kind", "loud", "--out", out.toString()).err())
        .contains("--liar-kind must be five-ms or random");
    Path settings = Files.writeString(out.resolveSibling("kernel.properties"), "kernel = 1\n");
    assertThat(run("--matrix", m.toString(), "--reports", "half", "--reports-config", settings.toString(), "--out",
        out.toString()).err()).contains("--reports-config " + settings + ": unknown key kernel; allowed: kernelMs");
    assertThat(run("--matrix", m.toString(), "--reports", "half", "--report-attack", "promote", "--out", out.toString())
        .err()).contains("--report-attack must be none, promote:K, demote:K or sybil:T:N:R");
    assertThat(run("--matrix", m.toString(), "--reports", "half", "--report-attack", "sybil:1:0:2", "--out", out.toString())
        .err()).contains("--report-attack must be");
    assertThat(run("--matrix", m.toString(), "--report-attack", "promote:1", "--out", out.toString()).err())
        .contains("--report-attack needs --reports half");
    assertThat(run("--help").code()).isZero();
  }

  /**
   * An attacker's fabricated reports pass the screen (they copy real places and agree with the
   * predictions but for the lie), and the run reports what they did to the target's ranks.
   */
  @Test
  void aReportAttackIsBelievedAndItsRankGainsAreMeasured() throws IOException {
    Path m = smallMatrix(dir, 60);
    Path out = dir.resolve("attack");
    Run r = run("--matrix", m.toString(), "--reports", "half", "--report-attack", "sybil:1:3:2", "--no-baselines",
        "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("attack: 6 reports, 100 % believed");
    assertThat(Files.readString(out.resolve("results.json"))).contains("reports.attack.rankGainMedian")
        .contains("reports.falseFlagShare");
  }

  private Path model(String name, String text) throws IOException {
    Path p = dir.resolve(name + ".properties");
    Files.writeString(p, text);
    return p;
  }

  /** A model file chooses the policy: K calibration probes in two phases, and the landmark comparison off changes the order. */
  @Test
  void aModelFileChoosesTheDiscoveryPolicy() throws IOException {
    Path m = smallMatrix(dir, 60);
    Path on = dir.resolve("on");
    Path off = dir.resolve("off");
    String seven = "calibrationProbes = 7\nspreadProbes = 4\nnearBeaconMaxMs = Infinity\n";
    Run a = run("--matrix", m.toString(), "--landmarks", "12", "--dimensions", "3", "--model", model("on", seven).toString(),
        "--seeds", "1", "--out", on.toString());
    assertThat(a.code()).as(a.err()).isZero();
    Run b = run("--matrix", m.toString(), "--landmarks", "12", "--dimensions", "3",
        "--model", model("off", seven + "comparison = false\n").toString(), "--seeds", "1", "--out", off.toString());
    assertThat(b.code()).as(b.err()).isZero();
    List<String> orders = Files.readAllLines(on.resolve("orders.csv"));
    assertThat(orders.subList(1, orders.size())).allSatisfy(line -> assertThat(line).endsWith(",7"));
    assertThat(Files.readString(on.resolve("results.json"))).contains("\"calibrationProbes\":\"7\"", "\"comparison\":\"true\"",
        "\"pageSize\":230");
    assertThat(Files.readString(on.resolve("report.md"))).contains("7 (4 spread by Algorithm 3, then the nearest beacons within");
    assertThat(orders).isNotEqualTo(Files.readAllLines(off.resolve("orders.csv")));
  }

  /**
   * Near calibration points of any kind: some are servers, which the order then hands out in their
   * turn without a second probe. With a beacon cap of 0 no beacon is near, which is the same batch
   * as any; without a cap every near point is a beacon.
   */
  @Test
  void nearCalibrationOfAnyKindAndTheBeaconCap() throws IOException {
    Path m = smallMatrix(dir, 60);
    Path any = dir.resolve("any");
    Path none = dir.resolve("none");
    Path uncapped = dir.resolve("uncapped");
    String base = "calibrationProbes = 7\nspreadProbes = 4\n";
    for (Object[] c : new Object[][] {{any, "near = any\n"}, {none, "nearBeaconMaxMs = 0\n"},
        {uncapped, "nearBeaconMaxMs = Infinity\n"}}) {
      Path out = (Path) c[0];
      Run r = run("--matrix", m.toString(), "--landmarks", "12", "--dimensions", "3",
          "--model", model(out.getFileName().toString(), base + c[1]).toString(), "--seeds", "1", "--out", out.toString());
      assertThat(r.code()).as(r.err()).isZero();
    }
    assertThat(Files.readAllLines(none.resolve("orders.csv"))).isEqualTo(Files.readAllLines(any.resolve("orders.csv")));
    assertThat(Files.readAllLines(uncapped.resolve("orders.csv"))).isNotEqualTo(Files.readAllLines(any.resolve("orders.csv")));
    assertThat(Files.readString(any.resolve("report.md"))).contains("then the nearest calibration points of any kind");
  }

  /** The report settings files shipped for research load (every key they set is a ReportConfig key). */
  @Test
  void theReportSettingsFilesInTheRepositoryLoad() {
    assertThat(ReportConfig.load(Path.of("reports/defences-off.properties")).promotedNetworks()).isEqualTo(1000);
    assertThat(ReportConfig.load(Path.of("reports/vote-per-neighbourhood.properties")).networkPerServer()).isZero();
  }

  /** The model files in eval/models load, and default.properties is the SDK's model with every key. */
  @Test
  void theModelFilesInTheRepositoryLoad() throws IOException {
    assertThat(dev.reed.coordinates.discovery.DiscoveryModel.load(Path.of("models/default.properties")))
        .isEqualTo(dev.reed.coordinates.discovery.DiscoveryModel.defaults());
    java.util.Properties listed = new java.util.Properties();
    try (var r = Files.newBufferedReader(Path.of("models/default.properties"))) {
      listed.load(r);
    }
    assertThat(listed.stringPropertyNames()).containsExactlyInAnyOrderElementsOf(
        dev.reed.coordinates.discovery.DiscoveryModel.KEYS);
    try (var files = Files.list(Path.of("models"))) {
      for (Path f : files.toList()) {
        assertThat(dev.reed.coordinates.discovery.DiscoveryModel.load(f)).as(f.toString()).isNotNull();
      }
    }
  }

  /**
   * Without options the evaluator measures the configuration the product runs: the coordinate
   * engine's defaults (which the coordinator's defaults are, CoordinatorCommandTest), the SDK's
   * discovery model and the location estimator's defaults.
   */
  @Test
  void theDefaultsAreTheProductsConfiguration() {
    EvalCommand c = new EvalCommand();
    new CommandLine(c).parseArgs("--matrix", "m.csv", "--out", "o");
    EvalSettings s = c.settings();
    assertThat(s.coordinates().dimensions()).isEqualTo(dev.reed.coordinates.CoordinateConfig.defaults().dimensions());
    assertThat(s.coordinates().height()).isEqualTo(dev.reed.coordinates.CoordinateConfig.defaults().height());
    assertThat(s.model()).isEqualTo(dev.reed.coordinates.discovery.DiscoveryModel.defaults());
    assertThat(s.estimator()).isEqualTo(dev.reed.coordinates.geo.EstimatorModel.defaults());
  }

  /** The coordinates.csv header the issue specifies. */
  static final class CoordinateHeader {
    static String expected(int d, boolean height) {
      StringBuilder b = new StringBuilder("node,role");
      for (int k = 1; k <= d; k++) {
        b.append(",c").append(k);
      }
      return height ? b.append(",height").toString() : b.toString();
    }
  }
}
