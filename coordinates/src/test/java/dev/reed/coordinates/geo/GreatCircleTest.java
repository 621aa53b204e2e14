package dev.reed.coordinates.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class GreatCircleTest {

  /** Reference distances: the haversine on a 6371 km sphere, as published great-circle calculators give them. */
  @Test
  void knownCityPairs() {
    // London - Paris ~344 km, New York - Los Angeles ~3,936 km, Sydney - Tokyo ~7,823 km
    assertThat(GreatCircle.km(51.5074, -0.1278, 48.8566, 2.3522)).isCloseTo(343.6, within(2.0));
    assertThat(GreatCircle.km(40.7128, -74.0060, 34.0522, -118.2437)).isCloseTo(3936, within(10.0));
    assertThat(GreatCircle.km(-33.8688, 151.2093, 35.6762, 139.6503)).isCloseTo(7823, within(20.0));
  }

  @Test
  void zeroSymmetricAndAntipodes() {
    assertThat(GreatCircle.km(10, 20, 10, 20)).isZero();
    assertThat(GreatCircle.km(10, 20, -30, 140)).isEqualTo(GreatCircle.km(-30, 140, 10, 20));
    assertThat(GreatCircle.km(0, 0, 0, 180)).isCloseTo(Math.PI * GreatCircle.EARTH_RADIUS_KM, within(1e-6));
    // across the date line the short way round
    assertThat(GreatCircle.km(0, 179.5, 0, -179.5)).isCloseTo(111.2, within(0.5));
  }

  @Test
  void destinationIsTheGivenDistanceAway() {
    double[] to = GreatCircle.destination(51.5074, -0.1278, 500, Math.toRadians(135));
    assertThat(GreatCircle.km(51.5074, -0.1278, to[0], to[1])).isCloseTo(500, within(1e-6));
    assertThat(to[0]).isLessThan(51.5074);
    assertThat(to[1]).isGreaterThan(-0.1278);
    double[] east = GreatCircle.destination(0, 179.5, 111.2, Math.PI / 2);
    assertThat(east[1]).isCloseTo(-179.5, within(0.01)); // wrapped across the date line
  }

  @Test
  void placesRejectOutOfRangeCoordinates() {
    assertThatThrownBy(() -> new Place(91, 0, null)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("latitude");
    assertThatThrownBy(() -> new Place(0, Double.NaN, null)).isInstanceOf(IllegalArgumentException.class);
    assertThat(new Place(51.5074, -0.1278, "EU").kmTo(new Place(48.8566, 2.3522, "EU"))).isCloseTo(343.6, within(2.0));
  }
}
