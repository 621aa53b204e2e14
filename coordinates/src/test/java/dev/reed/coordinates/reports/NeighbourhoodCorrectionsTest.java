package dev.reed.coordinates.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.reed.coordinates.Coordinate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NeighbourhoodCorrectionsTest {
  static final Coordinate CLIENT = new Coordinate(new double[] {0, 0}, 0);
  static final Coordinate SERVER = new Coordinate(new double[] {100, 0}, 0);
  static final Map<String, Double> LANDMARKS = Map.of("a", 10.0, "b", 20.0, "c", 30.0);
  final ReportConfig config = ReportConfig.defaults();

  ReportScreen.Screened report(double rttMs, String group, long at) {
    ClientReport r = new ClientReport(CLIENT, null, LANDMARKS, Map.of("s", rttMs), Set.of(), List.of(group), at);
    return new ReportScreen.Screened(r, Map.of("s", new ReportScreen.Kept(new ReportedServer(SERVER, Map.of(), null), rttMs)),
        Map.of());
  }

  double factor(NeighbourhoodCorrections c) {
    return c.factor(CLIENT, LANDMARKS, "s", SERVER, 1000);
  }

  @Test
  void aReporterAtTheClientsSiteCarriesItsRatioOver() {
    NeighbourhoodCorrections c = new NeighbourhoodCorrections(config);
    assertThat(factor(c)).isEqualTo(1.0);
    c.add(report(200, "p:1", 0));
    assertThat(factor(c)).isCloseTo(2.0, within(1e-9));
    assertThat(c.factor(CLIENT, LANDMARKS, "other", SERVER, 1000)).isEqualTo(1.0);
  }

  @Test
  void aFloodFromOneSourceNeitherOutvotesNorEvictsHonestReporters() {
    NeighbourhoodCorrections c = new NeighbourhoodCorrections(config);
    for (int i = 0; i < 3; i++) c.add(report(150, "p:honest-" + i, 0));
    for (int i = 0; i < 5 * config.perServer(); i++) c.add(report(5, "p:liar", 1 + i));
    assertThat(c.observations()).isEqualTo(config.perServer());
    // 3 honest sources of weight 1 against the liar's capped 1 and the prior's 0.5: the median is honest
    assertThat(factor(c)).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void honestReportersAfterAFloodStillCount() {
    NeighbourhoodCorrections c = new NeighbourhoodCorrections(config);
    for (int i = 0; i < 5 * config.perServer(); i++) c.add(report(5, "p:liar", i));
    for (int i = 0; i < 3; i++) c.add(report(150, "p:honest-" + i, 1000));
    assertThat(factor(c)).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void aQueryAnswersAsTheOneShotFactor() {
    NeighbourhoodCorrections c = new NeighbourhoodCorrections(config);
    c.add(report(200, "p:1", 0));
    c.add(report(120, "p:2", 0));
    NeighbourhoodCorrections.Query q = c.query(CLIENT, LANDMARKS, 1000);
    assertThat(q.factor("s", SERVER)).isEqualTo(factor(c));
    assertThat(q.factor("none", SERVER)).isEqualTo(1.0);
    // a client whose landmark RTTs are far from the reporters' learns nothing
    assertThat(c.factor(CLIENT, Map.of("a", 60.0, "b", 70.0, "c", 80.0), "s", SERVER, 1000)).isEqualTo(1.0);
  }

  @Test
  void everyCorrectionIsBoundedAndAgesOut() {
    NeighbourhoodCorrections c = new NeighbourhoodCorrections(config);
    c.add(report(5, "p:1", 0));
    assertThat(factor(c)).isCloseTo(1 / config.maxFactor(), within(1e-9));
    assertThat(c.forget(config.maxAgeMillis() + 1)).isEqualTo(1);
    assertThat(factor(c)).isEqualTo(1.0);
  }
}
