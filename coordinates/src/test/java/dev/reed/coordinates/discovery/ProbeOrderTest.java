package dev.reed.coordinates.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.geo.FusionWeights;
import dev.reed.coordinates.geo.Place;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ProbeOrderTest {
  private static final DiscoveryModel MODEL = DiscoveryModel.defaults();

  /** A calibration against landmark beacons "l0", "l1", ... at these coordinates. */
  private static Calibration calibration(List<Coordinate> at, double[] rttMs) {
    List<CalibrationPoint> points = new ArrayList<>();
    Map<String, Double> rtt = new HashMap<>();
    for (int k = 0; k < at.size(); k++) {
      points.add(new CalibrationPoint("l" + k, at.get(k), "l" + k));
      if (!Double.isNaN(rttMs[k])) {
        rtt.put("l" + k, rttMs[k]);
      }
    }
    return new Calibration(points, rtt, null, Double.NaN, 0);
  }

  private static ProbeOrder order(DiscoveryModel model, CoordinateConfig cfg, Calibration cal, Coordinate start,
      List<RankedCandidate> servers) {
    ProbeOrder o = new DiscoveryPolicy(model, cfg).order(cal, start, 1000);
    PageRequest first = o.pageRequest();
    assertThat(first.cursor()).isEmpty();
    o.pageArrived(first, servers, "");
    return o;
  }

  private static List<RankedCandidate> servers(List<Coordinate> at) {
    List<RankedCandidate> out = new ArrayList<>();
    for (int j = 0; j < at.size(); j++) {
      out.add(new RankedCandidate("s" + j, at.get(j), Double.NaN, Map.of()));
    }
    return out;
  }

  /**
   * Servers whose coordinates carry a few ms of error, and a client whose calibration RTTs are noisy:
   * learning from the measured RTTs finds the true 10 nearest sooner than the static order.
   */
  @Test
  void learnsFromMeasuredRttsAndBeatsTheStaticOrder() {
    SplittableRandom r = new SplittableRandom(8);
    CoordinateConfig cfg = new CoordinateConfig(3, false);
    int staticSeen = 0;
    int adaptiveSeen = 0;
    for (int trial = 0; trial < 20; trial++) {
      List<Coordinate> truth = new ArrayList<>();
      List<Coordinate> believed = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        double[] t = {(r.nextDouble() - .5) * 300, (r.nextDouble() - .5) * 300, (r.nextDouble() - .5) * 60};
        truth.add(Coordinate.of(t));
        believed.add(Coordinate.of(t[0] + r.nextGaussian() * 6, t[1] + r.nextGaussian() * 6, t[2] + r.nextGaussian() * 6));
      }
      Coordinate client = Coordinate.of((r.nextDouble() - .5) * 200, (r.nextDouble() - .5) * 200, 0);
      List<Coordinate> calib = new ArrayList<>();
      double[] calRtt = new double[8];
      for (int k = 0; k < 8; k++) {
        Coordinate c = Coordinate.of((r.nextDouble() - .5) * 300, (r.nextDouble() - .5) * 300, (r.nextDouble() - .5) * 60);
        calib.add(c);
        calRtt[k] = client.distanceTo(c) * (1 + 0.08 * r.nextGaussian());
      }
      Calibration cal = calibration(calib, calRtt);
      Coordinate start = new dev.reed.coordinates.HostPositioner(cfg).position(calib, calRtt, null).coordinate();
      double[] actual = truth.stream().mapToDouble(client::distanceTo).toArray();
      double kth = Arrays.stream(actual).sorted().toArray()[9];
      staticSeen += probesUntilNearestSeen(order(MODEL.withLearning(false), cfg, cal, start, servers(believed)), actual, kth);
      adaptiveSeen += probesUntilNearestSeen(order(MODEL, cfg, cal, start, servers(believed)), actual, kth);
    }
    assertThat(adaptiveSeen).isLessThan(staticSeen);
  }

  private static int probesUntilNearestSeen(ProbeOrder o, double[] actual, double kth) {
    Set<String> handed = new HashSet<>();
    int seen = 0;
    for (int k = 1; ; k++) {
      ProbeOrder.Pick p = o.next();
      assertThat(p).isNotNull();
      assertThat(handed.add(p.candidate().key())).isTrue();
      assertThat(p.predictedMs()).isFinite().isNotNegative();
      int j = Integer.parseInt(p.candidate().key().substring(1));
      o.replied(p.candidate().key(), actual[j]);
      if (actual[j] <= kth && ++seen == 10) {
        return k;
      }
    }
  }

  @Test
  void handsOutEveryServerOnceAndValidates() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    Calibration cal = calibration(List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100),
        Coordinate.of(100, 100)), new double[] {50, 60, 70, Double.NaN});
    ProbeOrder o = order(MODEL, cfg, cal, Coordinate.of(40, 30),
        servers(List.of(Coordinate.of(10, 10), Coordinate.of(50, 50), Coordinate.of(90, 10))));
    Set<String> all = new HashSet<>();
    for (int k = 0; k < 3; k++) {
      ProbeOrder.Pick p = o.next();
      all.add(p.candidate().key());
      if (k == 1) {
        o.noReply(p.candidate().key());
      } else {
        o.replied(p.candidate().key(), 30);
      }
    }
    assertThat(all).containsExactlyInAnyOrder("s0", "s1", "s2");
    assertThat(o.next()).isNull();
    assertThat(o.exhausted()).isTrue();
    o.replied("unknown", 10); // not in the order: ignored
    assertThatThrownBy(() -> o.replied("s0", Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> o.replied("s0", Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DiscoveryPolicy(MODEL, cfg).order(cal, Coordinate.of(1, 2, 3), 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2-D start");
  }

  /** A demoted server (flagged by the coordinator's integrity check) is handed out after every other one, however near. */
  @Test
  void demotedServersComeLast() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    Calibration cal = calibration(List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100),
        Coordinate.of(100, 100)), new double[] {50, 60, 70, Double.NaN});
    List<RankedCandidate> list = new ArrayList<>(servers(List.of(Coordinate.of(45, 35), Coordinate.of(60, 60),
        Coordinate.of(90, 10))));
    list.add(new RankedCandidate("anycast", Coordinate.of(40, 30), Double.NaN, Map.of(), Double.NaN, null, 1.0, true));
    ProbeOrder o = order(MODEL, cfg, cal, Coordinate.of(40, 30), list);
    List<String> handed = new ArrayList<>();
    for (ProbeOrder.Pick p; (p = o.next()) != null; ) {
      handed.add(p.candidate().key());
      o.replied(p.candidate().key(), 30);
    }
    assertThat(handed).hasSize(4).endsWith("anycast").startsWith("s0");
    // not demoted, the same server is the nearest
    list.set(3, new RankedCandidate("anycast", Coordinate.of(40, 30), Double.NaN, Map.of()));
    assertThat(order(MODEL, cfg, cal, Coordinate.of(40, 30), list).next().candidate().key()).isEqualTo("anycast");
  }

  /**
   * A demoted server waits for the pages still to come too: while the next page is asked for or on
   * its way, the order hands out nothing rather than the demoted server (the SDK fetches pages
   * while it probes, and a late page once put the demoted server before it); once the list is
   * complete, or its fetch failed, the demoted server comes last.
   */
  @Test
  void aDemotedServerWaitsForThePagesStillToCome() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    Calibration cal = calibration(List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100),
        Coordinate.of(100, 100)), new double[] {50, 60, 70, Double.NaN});
    for (boolean fails : new boolean[] {false, true}) {
      ProbeOrder o = new DiscoveryPolicy(MODEL, cfg).order(cal, Coordinate.of(40, 30), 4);
      PageRequest first = o.pageRequest();
      List<RankedCandidate> page1 = new ArrayList<>(servers(List.of(Coordinate.of(45, 35), Coordinate.of(60, 60))));
      page1.add(new RankedCandidate("anycast", Coordinate.of(40, 30), Double.NaN, Map.of(), Double.NaN, null, 1.0, true));
      o.pageArrived(first, page1, "page-2");
      List<String> handed = new ArrayList<>();
      for (ProbeOrder.Pick p; (p = o.next()) != null; ) {
        handed.add(p.candidate().key());
        o.noReply(p.candidate().key()); // no answer: the client stays put and the page chain with it
      }
      assertThat(handed).containsExactly("s0", "s1");
      assertThat(o.exhausted()).isFalse();
      // only the demoted server is left of page 1: the next page is asked for
      PageRequest second = o.pageRequest();
      assertThat(second).isNotNull();
      assertThat(second.cursor()).isEqualTo("page-2");
      assertThat(o.next()).as("nothing while the page is on its way").isNull();
      if (fails) {
        o.pageFailed(second);
      } else {
        o.pageArrived(second, List.of(new RankedCandidate("far", Coordinate.of(90, 90), Double.NaN, Map.of())), "");
        handed.add(o.next().candidate().key());
      }
      handed.add(o.next().candidate().key());
      assertThat(o.next()).isNull();
      assertThat(o.exhausted()).isTrue();
      assertThat(handed).as(fails ? "the fetch failed" : "the list complete").endsWith("anycast")
          .hasSize(fails ? 3 : 4);
    }
  }

  /** A server measured without being handed out (a calibration server that is also listed) leaves the order. */
  @Test
  void aServerMeasuredOutOfOrderIsNotHandedOutAgain() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    Calibration cal = calibration(List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100)),
        new double[] {14, 86, 86});
    List<RankedCandidate> list = servers(List.of(Coordinate.of(10, 10), Coordinate.of(50, 50), Coordinate.of(90, 90)));
    ProbeOrder o = order(MODEL, cfg, cal, Coordinate.of(10, 10), list);
    ProbeOrder rejected = order(MODEL, cfg, cal, Coordinate.of(10, 10), list);
    assertThatThrownBy(() -> rejected.replied("s0", -1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(rejected.next().candidate().key()).as("a rejected RTT leaves the server in the order").isEqualTo("s0");
    o.replied("s0", 1);
    assertThat(o.next().candidate().key()).isEqualTo("s1");
    assertThat(o.next().candidate().key()).isEqualTo("s2");
    assertThat(o.next()).isNull();
  }

  /**
   * Server s0's coordinate is nearer, but its landmark RTTs differ from the client's at the landmark
   * next to the client (it is misplaced): with the near-landmark difference weighed in, s1 comes
   * first; the bounds cap every prediction.
   */
  @Test
  void landmarkComparisonsReorderAndBoundThePredictions() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    Calibration cal = calibration(List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100)),
        new double[] {5, 95, 95});
    Coordinate start = Coordinate.of(4, 4);
    List<RankedCandidate> list = List.of(
        new RankedCandidate("s0", Coordinate.of(8, 8), Double.NaN, Map.of("l0", 35.0, "l1", 95.0, "l2", 95.0)),
        new RankedCandidate("s1", Coordinate.of(12, 12), Double.NaN, Map.of("l0", 7.0, "l1", 95.0, "l2", 95.0)),
        new RankedCandidate("s2", Coordinate.of(60, 60), Double.NaN, Map.of("l0", 20.0, "l1", 20.0, "l2", 20.0)));
    DiscoveryModel plainModel = dev.reed.coordinates.ModelFile.with(DiscoveryModel.defaults(), Map.of("comparison", "false"));
    assertThat(order(plainModel, cfg, cal, start, list).next().candidate().key()).isEqualTo("s0");
    ProbeOrder compared = order(MODEL, cfg, cal, start, list);
    assertThat(compared.next().candidate().key()).isEqualTo("s1");
    assertThat(compared.next().candidate().key()).isEqualTo("s0");
    ProbeOrder.Pick far = compared.next();
    assertThat(far.candidate().key()).isEqualTo("s2");
    assertThat(far.predictedMs()).as("capped by 5 + 20 through l0").isLessThanOrEqualTo(25);
  }

  /** Pages: the next when a quarter of one is left, none while one is in flight, a new chain from a moved position. */
  @Test
  void asksForPagesAsTheyRunLowAndAgainFromAMovedPosition() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    Calibration cal = calibration(List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100)),
        new double[] {50, 70, 70});
    Coordinate start = new dev.reed.coordinates.HostPositioner(cfg)
        .position(List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100)), new double[] {50, 70, 70}, null)
        .coordinate();
    DiscoveryModel sensitive = dev.reed.coordinates.ModelFile.with(DiscoveryModel.defaults(), Map.of("refetchMovedMs", "0.5"));
    ProbeOrder o = new DiscoveryPolicy(sensitive, cfg).order(cal, start, 8);
    PageRequest first = o.pageRequest();
    assertThat(o.pageRequest()).as("one page at a time").isNull();
    List<RankedCandidate> page = new ArrayList<>();
    for (int j = 0; j < 8; j++) {
      page.add(new RankedCandidate("s" + j, Coordinate.of(30 + j, 30), Double.NaN, Map.of()));
    }
    o.pageArrived(first, page, "8");
    assertThat(o.pageRequest()).as("plenty left").isNull();
    for (int k = 0; k < 6; k++) {
      o.noReply(o.next().candidate().key());
    }
    PageRequest second = o.pageRequest();
    assertThat(second.cursor()).isEqualTo("8");
    assertThat(second.from()).isEqualTo(first.from());
    o.pageFailed(new PageRequest(start, "8", second.generation() + 5)); // not this chain's: ignored
    assertThat(o.pageRequest()).isNull();
    o.pageArrived(second, List.of(new RankedCandidate("s8", Coordinate.of(20, 20), Double.NaN, Map.of())), "");
    // a reply 30 ms beyond the prediction moves the client beyond refetchMovedMs (0.5 ms here)
    ProbeOrder.Pick p = o.next();
    o.replied(p.candidate().key(), p.predictedMs() + 30);
    PageRequest again = o.pageRequest();
    assertThat(again).isNotNull();
    assertThat(again.cursor()).isEmpty();
    assertThat(again.generation()).isGreaterThan(second.generation());
    assertThat(again.from()).isEqualTo(o.position()).isNotEqualTo(start);
    o.pageFailed(again);
    assertThat(o.exhausted()).isFalse();
    int left = o.waiting();
    for (int k = 0; k < left; k++) {
      assertThat(o.exhausted()).isFalse();
      assertThat(o.next()).isNotNull();
    }
    assertThat(o.exhausted()).isTrue();
    assertThat(o.next()).isNull();
  }

  /** A game server the client calibrated against comes in its turn, marked measured, and its RTT is what was measured. */
  @Test
  void aCalibrationGameServerIsHandedOutMeasured() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    List<CalibrationPoint> points = List.of(new CalibrationPoint("l0", Coordinate.of(0, 0), "l0"),
        new CalibrationPoint("l1", Coordinate.of(100, 0), "l1"), new CalibrationPoint("g", Coordinate.of(0, 100), ""));
    Calibration cal = new Calibration(points, Map.of("l0", 50.0, "l1", 70.0, "g", 70.0), null, Double.NaN, 3);
    ProbeOrder o = order(MODEL, cfg, cal, Coordinate.of(40, 30), List.of(
        new RankedCandidate("s", Coordinate.of(40, 30), Double.NaN, Map.of()),
        new RankedCandidate("g", Coordinate.of(0, 100), Double.NaN, Map.of())));
    assertThat(o.next()).satisfies(p -> {
      assertThat(p.candidate().key()).isEqualTo("s");
      assertThat(p.measured()).isFalse();
    });
    assertThat(o.next()).satisfies(p -> {
      assertThat(p.candidate().key()).isEqualTo("g");
      assertThat(p.measured()).isTrue();
    });
  }

  /**
   * Two servers the coordinates cannot tell apart (same coordinate), one 5 ms away on the map and
   * one 60 ms: with a location fix that agrees with the calibration the order follows the
   * geographic prediction, shifted by the client's own excess; a fix the calibration contradicts is
   * distrusted, and the list is then asked for by coordinates alone.
   */
  @Test
  void fusesTheGeographicPredictionOnlyWhenTheCalibrationAgrees() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    List<Coordinate> beacons = List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100));
    Calibration cal = calibration(beacons, new double[] {50, 70, 70});
    Place here = new Place(48.1, 11.6, null);
    FusionWeights geoOnly = new FusionWeights(1, 0, 0);
    List<RankedCandidate> list = List.of(
        new RankedCandidate("far", Coordinate.of(40, 30), Double.NaN, Map.of(), 60, null),
        new RankedCandidate("near", Coordinate.of(40, 30), Double.NaN, Map.of(), 5, null));
    // the geographic predictions are 3 ms under every measured RTT: consistent, offset +3
    LocationFix agrees = new LocationFix(here, false, Map.of("l0", 47.0, "l1", 67.0, "l2", 67.0), geoOnly);
    ProbeOrder o = new DiscoveryPolicy(MODEL, cfg).order(cal.withLocation(agrees), Coordinate.of(40, 30), 1000);
    PageRequest first = o.pageRequest();
    assertThat(first.location()).isEqualTo(here);
    assertThat(first.locationDistrusted()).isFalse();
    o.pageArrived(first, list, "");
    assertThat(o.usesLocation()).isTrue();
    assertThat(o.locationMisfitMs()).isZero();
    ProbeOrder.Pick pick = o.next();
    assertThat(pick.candidate().key()).isEqualTo("near");
    assertThat(pick.predictedMs()).isCloseTo(8.0, org.assertj.core.data.Offset.offset(1e-9));

    // predictions 3-40 ms under the RTTs (median absolute deviation 17 ms): the place is wrong
    LocationFix wrong = new LocationFix(here, false, Map.of("l0", 10.0, "l1", 67.0, "l2", 50.0), geoOnly);
    ProbeOrder d = new DiscoveryPolicy(MODEL, cfg).order(cal.withLocation(wrong), Coordinate.of(40, 30), 1000);
    PageRequest asked = d.pageRequest();
    assertThat(asked.location()).isNull();
    assertThat(asked.locationDistrusted()).isTrue();
    d.pageArrived(asked, list, "");
    assertThat(d.usesLocation()).isFalse();
    assertThat(d.locationMisfitMs()).isGreaterThan(MODEL.geoMisfitMaxMs());
    assertThat(d.next().predictedMs()).isCloseTo(0.0, org.assertj.core.data.Offset.offset(1e-9)); // coordinates: both at the client

    // the model can switch location off altogether
    DiscoveryModel off = DiscoveryModel.of(props("geo", "false"));
    assertThat(new DiscoveryPolicy(off, cfg).order(cal.withLocation(agrees), Coordinate.of(40, 30), 1000).usesLocation())
        .isFalse();
  }

  private static java.util.Properties props(String k, String v) {
    java.util.Properties p = new java.util.Properties();
    p.setProperty(k, v);
    return p;
  }
}
