package dev.reed.coordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CoordinateTest {

  @Test
  void distanceIsEuclideanPlusBothHeights() {
    Coordinate a = new Coordinate(new double[] {0, 0}, 2);
    Coordinate b = new Coordinate(new double[] {3, 4}, 1);
    assertThat(a.distanceTo(b)).isEqualTo(8.0);
    assertThat(a.euclideanTo(b)).isEqualTo(5.0);
    assertThat(Coordinate.of(1, 2, 3).dimensions()).isEqualTo(3);
  }

  @Test
  void rejectsNonFiniteAndNegativeHeight() {
    assertThatThrownBy(() -> Coordinate.of(1, Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("component 1");
    assertThatThrownBy(() -> Coordinate.of(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Coordinate(new double[] {1}, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("height");
    assertThatThrownBy(() -> new Coordinate(new double[] {1}, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Coordinate(null, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Coordinate(new double[0], 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsDimensionMismatch() {
    assertThatThrownBy(() -> Coordinate.of(1, 2).distanceTo(Coordinate.of(1, 2, 3)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension mismatch");
  }

  @Test
  void isImmutable() {
    double[] in = {1, 2};
    Coordinate c = Coordinate.of(in);
    in[0] = 99;
    c.components()[1] = 99;
    assertThat(c.components()).containsExactly(1, 2);
    assertThat(c).isEqualTo(Coordinate.of(1, 2)).hasSameHashCodeAs(Coordinate.of(1, 2));
  }

  @Test
  void configValidatesAndDefaultsAreConsistent() {
    CoordinateConfig d = CoordinateConfig.defaults();
    assertThat(d.calibrationCount()).isGreaterThanOrEqualTo(d.dimensions() + 1);
    assertThat(new CoordinateConfig(10, false).calibrationCount()).isEqualTo(14);
    assertThatThrownBy(() -> new CoordinateConfig(0, false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> d.withCalibrationCount(d.dimensions())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> d.withRobustThreshold(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
