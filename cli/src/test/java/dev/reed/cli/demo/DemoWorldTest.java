package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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
  void jsonNumbersAndStringsAreValid() {
    assertThat(JsonReport.num(Double.NaN)).isEqualTo("null");
    assertThat(JsonReport.num(Double.POSITIVE_INFINITY)).isEqualTo("null");
    assertThat(JsonReport.num(100.0)).isEqualTo("100");
    assertThat(JsonReport.num(0.25)).isEqualTo("0.25");
    assertThat(JsonReport.num(-3.5)).isEqualTo("-3.5");
    assertThat(JsonReport.str("a\"b\\c\n\u0001")).isEqualTo("\"a\\\"b\\\\c\\n\\u0001\"");
  }
}
