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
  static final Coordinate CLIENT = new Coordinate(new double[] {0, 0}, 0);
  static final Coordinate SERVER = new Coordinate(new double[] {100, 0}, 0);
  static final Map<String, Double> LANDMARKS = Map.of("a", 10.0, "b", 20.0, "c", 30.0);
  /** The median and its defences without the shift bound (tested on its own below). */
  final ReportConfig config = ReportConfig.defaults().with(Map.of("correctionBaseMs", "1000"));

  ReportScreen.Screened report(double rttMs, String group, long at) {
    return report(CLIENT, rttMs, List.of(group), at);
  }

  static ReportScreen.Screened report(Coordinate reporter, double rttMs, List<String> groups, long at) {
    ClientReport r = new ClientReport(reporter, null, LANDMARKS, Map.of("s", rttMs), Set.of(), groups, at);
    return new ReportScreen.Screened(r, Map.of("s", new ReportScreen.Kept(new ReportedServer(SERVER, Map.of(), null), rttMs)),
        Map.of(), 0, 0, 0);
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

  @Test
  void aServerThatMovedIsLearnedAgain() {
    NeighbourhoodCorrections c = new NeighbourhoodCorrections(config);
    c.add(report(200, "p:1", 0));
    assertThat(c.factor(CLIENT, LANDMARKS, "s", new Coordinate(new double[] {100, 30}, 0), 1000)).isEqualTo(1.0);
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
    assertThatThrownBy(() -> config.with(Map.of("nope", "1"))).hasMessageContaining("unknown key nope; allowed: kernelMs");
    assertThatThrownBy(() -> config.with(Map.of("kernelMs", "x"))).hasMessageContaining("kernelMs must be a number");
    assertThatThrownBy(() -> config.with(Map.of("maxFactor", "0.5"))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCorrectionMovesAPredictionOnlyAsFarAsItsAgreeingNetworksAllow() {
    NeighbourhoodCorrections c = new NeighbourhoodCorrections(ReportConfig.defaults());
    // the prediction is 100 ms; one network saying 60 moves it by 5 ms + 10 % = 15 ms, not 40
    c.add(report(CLIENT, 60, List.of("p:1", "a:1"), 0));
    assertThat(factor(c)).isCloseTo(0.85, within(1e-9));
    // more prefixes of the same AS are the same network: still 15 ms
    for (int i = 2; i <= 5; i++) c.add(report(CLIENT, 60, List.of("p:" + i, "a:1"), 0));
    assertThat(factor(c)).isCloseTo(0.85, within(1e-9));
    // a second and third independent network: 5 ms + 30 % = 35 ms
    c.add(report(CLIENT, 60, List.of("p:6", "a:2"), 0));
    c.add(report(CLIENT, 60, List.of("p:7", "a:3"), 0));
    assertThat(factor(c)).isCloseTo(0.65, within(1e-9));
  }

  @Test
  void aServerReportedCloserByNetworksFarApartIsFlaggedAndNotPromoted() {
    NeighbourhoodCorrections c = new NeighbourhoodCorrections(ReportConfig.defaults().with(Map.of("promotedNetworks", "3")));
    // three networks at one site seeing the server closer than predicted: local knowledge, not flagged
    for (int i = 0; i < 3; i++) c.add(report(CLIENT, 40, List.of("p:" + i, "a:" + i), 0));
    assertThat(c.promotedServers()).isZero();
    assertThat(factor(c)).isLessThan(1.0);
    // a report just within what one network may move (5 ms + 10 %) from elsewhere does not count
    c.add(report(new Coordinate(new double[] {0, -50}, 0), 100, List.of("p:8", "a:8"), 0));
    assertThat(c.promotedServers()).isZero();
    // the same from a second place 50 ms away: flagged (three networks, two places), and the client near
    // one of them is not served the promotion
    c.add(report(new Coordinate(new double[] {0, 50}, 0), 40, List.of("p:9", "a:1"), 0));
    assertThat(c.promotedServers()).isEqualTo(1);
    assertThat(c.promoted("s")).isTrue();
    assertThat(factor(c)).isEqualTo(1.0);
    // once the observations age out, the flag clears
    c.forget(ReportConfig.defaults().maxAgeMillis() + 1);
    assertThat(c.promotedServers()).isZero();
  }

  @Test
  void twoHundredPlacesOfOneNetworkCountAsOneReporter() {
    // the AS lies (80 ms) or only repeats the coordinator's prediction (100 ms: the filler around a lie)
    for (double said : new double[] {80, 100}) {
      for (String perServer : List.of("1", "0")) {
        NeighbourhoodCorrections c = new NeighbourhoodCorrections(config.with(Map.of("networkPerServer", perServer)));
        // a real reporter at the client's site: the server is 150 ms away where the coordinates say 100
        c.add(report(CLIENT, 150, List.of("p:honest", "a:honest"), 0));
        // one AS at 200 places (a /24 each), the client's the last
        for (int i = 0; i < 200; i++) {
          Coordinate place = i == 199 ? CLIENT : new Coordinate(new double[] {0, 10 + i}, 0);
          Map<String, Double> landmarks = i == 199 ? LANDMARKS : Map.of("a", 40.0 + i, "b", 50.0 + i, "c", 60.0 + i);
          ClientReport r = new ClientReport(place, null, landmarks, Map.of("s", said), Set.of(),
              List.of("p:attack-" + i, "a:attack"), 1 + i);
          c.add(new ReportScreen.Screened(r, Map.of("s", new ReportScreen.Kept(new ReportedServer(SERVER, Map.of(), null), said)),
              Map.of(), 0, 0, 0));
        }
        if (perServer.equals("1")) {
          // the AS's weight near the client is its share of its observations of the server: the real reporter wins
          assertThat(factor(c)).as("AS saying %s ms", said).isCloseTo(1.5, within(1e-9));
        } else {
          // one vote per neighbourhood: the AS is a second opinion beside the real reporter, and with the
          // prior's "no correction" the median lands on the prior
          assertThat(factor(c)).as("AS saying %s ms", said).isEqualTo(1.0);
        }
      }
    }
  }

  @Test
  void theCorrectionBoundIsValidated() {
    CorrectionBound b = new CorrectionBound(5, 0.1);
    assertThat(b.maxShiftMs(100, 0)).isEqualTo(5.0);
    assertThat(b.maxShiftMs(100, 2)).isCloseTo(25.0, within(1e-9));
    assertThat(b.limit(0.01, 2, 1)).isCloseTo(0.05, within(1e-9)); // 2 ms -> 0.1 ms floor
    assertThat(b.limit(3, 100, 0)).isCloseTo(1.05, within(1e-9));
    assertThatThrownBy(() -> new CorrectionBound(-1, 0.1)).isInstanceOf(IllegalArgumentException.class);
  }
}
