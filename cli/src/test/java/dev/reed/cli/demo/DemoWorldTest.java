package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.reed.testbed.world.Noise;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoWorldTest {

  @Test
  void syntheticWorldHasThePapersLayout() {
    DemoWorld w = DemoWorld.synthetic(300, 15, 7, Noise.NONE);
    assertThat(w.serverCount()).isEqualTo(300);
    assertThat(w.landmarkMix()).isEqualTo("EU 5, NA 5, AS 5");
    assertThat(w.clients()).extracting(DemoWorld.Site::region).containsExactly("EU", "NA", "AS");
    Set<Integer> hosts = new HashSet<>();
    Arrays.stream(w.servers()).forEach(hosts::add);
    w.landmarks().forEach(s -> assertThat(hosts.add(s.host())).as("landmark %s has its own host", s.id()).isTrue());
    w.clients().forEach(s -> assertThat(hosts.add(s.host())).as("client %s has its own host", s.id()).isTrue());
    assertThat(w.landmarks().stream().map(DemoWorld.Site::id).collect(Collectors.toSet())).hasSize(15);
    assertThat(w.landmarks()).allSatisfy(s -> assertThat(s.place()).isNotBlank());
    assertThat(w.address(w.clients().getFirst()).getHostAddress()).startsWith("127.");
  }

  @Test
  void theSecondRoundHasANewPlayerInEachClientsCity() {
    DemoWorld w = DemoWorld.synthetic(300, 15, 7, Noise.NONE);
    assertThat(w.neighbours()).hasSize(w.clients().size());
    Set<Integer> taken = new HashSet<>();
    Arrays.stream(w.servers()).forEach(taken::add);
    w.landmarks().forEach(s -> taken.add(s.host()));
    w.clients().forEach(s -> taken.add(s.host()));
    for (int i = 0; i < w.clients().size(); i++) {
      DemoWorld.Site client = w.clients().get(i);
      DemoWorld.Site next = w.neighbours().get(i);
      assertThat(next.id()).isEqualTo(client.id() + "-2");
      assertThat(next.place()).as("same city").isEqualTo(client.place());
      assertThat(next.region()).isEqualTo(client.region());
      assertThat(taken.add(next.host())).as("%s has its own host", next.id()).isTrue();
      assertThat(w.address(next)).isNotEqualTo(w.address(client));
      // a player of the same city, not the same machine: some km and its own access link away
      assertThat(w.world().rttMs(client.host(), next.host())).isGreaterThan(0).isLessThan(60);
    }
  }

  @Test
  void theSyntheticWorldIsLocatedAndAMatrixIsNot(@TempDir Path dir) throws Exception {
    DemoWorld w = DemoWorld.synthetic(300, 6, 7, Noise.NONE);
    assertThat(w.located()).isTrue();
    DemoWorld.Site asia = w.clients().getLast();
    assertThat(w.location(asia.host())).satisfies(p -> {
      assertThat(p.lat()).as("%s in East Asia", asia.place()).isBetween(0.0, 60.0);
      assertThat(p.lon()).as("%s in East Asia", asia.place()).isBetween(95.0, 150.0);
    });
    assertThat(Arrays.stream(w.servers()).mapToObj(w::location)).doesNotContainNull();

    Files.writeString(dir.resolve("matrix.csv"), IntStream.range(0, 20).mapToObj(i -> IntStream.range(0, 20)
        .mapToObj(j -> i == j ? "0" : "10").collect(Collectors.joining(","))).collect(Collectors.joining("\n")));
    DemoWorld m = DemoWorld.matrix(dir, 10, 6, 1, Noise.NONE);
    assertThat(m.located()).isFalse();
    assertThat(m.location(m.clients().getFirst().host())).isNull();
  }

  @Test
  void optimalIsTheMeanAndMedianOfTheTrulyNearest() {
    DemoWorld w = DemoWorld.synthetic(200, 6, 3, Noise.NONE);
    DemoWorld.Site c = w.clients().getFirst();
    double[] rtt = Arrays.stream(w.servers()).mapToDouble(s -> w.world().rttMs(c.host(), s)).sorted().toArray();
    double[] opt = w.optimal(c, 5);
    assertThat(opt[0]).isCloseTo(Arrays.stream(rtt, 0, 5).average().orElseThrow(), within(1e-9));
    assertThat(opt[1]).isEqualTo(rtt[2]);
    assertThat(w.optimal(c, 40)[0]).isGreaterThanOrEqualTo(opt[0]);
  }

  @Test
  void matrixWorldSpreadsLandmarksAndKeepsRolesApart(@TempDir Path dir) throws Exception {
    int n = 40;
    // hosts on a line, 10 ms apart: the farthest-point landmarks must include both ends
    String csv = IntStream.range(0, n).mapToObj(i -> IntStream.range(0, n).mapToObj(j -> i == j ? "0" : Integer.toString(
        Math.abs(i - j) * 10)).collect(Collectors.joining(","))).collect(Collectors.joining("\n"));
    Files.writeString(dir.resolve("matrix.csv"), csv);
    DemoWorld w = DemoWorld.matrix(dir, 20, 6, 1, Noise.NONE);
    List<Integer> lm = w.landmarks().stream().map(DemoWorld.Site::host).toList();
    assertThat(lm).hasSize(6).doesNotHaveDuplicates().contains(0, n - 1);
    assertThat(w.clients()).hasSize(3).allSatisfy(c -> assertThat(lm).doesNotContain(c.host()));
    assertThat(w.serverCount()).isEqualTo(20);
    Set<Integer> servers = new HashSet<>();
    Arrays.stream(w.servers()).forEach(servers::add);
    assertThat(servers).hasSize(20).doesNotContainAnyElementsOf(lm)
        .doesNotContainAnyElementsOf(w.clients().stream().map(DemoWorld.Site::host).toList());
    assertThat(w.description()).contains("matrix", "40 hosts");
  }

  @Test
  void aMatrixTooSmallForTheRolesIsRejected(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("matrix.csv"), "0,5\n5,0\n");
    assertThatThrownBy(() -> DemoWorld.matrix(dir.resolve("matrix.csv"), 10, 6, 1, Noise.NONE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has 2 hosts");
  }

  @Test
  void theTargetNeedsBothTheMeanRttAndTheNearestServers() {
    DemoWorld.Site site = new DemoWorld.Site("client-as", "AS", "Tokyo", 3);
    // a Tokyo seen in a run: 5.6 ms above the optimum with 4 of the 40 nearest
    assertThat(TargetFigures.of(first(site, 33.4, 27.8, 4), 40).met()).isFalse();
    assertThat(TargetFigures.of(first(site, 30.8, 27.8, 30), 40).met()).isTrue();
    assertThat(TargetFigures.of(first(site, 30.9, 27.8, 40), 40).met()).as("3.1 ms above").isFalse();
    assertThat(TargetFigures.of(first(site, 28.0, 27.8, 29), 40).met()).as("29 of 40").isFalse();
    assertThat(TargetFigures.of(first(site, Double.NaN, 27.8, 40), 40).met()).as("nothing found").isFalse();
    assertThat(TargetFigures.of(first(site, 28.0, 27.8, 8), 10).nearestWanted()).isEqualTo(8);
  }

  private static MethodFigures first(DemoWorld.Site site, double mean, double optimal, int nearest) {
    return new MethodFigures(site, "127.0.0.1", "first", 55, 10, 0, 45, 0.4, false, 0.4, 140, mean, mean, optimal, optimal,
        nearest, 0.05, null, "stop_rule", List.of());
  }

  @Test
  void jsonNumbersAreValid() {
    assertThat(JsonOutput.num(Double.NaN)).isEqualTo("null");
    assertThat(JsonOutput.num(Double.POSITIVE_INFINITY)).isEqualTo("null");
    assertThat(JsonOutput.num(100.0)).isEqualTo("100");
    assertThat(JsonOutput.num(0.25)).isEqualTo("0.25");
    assertThat(JsonOutput.num(-3.5)).isEqualTo("-3.5");
  }

  @Test
  void theReportIsOneJsonObjectWithEscapedStringsAndNullForMissingFigures() {
    DemoWorld.Site site = new DemoWorld.Site("c\"1", "eu", "Amster\ndam", 3);
    MethodFigures reed = new MethodFigures(site, "127.0.0.1", "first", 20, 10, 1, 10, 0.14, false, 0.5, 140, 21.25,
        20.0, 20.5, 19.0, 9, 0.05, new double[] {1.5, -2.0, 0.25}, "stop_rule", List.<double[]>of(new double[] {1, 12.5, Double.NaN, 12.0}));
    MethodFigures traditional = new MethodFigures(site, "127.0.0.1", "traditional", 200, 0, 3, 10, 1.43, true, 1.4, 140,
        20.5, 20.0, 20.5, 19.0, 10, Double.NaN, null, "list_done", List.of());
    MethodFigures geo = new MethodFigures(site, "127.0.0.1", "geo-first", 12, 0, 0, 10, 0.1, false, 0.1, 140, 24.0, 23.0,
        20.5, 19.0, 4, Double.NaN, null, "stop_rule", List.<double[]>of(new double[] {0, 24.0, Double.NaN, 23.5}));
    DemoResult report = new DemoResult("w \"x\"", 200, 5, "127.0.0.1:9092", "127.0.0.1:50051", "off (--no-geo)",
        List.of(new RoundFigures(1, 1, 200, 990, 10, 1.5, 200, 0.1, 0.2, Double.NaN,
            DelayError.of(new double[] {0.25, 0.5}), 2.0)), true, 10,
        List.of(reed, geo, traditional), DelayError.of(new double[] {0.25, 0.5, 1.5}), 12.0);
    JsonObject root = JsonParser.parseString(JsonOutput.render(report)).getAsJsonObject();
    assertThat(root.get("world").getAsString()).isEqualTo("w \"x\"");
    assertThat(root.getAsJsonObject("delay_error").get("probes").getAsInt()).isEqualTo(3);
    assertThat(root.getAsJsonObject("delay_error").get("max_ms").getAsDouble()).isEqualTo(1.5);
    assertThat(root.getAsJsonArray("rounds").get(0).getAsJsonObject().getAsJsonObject("delay_error").get("p50_ms").getAsDouble())
        .isEqualTo(0.375);
    assertThat(root.getAsJsonArray("rounds").get(0).getAsJsonObject().get("median_pair_error").isJsonNull()).isTrue();
    JsonObject first = root.getAsJsonArray("clients").get(0).getAsJsonObject();
    assertThat(first.get("client").getAsString()).isEqualTo("c\"1");
    assertThat(first.get("place").getAsString()).isEqualTo("Amster\ndam");
    assertThat(first.get("probe_reduction_percent").getAsDouble()).isEqualTo(90.0);
    assertThat(first.getAsJsonArray("position").toString()).isEqualTo("[1.5,-2,0.25]");
    assertThat(first.getAsJsonArray("replies").get(0).getAsJsonObject().get("predicted_ms").isJsonNull()).isTrue();
    assertThat(first.get("mean_rtt_above_optimal_ms").getAsDouble()).isEqualTo(0.75);
    JsonObject geoRow = root.getAsJsonArray("clients").get(1).getAsJsonObject();
    assertThat(geoRow.get("method").getAsString()).isEqualTo("geo-first");
    assertThat(geoRow.get("calibration_probes").getAsInt()).isZero();
    assertThat(geoRow.get("mean_rtt_above_optimal_ms").getAsDouble()).isEqualTo(3.5);
    assertThat(geoRow.has("position")).isFalse();
    // the target: REED first only, 0.75 ms above the optimum but 9 of 10 nearest >= ceil(7.5)
    JsonObject target = root.getAsJsonObject("target");
    assertThat(target.get("min_nearest_found").getAsInt()).isEqualTo(8);
    assertThat(target.getAsJsonArray("clients")).hasSize(1);
    JsonObject t = target.getAsJsonArray("clients").get(0).getAsJsonObject();
    assertThat(t.get("first_mean_rtt_above_optimal_ms").getAsDouble()).isEqualTo(0.75);
    assertThat(t.get("first_nearest_found").getAsInt()).isEqualTo(9);
    assertThat(t.get("first_probes").getAsInt()).isEqualTo(20);
    assertThat(t.get("met").getAsBoolean()).isTrue();
    assertThat(target.get("all_met").getAsBoolean()).isTrue();
    assertThat(root.get("geo").getAsString()).isEqualTo("off (--no-geo)");
    List<String> table = ResultTable.lines(report);
    assertThat(table).anyMatch(l -> l.contains("geo distance first") && l.contains("   12 "));
    assertThat(table).anyMatch(l -> l.startsWith("target (locations)") && l.contains(">= 8/10"));
    assertThat(table).anyMatch(l -> l.contains("+0.8 ms") && l.contains("9/10") && l.endsWith(" met"));
    String md = MarkdownOutput.render(report);
    assertThat(md).contains("| c\"1 | Amster dam | geo distance first | 12 | 0 | 0.10 s | 24.0 ms | +3.5 ms | 4/10 | stop_rule |")
        .contains("| c\"1 | Amster dam | +0.8 ms | 9/10 | 20 | yes |").contains("at least 8/10 nearest")
        .contains("over 3 landmark probes: p50 0.500 ms, p99 1.480 ms, max 1.5 ms");
    JsonObject last = root.getAsJsonArray("clients").get(2).getAsJsonObject();
    assertThat(last.get("probe_reduction_percent").isJsonNull()).isTrue();
    assertThat(last.has("position")).isFalse();
    assertThat(last.has("replies")).isFalse();
  }
}
