package dev.reed.coordinates.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QuarantineBaselinesTest {
  private static final List<String> IDS = List.of("a", "b");
  private static final List<String> SERVERS = List.of("s1", "s2");

  private static LandmarkQuarantine.Decision quarantined(String id) {
    return new LandmarkQuarantine.Decision(Set.of(id), List.of(new LandmarkQuarantine.Change(id, true, "step", null, true)), Map.of());
  }

  @Test
  void aQuarantinedLandmarkIsJudgedByTheMinimaItHadWhenQuarantined() {
    QuarantineBaselines b = new QuarantineBaselines();
    double[][] atQuarantine = {{10, 20}, {30, 40}};
    assertThat(b.minima(IDS, SERVERS, atQuarantine)).isDeepEqualTo(atQuarantine);
    b.update(IDS, SERVERS, atQuarantine, quarantined("b"));

    // b's window now holds only lies (+10 ms): its column is judged by the held minima, a's by its window
    double[][] later = {{11, 30}, {31, 50}};
    assertThat(b.minima(IDS, SERVERS, later)).isDeepEqualTo(new double[][] {{11, 20}, {31, 40}});
    assertThat(later[0][1]).as("the argument is not changed").isEqualTo(30);
    // a lower window minimum (the path got faster) wins over the held one
    assertThat(b.minima(IDS, SERVERS, new double[][] {{11, 15}, {31, Double.NaN}})).isDeepEqualTo(new double[][] {{11, 15}, {31, 40}});
  }

  @Test
  void readmissionAndTheHoldLimitForgetTheBaseline() {
    QuarantineBaselines b = new QuarantineBaselines();
    double[][] m = {{10, 20}, {30, 40}};
    b.update(IDS, SERVERS, m, quarantined("b"));
    assertThat(b.size()).isOne();
    b.update(IDS, SERVERS, m, new LandmarkQuarantine.Decision(Set.of(),
        List.of(new LandmarkQuarantine.Change("b", false, "consistent for 3 rounds", null, false)), Map.of()));
    assertThat(b.size()).isZero();

    b.update(IDS, SERVERS, m, quarantined("b"));
    LandmarkQuarantine.Decision still = new LandmarkQuarantine.Decision(Set.of("b"), List.of(), Map.of());
    for (int r = 1; r < QuarantineBaselines.HOLD_ROUNDS; r++) b.update(IDS, SERVERS, m, still);
    assertThat(b.size()).isOne();
    b.update(IDS, SERVERS, m, still);
    assertThat(b.size()).as("held %d rounds at most", QuarantineBaselines.HOLD_ROUNDS).isZero();
    assertThat(b.minima(IDS, SERVERS, new double[][] {{10, 30}, {30, 50}})).isDeepEqualTo(new double[][] {{10, 30}, {30, 50}});

    // quarantined for minima that do not fit the others' (random RTTs, some below the truth): nothing is held
    b.update(IDS, SERVERS, m, new LandmarkQuarantine.Decision(Set.of("b"),
        List.of(new LandmarkQuarantine.Change("b", true, "server error", null, false)), Map.of()));
    assertThat(b.size()).isZero();
  }
}
