package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.cli.demo.GeoDistanceOrder.Outcome;
import dev.reed.cli.demo.GeoDistanceOrder.Stop;
import dev.reed.coordinates.autostop.AutoStopPolicy;
import dev.reed.coordinates.geo.Place;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GeoDistanceOrderTest {
  private static final Place AMSTERDAM = new Place(52.37, 4.90, "EU");
  private static final Map<String, Place> CITIES = Map.of(
      "tokyo", new Place(35.68, 139.69, "AS"),
      "new-york", new Place(40.71, -74.01, "NA"),
      "berlin", new Place(52.52, 13.40, "EU"),
      "brussels", new Place(50.85, 4.35, "EU"),
      "frankfurt", new Place(50.11, 8.68, "EU"));

  @Test
  void serversComeByGreatCircleDistanceAndTheUnlocatedLastInListOrder() {
    List<String> list = List.of("tokyo", "unknown-1", "berlin", "new-york", "unknown-2", "brussels", "frankfurt");
    List<String> ordered = GeoDistanceOrder.byDistance(AMSTERDAM, list, CITIES::get);
    // Brussels 173 km, Frankfurt 364 km, Berlin 577 km, New York 5,860 km, Tokyo 9,300 km
    assertThat(ordered).containsExactly("brussels", "frankfurt", "berlin", "new-york", "tokyo", "unknown-1", "unknown-2");
    assertThat(GeoDistanceOrder.byDistance(CITIES.get("tokyo"), list, CITIES::get)).startsWith("tokyo")
        .containsSubsequence("berlin", "brussels", "new-york");
  }

  @Test
  void firstNCloseStopsAtTheArrivalThatCompletesTheAnswersInProbeOrder() {
    // probe 1 answers before probe 0: the SDK feeds replies in probe order, so the third answer in
    // probe order (probe 2) decides only once probe 0 is in as well
    List<Outcome> arrivals = List.of(
        new Outcome(1, 12, 3, 0.030),
        new Outcome(2, 11, 4, 0.031),
        new Outcome(0, 25, 5, 0.040),
        new Outcome(3, 10, 6, 0.045),
        new Outcome(4, 9, 7, 0.050));
    Stop stop = GeoDistanceOrder.replay(arrivals, 8, AutoStopPolicy.firstNClose(3));
    assertThat(stop.reason()).isEqualTo("stop_rule");
    assertThat(stop.probes()).as("probes sent when the decision came, those in flight included").isEqualTo(5);
    assertThat(stop.seconds()).isEqualTo(0.040);
    assertThat(stop.found()).extracting(Outcome::index).containsExactly(1, 2, 0);
    assertThat(stop.timeouts()).isZero();
  }

  @Test
  void unansweredProbesCountAndTheListCanRunOut() {
    List<Outcome> arrivals = List.of(
        new Outcome(0, 20, 1, 0.02),
        new Outcome(2, 22, 3, 0.04),
        new Outcome(1, Double.NaN, 4, 1.01));
    Stop stop = GeoDistanceOrder.replay(arrivals, 3, AutoStopPolicy.firstNClose(3));
    assertThat(stop.reason()).isEqualTo("list_done");
    assertThat(stop.probes()).isEqualTo(3);
    assertThat(stop.found()).hasSize(2);
    assertThat(stop.timeouts()).isEqualTo(1);
    assertThat(stop.seconds()).isEqualTo(1.01);
  }

  @Test
  void intelligentNCloseKeepsProbingWhileTheSetImproves() {
    // 3 servers wanted, window 2: probes 3 and 4 improve the set, 5 and 6 do not -> stop at probe 6
    double[] rtt = {30, 40, 50, 10, 20, 60, 70, 5, 5};
    List<Outcome> arrivals = new ArrayList<>();
    for (int i = 0; i < rtt.length; i++) arrivals.add(new Outcome(i, rtt[i], i + 1, i / 100.0));
    Stop stop = GeoDistanceOrder.replay(arrivals, rtt.length, AutoStopPolicy.intelligentNClose(3, 2));
    assertThat(stop.reason()).isEqualTo("stop_rule");
    assertThat(stop.probes()).isEqualTo(7);
    assertThat(stop.found()).extracting(Outcome::rttMs).doesNotContain(5.0);
  }

  @Test
  void outcomesOutsideTheListOrTwiceAreRejected() {
    assertThatThrownBy(() -> GeoDistanceOrder.replay(List.of(new Outcome(3, 1, 1, 0)), 3, AutoStopPolicy.firstNClose(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside a list of 3");
    assertThatThrownBy(() -> GeoDistanceOrder.replay(List.of(new Outcome(1, Double.NaN, 1, 0), new Outcome(1, 2, 2, 0)), 3,
        AutoStopPolicy.firstNClose(1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
  }
}
