package dev.reed.coordinates.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.reed.coordinates.Coordinate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NeighbourhoodCorrectionsTest {
  private static final Coordinate SERVER = Coordinate.of(10, 0);
  private static final ReportedServer KNOWN = new ReportedServer(SERVER, Map.of(), null);
  /** A site's RTTs to the landmarks; hosts at the site differ by a fraction of a ms. */
  private static final Map<String, Double> SITE = Map.of("a", 12.0, "b", 30.0, "c", 55.0, "d", 80.0);
  private static final Map<String, Double> ELSEWHERE = Map.of("a", 25.0, "b", 14.0, "c", 70.0, "d", 62.0);
  private static final long HOUR = 3_600_000L;

  private final ReportConfig config = ReportConfig.defaults();
  private final NeighbourhoodCorrections corrections = new NeighbourhoodCorrections(config);

  private void report(Map<String, Double> landmarks, double rttMs, String group, long at) {
    ClientReport r = new ClientReport(Coordinate.of(0, 0), null, landmarks, Map.of("s", rttMs), Set.of(), List.of(group), at);
    corrections.add(new ReportScreen.Screened(r, Map.of("s", new ReportScreen.Kept(KNOWN, rttMs)), Map.of(), 0, 0));
  }

  private double factorAtSite(long now) {
    return corrections.factor(Coordinate.of(0, 0), SITE, "s", SERVER, now);
  }

  @Test
  void aClientAtAReportersSiteInheritsWhatItMeasured() {
    // the coordinates say 10 ms; a reporter at the site measured 2 ms
    report(SITE, 2.0, "g1", 0);
    assertThat(factorAtSite(0) * 10).isCloseTo(2.0, within(1e-9));
    // a client elsewhere keeps its prediction
    assertThat(corrections.factor(Coordinate.of(0, 0), ELSEWHERE, "s", SERVER, 0)).isEqualTo(1.0);
    // and so does any client about a server nobody reported
    assertThat(corrections.factor(Coordinate.of(0, 0), SITE, "other", SERVER, 0)).isEqualTo(1.0);
  }

  @Test
  void aFloodFromOneSourceIsOutvotedByFewHonestReporters() {
    report(SITE, 8.0, "honest1", 0);
    report(SITE, 8.2, "honest2", 0);
    report(SITE, 7.9, "honest3", 0);
    for (int i = 0; i < 100; i++) {
      report(SITE, 0.5, "liar", 0); // same prefix, a hundred times
    }
    assertThat(factorAtSite(0) * 10).isBetween(7.9, 8.2);
  }

  @Test
  void noCorrectionExceedsTheBound() {
    for (int i = 0; i < 5; i++) {
      report(SITE, 0.001, "g" + i, 0);
    }
    assertThat(factorAtSite(0)).isEqualTo(1 / config.maxFactor(), within(1e-12));
  }

  @Test
  void reportsAgeOut() {
    report(SITE, 2.0, "g1", 0);
    long later = config.maxAgeMillis() + HOUR;
    assertThat(factorAtSite(later)).isEqualTo(1.0);
    assertThat(corrections.forget(later)).isEqualTo(1);
    assertThat(corrections.observations()).isZero();
    assertThat(corrections.servers()).isZero();
  }

  @Test
  void aServerThatMovedIsLearnedAgain() {
    report(SITE, 2.0, "g1", 0);
    Coordinate moved = Coordinate.of(10, 30);
    assertThat(corrections.factor(Coordinate.of(0, 0), SITE, "s", moved, 0)).isEqualTo(1.0);
  }

  @Test
  void aServerKeepsItsNewestObservations() {
    for (int i = 0; i < config.perServer() + 10; i++) {
      report(SITE, 2.0, "g" + i, 0);
    }
    assertThat(corrections.observations()).isEqualTo(config.perServer());
  }

  @Test
  void theWeightedMedianIgnoresAMinorityOfOutliers() {
    double[] v = {1, 2, 3, 100, -100};
    double[] w = {1, 1, 1, 0.5, 0.5};
    assertThat(NeighbourhoodCorrections.weightedMedian(v, w, 5)).isEqualTo(2.0);
  }

  @Test
  void settingsAreValidatedAndChangedByName() {
    assertThat(config.with(Map.of("kernelMs", "3")).kernelMs()).isEqualTo(3.0);
    assertThatThrownBy(() -> config.with(Map.of("nope", "1"))).hasMessageContaining("unknown report setting nope");
    assertThatThrownBy(() -> config.with(Map.of("kernelMs", "x"))).hasMessageContaining("not a number");
    assertThatThrownBy(() -> config.with(Map.of("maxFactor", "0.5"))).isInstanceOf(IllegalArgumentException.class);
  }
}
