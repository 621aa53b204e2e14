package dev.reed.coordinates.reports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.Place;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReportScreenTest {
  /** A client 10-60 ms from five landmarks; ten servers each 40 ms farther from every landmark than it. */
  private static final Map<String, Double> CLIENT = Map.of("a", 10.0, "b", 20.0, "c", 30.0, "d", 50.0, "e", 60.0);

  private final ReportScreen screen = new ReportScreen(ReportConfig.defaults());
  private final Map<String, ReportedServer> servers = new HashMap<>();

  ReportScreenTest() {
    for (int i = 0; i < 10; i++) {
      Map<String, Double> lm = new HashMap<>();
      CLIENT.forEach((l, ms) -> lm.put(l, ms + 40));
      servers.put("s" + i, new ReportedServer(Coordinate.of(40 + i, 0), lm, null));
    }
  }

  private static ClientReport report(Map<String, Double> rtt, Place at) {
    return new ClientReport(Coordinate.of(0, 0), at, CLIENT, rtt, Set.of(), List.of("g"), 0);
  }

  private static Map<String, Double> every(double ms) {
    Map<String, Double> out = new HashMap<>();
    for (int i = 0; i < 10; i++) {
      out.put("s" + i, ms);
    }
    return out;
  }

  @Test
  void anHonestReportIsKeptWhole() {
    ReportScreen.Screened s = screen.screen(report(every(42), null), servers::get);
    assertThat(s.kept()).hasSize(10);
    assertThat(s.dropped()).isEmpty();
    assertThat(s.kept().get("s3").rttMs()).isEqualTo(42.0);
  }

  @Test
  void fiveMsToEveryServerIsBelowTheTriangleBoundAndDroppedWhole() {
    ReportScreen.Screened s = screen.screen(report(every(5), null), servers::get);
    assertThat(s.kept()).isEmpty();
    assertThat(s.belowBound()).isEqualTo(10);
    assertThat(s.dropped()).containsEntry(ReportScreen.Reason.REPORT_REJECTED, 10);
  }

  @Test
  void rttsFarAboveTheUpperBoundCountAgainstTheReport() {
    // upper bound min(a_l + b_l) = 10 + 50 = 60 ms; 3 x 60 + 5 = 185 ms is the most believed
    ReportScreen.Screened s = screen.screen(report(every(400), null), servers::get);
    assertThat(s.aboveBound()).isEqualTo(10);
    assertThat(s.kept()).isEmpty();
  }

  @Test
  void aFewImpossibleRttsInAnOtherwiseHonestReportAreKept() {
    Map<String, Double> rtt = every(42);
    rtt.put("s0", 0.2); // a server at the client's site whose landmark paths differ: what the landmarks cannot see
    rtt.put("s1", 0.3);
    ReportScreen.Screened s = screen.screen(report(rtt, null), servers::get);
    assertThat(s.belowBound()).isEqualTo(2);
    assertThat(s.kept()).hasSize(10).containsKey("s0");
  }

  @Test
  void unknownServersAreDroppedAndCounted() {
    Map<String, Double> rtt = every(42);
    rtt.put("nobody", 10.0);
    ReportScreen.Screened s = screen.screen(report(rtt, null), servers::get);
    assertThat(s.kept()).hasSize(10).doesNotContainKey("nobody");
    assertThat(s.dropped()).containsEntry(ReportScreen.Reason.UNKNOWN_SERVER, 1);
    assertThat(s.droppedCount()).isEqualTo(1);
  }

  @Test
  void theSpeedOfLightBoundsLocatedPairs() {
    Place frankfurt = new Place(50.11, 8.68, null);
    Place sydney = new Place(-33.87, 151.21, null);
    servers.replaceAll((k, v) -> new ReportedServer(v.coordinate(), v.landmarkRttMs(), sydney));
    assertThat(screen.screen(report(every(42), frankfurt), servers::get).kept()).isEmpty();
    assertThat(screen.screen(report(every(42), null), servers::get).kept()).hasSize(10);
  }

  @Test
  void fiveMsToEveryServerWithoutLandmarkRttsIsRefused() {
    // no landmark RTTs and no location: no bounds at all; the coordinator's predictions (40-49 ms) refuse it
    ClientReport bare = new ClientReport(Coordinate.of(0, 0), null, Map.of(), every(5), Set.of(), List.of("g"), 0);
    ReportScreen.Screened s = screen.screen(bare, servers::get);
    assertThat(s.kept()).isEmpty();
    assertThat(s.dropped()).containsEntry(ReportScreen.Reason.NO_LANDMARKS, 10);
  }

  @Test
  void aReportWithoutLandmarkRttsIsKeptWhenItsServersLocateIt() {
    ClientReport bare = new ClientReport(Coordinate.of(0, 0), null, Map.of("a", 10.0), every(42), Set.of(), List.of("g"), 0);
    assertThat(screen.screen(bare, servers::get).kept()).hasSize(10);
    // too few servers to locate it by
    Map<String, Double> two = Map.of("s0", 42.0, "s1", 43.0);
    ClientReport small = new ClientReport(Coordinate.of(0, 0), null, Map.of(), two, Set.of(), List.of("g"), 0);
    assertThat(screen.screen(small, servers::get).dropped()).containsEntry(ReportScreen.Reason.NO_LANDMARKS, 2);
  }

  @Test
  void rttsWithinTheBoundsThatDisagreeWithThePredictionsCountAgainstTheReport() {
    // 120 ms is within the landmarks' bounds (27-185 ms) but far from the predicted 40-49 ms
    ReportScreen.Screened s = screen.screen(report(every(120), null), servers::get);
    assertThat(s.disagreeing()).isEqualTo(10);
    assertThat(s.dropped()).containsEntry(ReportScreen.Reason.CONTRADICTS_PREDICTIONS, 10);
    // a few of them in an honest report are kept: the corrections are what reports are for
    Map<String, Double> rtt = every(42);
    rtt.put("s0", 120.0);
    rtt.put("s1", 120.0);
    assertThat(screen.screen(report(rtt, null), servers::get).kept()).hasSize(10);
    // a wider served uncertainty believes them
    assertThat(screen.screen(report(every(120), null), servers::get, 1.0).kept()).hasSize(10);
  }
}
