package dev.reed.coordinates.autostop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AutoStopPolicyTest {

  /** Feeds RTTs until the policy stops; returns the number of probes made. */
  static int run(AutoStopPolicy p, double[] predicted, double[] rtt) {
    for (int i = 0; i < rtt.length; i++) {
      if (p.stopBefore(predicted[i])) {
        return i;
      }
      if (p.observe(predicted[i], rtt[i])) {
        return i + 1;
      }
    }
    return rtt.length;
  }

  @Test
  void exhaustiveNeverStops() {
    double[] r = {5, 6, 7};
    assertThat(run(AutoStopPolicy.exhaustive(), r, r)).isEqualTo(3);
  }

  @Test
  void firstNCloseCountsAnswersOnly() {
    double[] rtt = {10, Double.NaN, 12, Double.NaN, 14, 15};
    assertThat(run(AutoStopPolicy.firstNClose(3), rtt, rtt)).isEqualTo(5);
  }

  @Test
  void intelligentStopsAfterWindowWithoutImprovement() {
    // 3 closest: 10, 11, 12 found in the first 4 probes, then nothing better
    double[] rtt = {30, 10, 11, 12, 40, 50, 60, 70, 80, 9, 90};
    AutoStopPolicy p = AutoStopPolicy.intelligentNClose(3, 5);
    assertThat(run(p, rtt, rtt)).isEqualTo(9); // probe 4 was the last change, then 5 more
    assertThat(p.name()).isEqualTo("intelligent(3,5)");
    // an improvement resets the window
    double[] later = {30, 10, 11, 40, 12, 50, 60, 70, 80, 90, 95};
    assertThat(run(AutoStopPolicy.intelligentNClose(3, 5), later, later)).isEqualTo(10);
    // never stops before the set is full
    double[] few = {Double.NaN, Double.NaN, Double.NaN, Double.NaN, 5};
    assertThat(run(AutoStopPolicy.intelligentNClose(2, 1), few, few)).isEqualTo(5);
  }

  @Test
  void intelligentMarginLetsSmallImprovementsInWithoutRestartingTheWindow() {
    // set {10, 11, 12} full at probe 4; probe 6 improves it by 0.5 ms (12 -> 11.5), probe 8 by 3 ms (11.5 -> 8.5)
    double[] rtt = {30, 10, 11, 12, 40, 11.5, 50, 8.5, 60, 70, 80, 90, 95, 96, 97};
    assertThat(run(AutoStopPolicy.intelligentNClose(3, 5), rtt, rtt)).isEqualTo(13); // paper: both restart
    AutoStopPolicy small = AutoStopPolicy.intelligentNClose(3, 5, 1.0);
    assertThat(run(small, rtt, rtt)).isEqualTo(13); // the 3 ms one still restarts at probe 8
    assertThat(small.name()).isEqualTo("intelligent(3,5,1.0ms)");
    double[] onlySmall = {30, 10, 11, 12, 40, 11.5, 50, 60, 70, 80, 90};
    assertThat(run(AutoStopPolicy.intelligentNClose(3, 5), onlySmall, onlySmall)).isEqualTo(11);
    assertThat(run(AutoStopPolicy.intelligentNClose(3, 5, 1.0), onlySmall, onlySmall)).isEqualTo(9); // 4 + 5
    // the margin applies only once the set is full: filling it always restarts
    double[] filling = {30, 29.5, 29.2, 90, 91, 92, 93, 94, 95};
    assertThat(run(AutoStopPolicy.intelligentNClose(3, 5, 1.0), filling, filling)).isEqualTo(8);
  }

  @Test
  void rttStopUsesTheSecondPercentileOfTheWindow() {
    double[] rtt = new double[300];
    for (int i = 0; i < rtt.length; i++) {
      rtt[i] = 20 + i; // grows by 1 ms per probe
    }
    // window 100, 2nd percentile = 2nd smallest; exceeds 80 once the window starts above 79: probe 159 + ...
    int n = run(AutoStopPolicy.rttStop(80, 100), rtt, rtt);
    assertThat(n).isEqualTo(160); // window = probes 61..160 (rtt 80..179): 2nd smallest 81 > 80
    double[] timeouts = new double[150];
    java.util.Arrays.fill(timeouts, Double.NaN);
    assertThat(run(AutoStopPolicy.rttStop(80, 100), timeouts, timeouts)).isEqualTo(100);
  }

  @Test
  void rttLimitStopsBeforeTheFirstServerPredictedBeyondLimitPlusDelta() {
    double[] pred = {10, 50, 90, 119, 121, 130};
    double[] rtt = {12, 55, 80, 140, 100, 100};
    assertThat(run(AutoStopPolicy.rttLimit(100, 20), pred, rtt)).isEqualTo(4);
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> AutoStopPolicy.firstNClose(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AutoStopPolicy.intelligentNClose(10, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AutoStopPolicy.intelligentNClose(10, 20, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AutoStopPolicy.intelligentNClose(10, 20, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AutoStopPolicy.rttStop(Double.NaN, 100)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> AutoStopPolicy.rttLimit(100, -1)).isInstanceOf(IllegalArgumentException.class);
  }
}
