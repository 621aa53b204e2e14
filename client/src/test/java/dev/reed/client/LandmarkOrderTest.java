package dev.reed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.LandmarkComparison;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ProbeStatus;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The probe order's landmark comparison: bounds, near-landmark difference, and the fall-backs to the coordinator's order. */
class LandmarkOrderTest {
  static final Map<String, Double> CLIENT = Map.of("a", 10.0, "b", 40.0, "c", 100.0);

  static Candidate server(int i, double predictedMs, Object... idMs) {
    List<LandmarkRtt> rtts = new ArrayList<>();
    for (int k = 0; k < idMs.length; k += 2) {
      rtts.add(LandmarkRtt.newBuilder().setLandmarkId((String) idMs[k]).setRttUs((int) Math.round((double) idMs[k + 1] * 1000)).build());
    }
    return new Candidate(new InetSocketAddress("127.0.3." + i, 27015), GameProtocol.GAME_PROTOCOL_A2S, predictedMs, rtts);
  }

  @Test
  void scoreIsTheRefinedPredictionPlusHalfTheNearLandmarkDifference() {
    LandmarkOrder order = new LandmarkOrder(CLIENT);
    Candidate s = server(1, 30, "a", 14.0, "b", 30.0, "c", 101.0);
    LandmarkComparison expected = LandmarkComparison.between(new double[] {10, 40, 100}, new double[] {14, 30, 101});
    assertThat(order.compare(s)).isEqualTo(expected);
    LandmarkOrder.Scored scored = order.score(s);
    double refined = expected.refine(30, 50);
    assertThat(refined).isEqualTo(24); // the upper bound 10 + 14
    assertThat(scored.candidate().predictedMs()).isEqualTo(refined);
    assertThat(scored.score()).isEqualTo(refined + 0.5 * expected.nearDifferenceMs());
    assertThat(scored.candidate().key()).isEqualTo(s.key());
  }

  @Test
  void theUpperBoundCapsAndTheLowerBoundRaisesOnlyBeyond50Ms() {
    LandmarkOrder order = new LandmarkOrder(CLIENT);
    // upper bound min(a + b) = 10 + 14 = 24 caps a prediction of 70
    LandmarkOrder.Scored capped = order.score(server(1, 70, "a", 14.0, "b", 30.0, "c", 101.0));
    assertThat(capped.candidate().predictedMs()).isEqualTo(24);
    // near difference: weights 1/min(a,b)^2: |10-14|/100, |40-30|/900, |100-101|/10000
    double w = 1 / 100.0 + 1 / 900.0 + 1 / 10000.0;
    double near = (4 / 100.0 + 10 / 900.0 + 1 / 10000.0) / w;
    assertThat(capped.score()).isCloseTo(24 + 0.5 * near, within(1e-9));
    // lower bound max |a - b| = 90 raises a prediction of 60 (beyond 50 ms) ...
    LandmarkOrder.Scored raised = order.score(server(2, 60, "a", 100.0, "b", 110.0, "c", 190.0));
    assertThat(raised.candidate().predictedMs()).isEqualTo(90);
    // ... but not one of 45 (near pairs: the lower bound is noise there)
    assertThat(order.score(server(3, 45, "a", 100.0, "b", 110.0, "c", 190.0)).candidate().predictedMs()).isEqualTo(45);
  }

  @Test
  void aServerTheCoordinatesPutTooFarOvertakesOneTheLandmarksSayIsFarther() {
    LandmarkOrder order = new LandmarkOrder(CLIENT);
    // predicted 38 ms, but its landmark RTTs are the client's: it is next door
    Candidate misplaced = server(1, 38, "a", 10.5, "b", 40.5, "c", 100.5);
    // predicted 30 ms, and its landmark RTTs say so
    Candidate honest = server(2, 30, "a", 35.0, "b", 20.0, "c", 120.0);
    List<LandmarkOrder.Scored> ranked = new ArrayList<>(List.of(order.score(honest), order.score(misplaced)));
    ranked.sort(Comparator.comparingDouble(LandmarkOrder.Scored::score));
    assertThat(ranked).extracting(sc -> sc.candidate().key()).containsExactly(misplaced.key(), honest.key());
    // without the comparison, the coordinator's order stands
    LandmarkOrder none = LandmarkOrder.NONE;
    assertThat(none.score(honest).score()).isLessThan(none.score(misplaced).score());
  }

  @Test
  void withoutBeaconRttsOrLandmarkRttsTheCoordinatorsPredictionIsTheScore() {
    Candidate s = server(1, 70, "a", 14.0, "b", 30.0);
    LandmarkOrder.Scored none = LandmarkOrder.NONE.score(s);
    assertThat(none.score()).isEqualTo(70);
    assertThat(none.candidate()).isEqualTo(s);
    LandmarkOrder order = new LandmarkOrder(CLIENT);
    Candidate bare = server(2, 70);
    assertThat(order.score(bare).score()).isEqualTo(70);
    assertThat(order.score(bare).candidate()).isEqualTo(bare);
    // landmarks the client did not measure, and RTTs outside 1-998999 us, are ignored
    Candidate foreign = server(3, 70, "x", 1.0, "a", 0.0, "b", 999.5);
    assertThat(order.score(foreign).score()).isEqualTo(70);
    assertThat(order.compare(foreign)).isEqualTo(LandmarkComparison.NONE);
  }

  @Test
  void theClientsLandmarkRttsComeFromAnsweredBeaconsOnlyLowestFirst() {
    List<CoordinatorClient.CalibrationTarget> targets = List.of(
        target(1, "a"), target(2, "b"), target(3, ""), target(4, "c"), target(5, "a"));
    Map<String, ProbeResult> measured = new LinkedHashMap<>();
    measured.put(targets.get(0).candidate().key(), ok(targets.get(0), 12.0));
    measured.put(targets.get(1).candidate().key(), ok(targets.get(1), 40.0));
    measured.put(targets.get(2).candidate().key(), ok(targets.get(2), 5.0)); // a game server: no landmark
    measured.put(targets.get(4).candidate().key(), ok(targets.get(4), 9.0)); // landmark a again, lower
    // c never answered
    LandmarkOrder order = LandmarkOrder.of(targets, measured);
    assertThat(order.clientLandmarkMs()).containsExactly(Map.entry("a", 9.0), Map.entry("b", 40.0));
    assertThat(order.landmarks()).isEqualTo(2);
    assertThat(new LandmarkOrder(Map.of("a", Double.NaN, "", 3.0, "b", -1.0)).landmarks()).isZero();
  }

  static CoordinatorClient.CalibrationTarget target(int i, String landmark) {
    return new CoordinatorClient.CalibrationTarget(new Candidate(new InetSocketAddress("127.0.4." + i, 27015),
        GameProtocol.GAME_PROTOCOL_A2S, Double.NaN), Coordinate.of(i, 0), landmark);
  }

  static ProbeResult ok(CoordinatorClient.CalibrationTarget t, double ms) {
    return new ProbeResult(new ProbeTarget(t.candidate().address(), t.candidate().protocol()), ProbeStatus.PROBE_STATUS_OK,
        (long) (ms * 1e6), 0, Instant.EPOCH, dev.reed.proto.v1.ServerInfo.getDefaultInstance(), null);
  }
}
