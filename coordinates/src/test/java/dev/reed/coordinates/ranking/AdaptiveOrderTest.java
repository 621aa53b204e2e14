package dev.reed.coordinates.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.LandmarkComparison;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AdaptiveOrderTest {

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
      double[] actual = truth.stream().mapToDouble(client::distanceTo).toArray();
      double kth = Arrays.stream(actual).sorted().toArray()[9];
      AdaptiveOrder adaptive = new AdaptiveOrder(cfg, AdaptiveOrder.Settings.defaults(), calib, calRtt, believed);
      AdaptiveOrder frozen = new AdaptiveOrder(cfg, new AdaptiveOrder.Settings(5, 0.3, 0, 10), calib, calRtt, believed);
      staticSeen += probesUntilNearestSeen(frozen, actual, kth);
      adaptiveSeen += probesUntilNearestSeen(adaptive, actual, kth);
    }
    assertThat(adaptiveSeen).isLessThan(staticSeen);
  }

  private static int probesUntilNearestSeen(AdaptiveOrder o, double[] actual, double kth) {
    Set<Integer> handed = new HashSet<>();
    int seen = 0;
    for (int k = 1; ; k++) {
      int j = o.next();
      assertThat(j).isNotNegative();
      assertThat(handed.add(j)).isTrue();
      assertThat(o.predictedMs(j)).isFinite().isNotNegative();
      o.measured(j, actual[j]);
      if (actual[j] <= kth && ++seen == 10) {
        return k;
      }
    }
  }

  @Test
  void handsOutEveryServerOnceAndValidates() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    List<Coordinate> calib = List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100), Coordinate.of(100, 100));
    double[] rtt = {50, 60, 70, Double.NaN};
    List<Coordinate> servers = List.of(Coordinate.of(10, 10), Coordinate.of(50, 50), Coordinate.of(90, 10));
    AdaptiveOrder o = new AdaptiveOrder(cfg, AdaptiveOrder.Settings.defaults(), calib, rtt, servers);
    Set<Integer> all = new HashSet<>();
    for (int k = 0; k < 3; k++) {
      int j = o.next();
      all.add(j);
      o.measured(j, k == 1 ? Double.NaN : 30);
    }
    assertThat(all).containsExactlyInAnyOrder(0, 1, 2);
    assertThat(o.next()).isEqualTo(-1);
    assertThatThrownBy(() -> o.measured(5, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> o.measured(0, Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new AdaptiveOrder(cfg, AdaptiveOrder.Settings.defaults(), calib, new double[] {1, 2, Double.NaN, Double.NaN}, servers))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 3");
    assertThatThrownBy(() -> new AdaptiveOrder(cfg, AdaptiveOrder.Settings.defaults(), calib, rtt, List.of(Coordinate.of(1, 2, 3))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new AdaptiveOrder.Settings(0, 0.3, 60, 10)).isInstanceOf(IllegalArgumentException.class);
  }

  /** A server measured without being handed out (a calibration server that is also listed) leaves the order. */
  @Test
  void aServerMeasuredOutOfOrderIsNotHandedOutAgain() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    List<Coordinate> calib = List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100));
    double[] rtt = {14, 86, 86}; // the client near (10, 10)
    List<Coordinate> servers = List.of(Coordinate.of(10, 10), Coordinate.of(50, 50), Coordinate.of(90, 90));
    AdaptiveOrder o = new AdaptiveOrder(cfg, AdaptiveOrder.Settings.defaults(), calib, rtt, servers);
    AdaptiveOrder rejected = new AdaptiveOrder(cfg, AdaptiveOrder.Settings.defaults(), calib, rtt, servers);
    assertThatThrownBy(() -> rejected.measured(0, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(rejected.next()).as("a rejected RTT leaves the server in the order").isEqualTo(0);
    o.measured(0, 1); // the nearest, probed during calibration
    assertThat(o.next()).isEqualTo(1);
    assertThat(o.next()).isEqualTo(2);
    assertThat(o.next()).isEqualTo(-1);
  }

  /**
   * Server 0's coordinate is nearer, but its landmark RTTs differ from the client's at the landmark
   * next to the client (it is misplaced): with the near-landmark difference weighed in, server 1
   * comes first; bounds cap every prediction.
   */
  @Test
  void landmarkComparisonsReorderAndBoundThePredictions() {
    CoordinateConfig cfg = new CoordinateConfig(2, false);
    List<Coordinate> calib = List.of(Coordinate.of(0, 0), Coordinate.of(100, 0), Coordinate.of(0, 100));
    double[] rtt = {5, 95, 95};
    List<Coordinate> servers = List.of(Coordinate.of(8, 8), Coordinate.of(12, 12), Coordinate.of(60, 60));
    LandmarkComparison[] compared = {
        new LandmarkComparison(0, 200, 30), new LandmarkComparison(0, 200, 2), new LandmarkComparison(0, 40, 0)};
    AdaptiveOrder plain = new AdaptiveOrder(cfg, AdaptiveOrder.Settings.defaults(), calib, rtt, servers);
    assertThat(plain.next()).isZero();
    AdaptiveOrder withComparison =
        new AdaptiveOrder(cfg, AdaptiveOrder.Settings.defaults(), calib, rtt, servers, compared);
    assertThat(withComparison.next()).isEqualTo(1);
    assertThat(plain.predictedMs(2)).isGreaterThan(40);
    assertThat(withComparison.predictedMs(2)).isLessThanOrEqualTo(40);
    AdaptiveOrder.Settings weightless = new AdaptiveOrder.Settings(5, 0.3, 60, 10, 50, 0);
    assertThat(new AdaptiveOrder(cfg, weightless, calib, rtt, servers, compared).next()).isZero();
    assertThatThrownBy(() -> new AdaptiveOrder(cfg, AdaptiveOrder.Settings.defaults(), calib, rtt, servers,
        new LandmarkComparison[2])).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index-aligned");
    assertThatThrownBy(() -> new AdaptiveOrder.Settings(5, 0.3, 60, 10, -1, 0.5))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new AdaptiveOrder.Settings(5, 0.3, 60, 10, 50, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
