package dev.reed.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The baselines through the command, on a small located world: nodes spread over
 * Europe, RTT a straight line of great-circle distance (so it is monotone in distance and obeys
 * the triangle inequality), with or without noise.
 */
class BaselinesTest {

  @TempDir
  Path dir;

  /** Countries of the generated world: a 4 x 4 grid of cells, each its own country, AS and region by row. */
  private static final String[] COUNTRIES = {"PT", "ES", "FR", "IT", "IE", "GB", "BE", "DE", "NO", "DK", "NL", "PL",
      "IS", "SE", "FI", "EE"};

  /** A located world of {@code n} nodes: nodes.csv and matrix.csv in {@code dir}; returns {nodes, matrix}. */
  static Path[] locatedWorld(Path dir, int n, double noise) throws IOException {
    return locatedWorld(dir, n, noise, 0);
  }

  /** The same with each node's own access delay, uniform in 0..maxAccessMs, added to every RTT of it. */
  static Path[] locatedWorld(Path dir, int n, double noise, double maxAccessMs) throws IOException {
    SplittableRandom r = new SplittableRandom(5);
    SplittableRandom accessDraws = new SplittableRandom(17);
    double[] access = new double[n];
    for (int i = 0; i < n; i++) {
      access[i] = accessDraws.nextDouble() * maxAccessMs;
    }
    GeoPoint[] at = new GeoPoint[n];
    StringBuilder nodes = new StringBuilder("index,name,lat,lon,country,asn,region\n");
    for (int i = 0; i < n; i++) {
      double lat = 36 + r.nextDouble() * 28;
      double lon = -10 + r.nextDouble() * 40;
      at[i] = new GeoPoint(lat, lon);
      int row = Math.min(3, (int) ((lat - 36) / 7));
      int cell = row * 4 + Math.min(3, (int) ((lon + 10) / 10));
      nodes.append(String.format(Locale.ROOT, "%d,host %d,%.4f,%.4f,%s,AS%d,R%d%n", i, i, lat, lon, COUNTRIES[cell],
          64_500 + cell, row));
    }
    StringBuilder m = new StringBuilder();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (j > 0) {
          m.append(',');
        }
        double rtt = i == j ? 0 : (2 + at[i].kmTo(at[j]) / 70) * (1 + noise * r.nextGaussian()) + access[i] + access[j];
        m.append(String.format(Locale.ROOT, "%.4f", Math.max(0.1, rtt) * (i == j ? 0 : 1)));
      }
      m.append('\n');
    }
    Path np = dir.resolve("nodes.csv");
    Path mp = dir.resolve("matrix.csv");
    Files.writeString(np, nodes);
    Files.writeString(mp, m);
    return new Path[] {np, mp};
  }

  private static JsonObject baselines(Path out) throws IOException {
    return JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject()
        .getAsJsonObject("baselines");
  }

  @Test
  void everyBaselineTheDataAllowIsWrittenBesideReed() throws IOException {
    Path[] w = locatedWorld(dir, 60, 0.05);
    Path out = dir.resolve("out");
    EvalCommandTest.Run r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", w[0].toString(), "--landmarks", "10",
        "--dimensions", "3", "--seeds", "2", "--threads", "2", "--geo-error", "geoip", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("seed 2 baselines, P@10: reed ");
    JsonObject b = baselines(out);
    assertThat(b.keySet()).containsExactly("reed", "fusedZero", "geoExact", "geoNoisy", "relay",
        "clusterCountry", "clusterAs", "gnp");
    for (String k : b.keySet()) {
      JsonObject v = b.getAsJsonObject(k);
      assertThat(v.get("clients").getAsDouble()).as(k).isEqualTo(50);
      assertThat(v.get("precisionAt10").getAsDouble()).as(k).isBetween(0.0, 1.0);
      assertThat(v.get("intelligent.probes").getAsDouble()).as(k).isPositive();
      assertThat(v.has("byRegion.R0.precisionAt10")).as(k).isTrue();
    }
    // REED's row is the REED run's own figures
    JsonObject overall = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject()
        .getAsJsonObject("overall");
    assertThat(b.getAsJsonObject("reed").get("precisionAt10").getAsDouble())
        .isEqualTo(overall.get("precisionAt10").getAsDouble(), within(1e-5));
    // calibration probes as each method makes them
    assertThat(b.getAsJsonObject("geoExact").get("calibrationProbes").getAsDouble()).isZero();
    assertThat(b.getAsJsonObject("relay").get("calibrationProbes").getAsDouble()).isEqualTo(10);
    assertThat(b.getAsJsonObject("gnp").get("calibrationProbes").getAsDouble()).isEqualTo(10);
    assertThat(b.getAsJsonObject("clusterCountry").get("calibrationProbes").getAsDouble()).isBetween(2.0, 32.0);
    assertThat(b.getAsJsonObject("clusterCountry").get("relErrMedian").isJsonNull()).isTrue();
    // on a world where RTT follows distance, distance orders well, and a GeoIP error costs
    assertThat(b.getAsJsonObject("geoExact").get("precisionAt10").getAsDouble()).isGreaterThan(0.8);
    assertThat(b.getAsJsonObject("geoNoisy").get("precisionAt10").getAsDouble())
        .isLessThan(b.getAsJsonObject("geoExact").get("precisionAt10").getAsDouble());
    String report = Files.readString(out.resolve("report.md"));
    assertThat(report).contains("## Baselines", "Valve's relay estimate", "Armitage's clustering by origin AS",
        "### By region of the client", "| R0 |").doesNotContain("NaN");
    assertThat(Files.readString(out.resolve("results.json"))).contains("\"geoError\":\"geoip\"", "\"locatedNodes\":60");
  }

  /** RTT strictly increasing in distance: ordering by the client's true location is the truth's order. */
  @Test
  void exactGeoDistanceOrdersPerfectlyWhenRttIsMonotoneInDistance() throws IOException {
    Path[] w = locatedWorld(dir, 40, 0);
    Path out = dir.resolve("exact");
    EvalCommandTest.Run r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", w[0].toString(), "--landmarks", "8",
        "--dimensions", "3", "--seeds", "1", "--geo-error", "none", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonObject geo = baselines(out).getAsJsonObject("geoExact");
    assertThat(geo.get("precisionAt10").getAsDouble()).isEqualTo(1.0);
    assertThat(geo.get("allNearestSeen").getAsDouble()).isEqualTo(10.0);
    assertThat(geo.get("intelligent.precision").getAsDouble()).isEqualTo(1.0);
    // the line fitted on the landmarks' RTTs is the world's own
    assertThat(geo.get("relErrMedian").getAsDouble()).isLessThan(1e-3);
    assertThat(baselines(out).has("geoNoisy")).as("--geo-error none, no noisy row").isFalse();
  }

  /**
   * On a metric matrix the relay estimate is an upper bound, and at most twice the client's RTT to
   * its nearest landmark above the truth: actual <= min_l (c,l) + (l,s) <= actual + 2 min_l (c,l).
   */
  @Test
  void theRelayEstimateIsBoundedByTheTriangleInequality() throws IOException {
    Path[] w = locatedWorld(dir, 40, 0);
    RttMatrix m = RttMatrix.load(w[1], w[0]);
    int[] lm = {0, 5, 10, 15, 20, 25};
    double[][] landmarkRtt = new double[m.size()][lm.length];
    for (int v = 0; v < m.size(); v++) {
      for (int k = 0; k < lm.length; k++) {
        landmarkRtt[v][k] = m.rtt(lm[k], v);
      }
    }
    int[] servers = {1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 19, 21, 22};
    int checked = 0;
    for (int c = 26; c < 40; c++) {
      double[] actual = new double[servers.length];
      for (int j = 0; j < servers.length; j++) {
        actual[j] = m.rtt(c, servers[j]);
      }
      ClientView view = new ClientView(m, c, servers, actual, lm, landmarkRtt, 1);
      StaticOrder o = new RelayEstimate().order(view);
      assertThat(o.calibrationProbes()).isEqualTo(lm.length);
      int client = c;
      double nearest = Arrays.stream(lm).mapToDouble(l -> m.rtt(client, l)).min().orElseThrow();
      for (int j = 0; j < servers.length; j++) {
        assertThat(o.predictedMs()[j]).isGreaterThanOrEqualTo(actual[j] - 1e-9)
            .isLessThanOrEqualTo(actual[j] + 2 * nearest + 1e-9);
        checked++;
      }
      for (int k = 1; k < servers.length; k++) {
        assertThat(o.predictedMs()[o.order()[k]]).isGreaterThanOrEqualTo(o.predictedMs()[o.order()[k - 1]]);
      }
    }
    assertThat(checked).isEqualTo(14 * servers.length);
  }

  /** Armitage's clustering: a few probes per cluster, clusters by their best sample, samples free in their turn. */
  @Test
  void clusteringProbesSamplesThenClustersByTheirBestSample() throws IOException {
    Path[] w = locatedWorld(dir, 40, 0.02);
    RttMatrix m = RttMatrix.load(w[1], w[0]);
    int c = 3;
    int[] servers = java.util.stream.IntStream.range(0, 40).filter(v -> v != c).toArray();
    double[] actual = Arrays.stream(servers).mapToDouble(v -> m.rtt(c, v)).toArray();
    ClientView view = new ClientView(m, c, servers, actual, new int[0], new double[40][0], 7);
    StaticOrder o = new ClusterBaseline(v -> m.nodes().node(v).country(), Baselines.CLUSTERING).order(view);
    long clusters = Arrays.stream(servers).mapToObj(v -> m.nodes().node(v).country()).distinct().count();
    long singletons = Arrays.stream(servers).mapToObj(v -> m.nodes().node(v).country())
        .collect(java.util.stream.Collectors.groupingBy(x -> x, java.util.stream.Collectors.counting()))
        .values().stream().filter(x -> x == 1).count();
    assertThat(o.calibrationProbes()).isEqualTo(2 * clusters - singletons);
    int sampled = 0;
    for (boolean b : o.calibrated()) {
      sampled += b ? 1 : 0;
    }
    assertThat(sampled).isEqualTo(o.calibrationProbes());
    assertThat(Arrays.stream(o.order()).sorted().toArray()).isEqualTo(java.util.stream.IntStream.range(0, 39).toArray());
    // the first server handed out is the best sample of all
    double bestSample = Double.POSITIVE_INFINITY;
    for (int j = 0; j < servers.length; j++) {
      if (o.calibrated()[j]) {
        bestSample = Math.min(bestSample, actual[j]);
      }
    }
    assertThat(actual[o.order()[0]]).isEqualTo(bestSample);
    // clusters stay together, in ascending order of their best sample
    List<String> seen = new java.util.ArrayList<>();
    for (int j : o.order()) {
      String country = m.nodes().node(servers[j]).country();
      if (seen.isEmpty() || !seen.getLast().equals(country)) {
        assertThat(seen).as("cluster %s comes back", country).doesNotContain(country);
        seen.add(country);
      }
    }
    // scored like REED: the samples cost nothing again
    MethodOutcome scored = new Baselines(m, EvalSettings.builder().build(), line -> { }).score(view, o);
    assertThat(scored.policies().get("exhaustive").probes()).isEqualTo(39);
  }

  /** The AS row needs an asn column (azure54 has none); with one, AS and country clusters differ in their samples. */
  @Test
  void theAsClusteringRowExistsOnlyWhereNodesCarryAsNumbers() throws IOException {
    Path[] w = locatedWorld(dir, 40, 0.02);
    List<String> withAsn = Files.readAllLines(w[0]);
    // two AS per country: the node's parity splits every cell
    List<String> split = new java.util.ArrayList<>(List.of(withAsn.get(0)));
    for (String line : withAsn.subList(1, withAsn.size())) {
      String[] c = line.split(",", -1);
      c[5] = c[5] + (Integer.parseInt(c[0]) % 2);
      split.add(String.join(",", c));
    }
    Files.write(w[0], split);
    Path out = dir.resolve("asn");
    EvalCommandTest.Run r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", w[0].toString(), "--landmarks", "8",
        "--dimensions", "3", "--seeds", "1", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonObject b = baselines(out);
    assertThat(b.keySet()).contains("clusterCountry", "clusterAs");
    assertThat(b.getAsJsonObject("clusterAs").get("calibrationProbes").getAsDouble())
        .isGreaterThan(b.getAsJsonObject("clusterCountry").get("calibrationProbes").getAsDouble());
    assertThat(b.getAsJsonObject("clusterAs").get("relErrMedian").isJsonNull()).isTrue();
    assertThat(Files.readString(out.resolve("report.md"))).contains("Armitage's clustering by origin AS (2 probes per cluster)");

    List<String> noAsn = new java.util.ArrayList<>();
    for (String line : withAsn) {
      String[] c = line.split(",", -1);
      noAsn.add(String.join(",", c[0], c[1], c[2], c[3], c[4], c[6]));
    }
    Files.write(w[0], noAsn);
    Path none = dir.resolve("noasn");
    r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", w[0].toString(), "--landmarks", "8", "--dimensions", "3",
        "--seeds", "1", "--out", none.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(baselines(none).keySet()).contains("clusterCountry").doesNotContain("clusterAs");
  }

  @Test
  void withoutLocationsOnlyTheRelayEstimateAndGnpRun() throws IOException {
    Path mp = EvalCommandTest.smallMatrix(dir, 40);
    Path out = dir.resolve("plain");
    EvalCommandTest.Run r = EvalCommandTest.run("--matrix", mp.toString(), "--landmarks", "8", "--dimensions", "3", "--seeds", "1",
        "--geo-error", "geoip", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("--geo-error geoip has no effect: no --nodes");
    assertThat(baselines(out).keySet()).containsExactly("reed", "relay", "gnp");
    assertThat(Files.readString(out.resolve("report.md"))).contains("## Baselines").doesNotContain("By region");
    Path none = dir.resolve("none");
    assertThat(EvalCommandTest.run("--matrix", mp.toString(), "--landmarks", "8", "--dimensions", "3", "--seeds", "1",
        "--no-baselines", "--out", none.toString()).code()).isZero();
    assertThat(Files.readString(none.resolve("results.json"))).doesNotContain("\"baselines\":{");
  }

  @Test
  void badNodeColumnsAndGeoErrorModelsGetAClearErrorAndExitCode2() throws IOException {
    Path[] w = locatedWorld(dir, 20, 0);
    List<String> good = Files.readAllLines(w[0]);
    Object[][] cases = {
        {2, "1,host 1,abc,10,DE,,EU", "nodes.csv line 3: lat is not a number: 'abc'"},
        {2, "1,host 1,95,10,DE,,EU", "line 3: lat must be -90..90, got 95"},
        {3, "2,host 2,50,NaN,DE,,EU", "line 4: lon must be finite"},
        {2, "1,host 1,50,,DE,,EU", "line 3: lat and lon must both be given or both be empty"},
        {2, "1,host 1,50,10,Germany,,EU", "line 3: country must be an ISO 3166 alpha-2 code"},
        {2, "1,host 1,50,10,DE,ASx,EU", "line 3: asn must be an AS number"},
        {2, "1,host 1,50,10,DE", "line 3: 5 cells, the header has 7"},
        {2, "0,host 0,50,10,DE,,EU", "line 3: index 0 listed twice"},
        {2, "99,host 99,50,10,DE,,EU", "line 3: index 99 outside 0..19"},
        {0, "index,name,lat,country", "line 1: columns lat and lon come together"},
    };
    for (Object[] c : cases) {
      List<String> lines = new java.util.ArrayList<>(good);
      lines.set((int) c[0], (String) c[1]);
      Path bad = dir.resolve("nodes.csv");
      Files.write(bad, lines);
      EvalCommandTest.Run r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", bad.toString(), "--landmarks", "8",
          "--out", dir.resolve("bad").toString());
      assertThat(r.code()).as(r.err()).isEqualTo(2);
      assertThat(r.err()).as((String) c[1]).contains((String) c[2]);
    }
    Files.write(w[0], good);
    for (String[] c : new String[][] {{"gauss", "--geo-error must be none, geoip or geoip:MEDIAN_KM:P90_KM:WRONG_SHARE"},
        {"geoip:400:50:0.05", "p90 must be above the median"}, {"geoip:50:400:2", "wrong-country share must be 0..1"},
        {"geoip:x:400:0.05", "got 'geoip:x:400:0.05'"}}) {
      EvalCommandTest.Run r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", w[0].toString(), "--geo-error", c[0],
          "--out", dir.resolve("bad").toString());
      assertThat(r.code()).as(c[0]).isEqualTo(2);
      assertThat(r.err()).as(c[0]).contains(c[1]);
    }
  }

  @Test
  void nodeFilesOfEitherLayoutAreRead() {
    NodeTable plain = NodeTable.parse(List.of("index,name", "0,alpha, with a comma", "2,gamma"), 3, "n.csv");
    assertThat(plain.names()).containsExactly("alpha, with a comma", "node1", "gamma");
    assertThat(plain.hasLocations()).isFalse();
    NodeTable headerless = NodeTable.parse(List.of("0,a", "1,b"), 2, "n.csv");
    assertThat(headerless.names()).containsExactly("a", "b");
    NodeTable located = NodeTable.parse(List.of("index,name,lat,lon,country,region,extra", "1,Bee,-33.9,151.2,au,OC,x",
        "0,Ay,,,,,"), 3, "n.csv");
    assertThat(located.node(1)).isEqualTo(new NodeTable.Node("Bee", new GeoPoint(-33.9, 151.2), "AU", 0, "OC"));
    assertThat(located.node(0)).isEqualTo(new NodeTable.Node("Ay", null, null, 0, null));
    assertThat(located.node(2).name()).isEqualTo("node2");
    assertThat(located.hasAsns()).isFalse();
    assertThat(NodeTable.parse(List.of("index,asn", "0,AS8075", "1,13335"), 2, "n.csv").nodes())
        .extracting(NodeTable.Node::asn).containsExactly(8075L, 13335L);
  }

  /** The geoip model: log-normal distance with the stated median and p90, a wrong-country share, deterministic per seed. */
  @Test
  void theGeoIpModelDisplacesAsDocumented() {
    int n = 4000;
    List<NodeTable.Node> nodes = new java.util.ArrayList<>();
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < n; i++) {
      nodes.add(new NodeTable.Node("n" + i, new GeoPoint(-50 + 100 * r.nextDouble(), -170 + 340 * r.nextDouble()),
          COUNTRIES[i % COUNTRIES.length], 0, null));
    }
    NodeTable t = new NodeTable(nodes);
    GeoPoint[] a = GeoErrorModel.GEOIP.displace(t, 1);
    assertThat(GeoErrorModel.GEOIP.displace(t, 1)).isEqualTo(a);
    assertThat(GeoErrorModel.GEOIP.displace(t, 2)).isNotEqualTo(a);
    assertThat(GeoErrorModel.NONE.displace(t, 1)).isEqualTo(nodes.stream().map(NodeTable.Node::location).toArray());
    double[] km = new double[n];
    int wrongCountry = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
      int j = nodes.stream().map(NodeTable.Node::location).toList().indexOf(a[i]);
      if (j >= 0 && j != i) {
        wrongCountry++;
        assertThat(nodes.get(j).country()).isNotEqualTo(nodes.get(i).country());
      } else {
        km[k++] = nodes.get(i).location().kmTo(a[i]);
      }
    }
    double[] moved = Arrays.copyOf(km, k);
    Arrays.sort(moved);
    assertThat(moved[k / 2]).isBetween(45.0, 55.0);
    assertThat(moved[(int) (0.9 * k)]).isBetween(340.0, 470.0);
    assertThat(wrongCountry / (double) n).isBetween(0.04, 0.06);
    assertThat(GeoErrorModel.parse("geoip:50:400:0.05")).isEqualTo(GeoErrorModel.GEOIP);
    assertThat(GeoErrorModel.parse(GeoErrorModel.parse("geoip:20:100:0").toString())).isEqualTo(GeoErrorModel.parse("geoip:20:100:0"));
  }

  @Test
  void greatCircleDistancesAndMovesAreRight() {
    GeoPoint london = new GeoPoint(51.5074, -0.1278);
    GeoPoint paris = new GeoPoint(48.8566, 2.3522);
    assertThat(london.kmTo(paris)).isCloseTo(343.5, within(1.0));
    GeoPoint moved = london.moved(1000, Math.toRadians(123));
    assertThat(london.kmTo(moved)).isCloseTo(1000, within(1e-6));
    assertThat(new GeoPoint(0, 179.9).moved(100, Math.PI / 2).lon()).isBetween(-180.0, -178.0);
  }
}
