package dev.reed.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.reed.coordinates.geo.Place;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The evaluation measures what a deployment would see: every node's location as wrong as a GeoIP
 * database makes it (servers too), no scored client finding its own true place anywhere, and
 * players in cities (many clients per host, each behind its own last mile).
 */
class DeploymentLikeMeasurementTest {

  @TempDir
  Path dir;

  @Test
  void playersAreTheirHostPlusTheirOwnLastMileAndNeverServersOrLandmarks() throws IOException {
    Path[] w = BaselinesTest.locatedWorld(dir, 30, 0.05);
    RttMatrix hosts = RttMatrix.load(w[1], w[0]);
    RttMatrix m = PlayerPopulation.of(hosts, 3);
    assertThat(m.size()).isEqualTo(30 + 90);
    assertThat(m.hosts()).isEqualTo(30);
    double[] access = new double[m.size()];
    for (int p = 30; p < m.size(); p++) {
      int home = m.home()[p];
      assertThat(home).isEqualTo((p - 30) / 3);
      assertThat(m.nodes().node(p).location()).isEqualTo(hosts.nodes().node(home).location());
      access[p] = m.rtt(p, home) - PlayerPopulation.METRO_MS;
      assertThat(access[p]).isPositive();
      for (int x = 0; x < 30; x++) {
        if (x != home) {
          assertThat(m.rtt(p, x)).isCloseTo(hosts.rtt(home, x) + access[p], org.assertj.core.data.Offset.offset(1e-9));
        }
      }
    }
    double[] a = Arrays.copyOfRange(access, 30, m.size());
    Arrays.sort(a);
    assertThat(a[a.length / 2]).as("median last mile").isBetween(5.0, 20.0);
    assertThat(new HashSet<>(Arrays.stream(a).boxed().toList())).as("each player its own").hasSize(90);
    assertThat(m.hostsOnly().ms()).isDeepEqualTo(hosts.ms());
  }

  @Test
  void playersModeScoresPlayersAgainstTheHostsOnly() throws Exception {
    Path[] w = BaselinesTest.locatedWorld(dir, 40, 0.05);
    RttMatrix m = PlayerPopulation.of(RttMatrix.load(w[1], w[0]), 2);
    EvalSettings s = EvalSettings.builder().landmarks(8, null).coordinates(dev.reed.coordinates.CoordinateConfig.defaults()
        .withDimensions(3)).baselines(true, GeoErrorModel.GEOIP).players(2).build();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      SeedRun.Output o = new SeedRun(m, s, false).run(1, false, pool);
      Set<Integer> landmarks = new HashSet<>(Arrays.stream(o.landmarks()).boxed().toList());
      assertThat(Arrays.stream(o.landmarks()).boxed().toList()).allMatch(v -> v < 40);
      assertThat(Arrays.stream(o.servers()).boxed().toList()).allMatch(v -> v < 40 && !landmarks.contains(v)).hasSize(32);
      assertThat(o.clients()).hasSize(64).allMatch(c -> m.isPlayer(c.client()) && !landmarks.contains(m.home()[c.client()]));
    } finally {
      pool.shutdownNow();
    }
  }

  /** Servers are located by the same database as clients: a client's truth is nowhere the coordinator can snap it to. */
  @Test
  void everyNodeButTheLandmarksIsDisplacedAndNoClientFindsItsOwnTruth() throws Exception {
    Path[] w = BaselinesTest.locatedWorld(dir, 40, 0.05);
    RttMatrix m = RttMatrix.load(w[1], w[0]);
    EvalSettings s = EvalSettings.builder().landmarks(8, null).coordinates(dev.reed.coordinates.CoordinateConfig.defaults()
        .withDimensions(3)).baselines(true, GeoErrorModel.GEOIP).build();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      SeedRun.Output o = new SeedRun(m, s, false).run(3, false, pool);
      Place[] trained = o.located().estimator().data().servers();
      Place[] landmarks = o.located().estimator().data().landmarks();
      for (int k = 0; k < landmarks.length; k++) {
        assertThat(landmarks[k]).as("landmarks are where the deployment put them").isEqualTo(truth(m, o.landmarks()[k]));
      }
      for (ClientResult c : o.clients()) {
        Place own = truth(m, c.client());
        assertThat(o.located().believed()[c.client()]).isNotEqualTo(own);
        assertThat(trained).as("client %d's true place among the servers' places", c.client()).doesNotContain(own);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theCommandReportsPlayersAndHowOftenReedLosesToTheZeroProbeOrder() throws IOException {
    Path[] w = BaselinesTest.locatedWorld(dir, 40, 0.05, 10);
    Path out = dir.resolve("players");
    EvalCommandTest.Run r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", w[0].toString(), "--landmarks", "8",
        "--dimensions", "3", "--seeds", "1", "--players", "2", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("2 players near every host");
    JsonObject reed = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject()
        .getAsJsonObject("baselines").getAsJsonObject("reed");
    assertThat(reed.get("clients").getAsDouble()).isEqualTo(64);
    assertThat(reed.get("worseThan.fusedZero").getAsDouble()).isBetween(0.0, 1.0);
    assertThat(Files.readString(out.resolve("report.md"))).contains("needs more than 5 probes beyond fusedZero");
    EvalCommandTest.Run bad = EvalCommandTest.run("--matrix", w[1].toString(), "--players", "2", "--clients", "landmarks",
        "--landmarks", "8", "--out", dir.resolve("bad").toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--players needs --clients all");
    assertThat(EvalCommandTest.run("--matrix", w[1].toString(), "--players", "99", "--out", dir.resolve("bad2").toString())
        .err()).contains("--players must be 0-16");
  }

  private static Place truth(RttMatrix m, int v) {
    GeoPoint p = m.nodes().node(v).location();
    return Place.of(p.lat(), p.lon());
  }
}
