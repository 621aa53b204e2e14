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
  void jsonNumbersAreValid() {
    assertThat(JsonReport.num(Double.NaN)).isEqualTo("null");
    assertThat(JsonReport.num(Double.POSITIVE_INFINITY)).isEqualTo("null");
    assertThat(JsonReport.num(100.0)).isEqualTo("100");
    assertThat(JsonReport.num(0.25)).isEqualTo("0.25");
    assertThat(JsonReport.num(-3.5)).isEqualTo("-3.5");
  }

  @Test
  void theReportIsOneJsonObjectWithEscapedStringsAndNullForMissingFigures() {
    DemoWorld.Site site = new DemoWorld.Site("c\"1", "eu", "Amster\ndam", 3);
    MethodFigures reed = new MethodFigures(site, "127.0.0.1", "first", 20, 10, 1, 10, 0.14, false, 0.5, 140, 21.25,
        20.0, 20.5, 19.0, 9, 0.05, new double[] {1.5, -2.0, 0.25}, "stop_rule", List.<double[]>of(new double[] {1, 12.5, Double.NaN, 12.0}));
    MethodFigures traditional = new MethodFigures(site, "127.0.0.1", "traditional", 200, 0, 3, 10, 1.43, true, 1.4, 140,
        20.5, 20.0, 20.5, 19.0, 10, Double.NaN, null, "list_done", List.of());
    DemoReport report = new DemoReport("w \"x\"", 200, 5, "127.0.0.1:9092", "127.0.0.1:50051",
        List.of(new RoundFigures(1, 1, 200, 990, 10, 1.5, 200, 0.1, 0.2, Double.NaN, 2.0)), true, 10,
        List.of(reed, traditional), 12.0);
    JsonObject root = JsonParser.parseString(JsonReport.render(report)).getAsJsonObject();
    assertThat(root.get("world").getAsString()).isEqualTo("w \"x\"");
    assertThat(root.getAsJsonArray("rounds").get(0).getAsJsonObject().get("median_pair_error").isJsonNull()).isTrue();
    JsonObject first = root.getAsJsonArray("clients").get(0).getAsJsonObject();
    assertThat(first.get("client").getAsString()).isEqualTo("c\"1");
    assertThat(first.get("place").getAsString()).isEqualTo("Amster\ndam");
    assertThat(first.get("probe_reduction_percent").getAsDouble()).isEqualTo(90.0);
    assertThat(first.getAsJsonArray("position").toString()).isEqualTo("[1.5,-2,0.25]");
    assertThat(first.getAsJsonArray("replies").get(0).getAsJsonObject().get("predicted_ms").isJsonNull()).isTrue();
    JsonObject last = root.getAsJsonArray("clients").get(1).getAsJsonObject();
    assertThat(last.get("probe_reduction_percent").isJsonNull()).isTrue();
    assertThat(last.has("position")).isFalse();
    assertThat(last.has("replies")).isFalse();
  }
}
