package dev.reed.coordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostPositionerTest {

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4, 5, 8, 10})
  void findsTheTruePosition(int d) {
    List<Coordinate> anchors = Synthetic.points(15, d, 300, false, d);
    Coordinate truth = Synthetic.points(1, d, 200, false, 100 + d).get(0);
    double[] rtt = anchors.stream().mapToDouble(truth::distanceTo).toArray();
    PositionFit f = new HostPositioner(new CoordinateConfig(d, false)).position(anchors, rtt, null);
    assertThat(f.coordinate().distanceTo(truth)).isLessThan(0.5);
    assertThat(f.relativeError()).isLessThan(0.001);
    assertThat(f.anchorsUsed()).isEqualTo(15);
  }

  @Test
  void fitsHeight() {
    List<Coordinate> anchors = Synthetic.points(15, 2, 300, true, 4);
    Coordinate truth = new Coordinate(new double[] {20, -30}, 12);
    double[] rtt = anchors.stream().mapToDouble(truth::distanceTo).toArray();
    PositionFit f = new HostPositioner(new CoordinateConfig(2, true)).position(anchors, rtt, null);
    assertThat(f.coordinate().height()).isCloseTo(12, org.assertj.core.data.Offset.offset(0.5));
    assertThat(f.relativeError()).isLessThan(0.002);
  }

  @Test
  void oneOutlierRttDoesNotDragTheHost() {
    List<Coordinate> anchors = Synthetic.points(15, 4, 300, false, 8);
    Coordinate truth = Coordinate.of(10, 20, -15, 5);
    double[] rtt = anchors.stream().mapToDouble(truth::distanceTo).toArray();
    rtt[3] = rtt[3] * 6 + 400; // a congested path
    CoordinateConfig robust = new CoordinateConfig(4, false).withRobustThreshold(0.1);
    CoordinateConfig plain = new CoordinateConfig(4, false).withRobustThreshold(0);
    double robustErr = new HostPositioner(robust).position(anchors, rtt, null).coordinate().distanceTo(truth);
    double plainErr = new HostPositioner(plain).position(anchors, rtt, null).coordinate().distanceTo(truth);
    assertThat(robustErr).isLessThan(5.0);
    assertThat(robustErr).isLessThan(plainErr);
  }

  @Test
  void missingRttsAreSkippedAndWarmStartIsUsed() {
    List<Coordinate> anchors = Synthetic.points(10, 3, 300, false, 9);
    Coordinate truth = Coordinate.of(1, 2, 3);
    double[] rtt = anchors.stream().mapToDouble(truth::distanceTo).toArray();
    rtt[0] = Double.NaN;
    rtt[5] = Double.NaN;
    PositionFit f = new HostPositioner(new CoordinateConfig(3, false)).position(anchors, rtt, Coordinate.of(0, 0, 0));
    assertThat(f.anchorsUsed()).isEqualTo(8);
    assertThat(f.coordinate().distanceTo(truth)).isLessThan(0.5);
  }

  @Test
  void neverReturnsNonFiniteOnDegenerateInput() {
    // all anchors at one point, zero RTTs, huge RTTs: still a finite answer
    List<Coordinate> same = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      same.add(Coordinate.of(5, 5, 5, 5));
    }
    HostPositioner p = new HostPositioner(new CoordinateConfig(4, true));
    for (double[] rtt : List.of(new double[] {0, 0, 0, 0, 0, 0}, new double[] {1e6, 1, 1e6, 1, 0, 3})) {
      PositionFit f = p.position(same, rtt, null);
      for (double c : f.coordinate().components()) {
        assertThat(Double.isFinite(c)).isTrue();
      }
      assertThat(Double.isFinite(f.relativeError())).isTrue();
    }
    SplittableRandom r = new SplittableRandom(3);
    List<Coordinate> anchors = Synthetic.points(15, 4, 300, false, 10);
    for (int t = 0; t < 200; t++) {
      double[] rtt = new double[15];
      for (int i = 0; i < 15; i++) {
        rtt[i] = r.nextDouble() < 0.2 ? Double.NaN : r.nextDouble() * 1000;
      }
      try {
        PositionFit f = p.position(anchors, rtt, null);
        assertThat(Double.isFinite(f.coordinate().height())).isTrue();
      } catch (IllegalArgumentException tooFew) {
        assertThat(tooFew).hasMessageContaining("at least 5 anchors");
      }
    }
  }

  @Test
  void rejectsBadInput() {
    List<Coordinate> anchors = Synthetic.points(6, 4, 300, false, 11);
    HostPositioner p = new HostPositioner(new CoordinateConfig(4, false));
    assertThatThrownBy(() -> p.position(anchors, new double[] {1, 2, 3, 4, Double.NaN, Double.NaN}, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 5 anchors");
    assertThatThrownBy(() -> p.position(anchors, new double[] {1, 2, 3, 4, 5, Double.POSITIVE_INFINITY}, null))
        .hasMessageContaining("anchor 5");
    assertThatThrownBy(() -> p.position(anchors, new double[] {1, 2, 3, 4, 5, -1}, null)).hasMessageContaining("anchor 5");
    assertThatThrownBy(() -> p.position(anchors, new double[] {1, 2, 3}, null)).hasMessageContaining("one RTT per anchor");
    assertThatThrownBy(() -> p.position(anchors, new double[] {1, 2, 3, 4, 5, 6}, Coordinate.of(1, 2)))
        .hasMessageContaining("dimension mismatch");
    List<Coordinate> mixed = new ArrayList<>(anchors);
    mixed.set(2, Coordinate.of(1, 2, 3));
    assertThatThrownBy(() -> p.position(mixed, new double[] {1, 2, 3, 4, 5, 6}, null)).hasMessageContaining("anchor 2");
  }
}
