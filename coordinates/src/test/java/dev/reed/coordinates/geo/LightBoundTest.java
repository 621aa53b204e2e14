package dev.reed.coordinates.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LightBoundTest {
  private static final Place FRANKFURT = new Place(50.11, 8.68, null);
  private static final Place AMSTERDAM = new Place(52.37, 4.90, null);
  private static final Place LONDON = new Place(51.51, -0.13, null);
  private static final Place PARIS = new Place(48.86, 2.35, null);
  private static final Place SYDNEY = new Place(-33.87, 151.21, null);

  private final LightBound bound = LightBound.defaults();

  @Test
  void aFiveMsRttCannotSpanTwoThousandKm() {
    Place twoThousandKm = new Place(50.11, 36.8, null); // ~2,000 km east of Frankfurt
    assertThat(FRANKFURT.kmTo(twoThousandKm)).isBetween(1900.0, 2100.0);
    assertThat(bound.contradicts(FRANKFURT, twoThousandKm, 5)).isTrue();
    assertThat(bound.contradicts(FRANKFURT, twoThousandKm, 30)).isFalse();
    assertThat(bound.contradicts(FRANKFURT, null, 1)).isFalse();
    assertThat(bound.contradicts(FRANKFURT, twoThousandKm, Double.NaN)).isFalse();
  }

  @Test
  void theLandmarkInTheMostContradictionsIsMarkedAndOnlyIt() {
    // four landmarks in western Europe, a few ms apart; the last announces Sydney
    Place[] places = {FRANKFURT, AMSTERDAM, LONDON, SYDNEY};
    double[][] mesh = {
        {Double.NaN, 8, 15, 10},
        {8, Double.NaN, 9, 12},
        {15, 9, Double.NaN, 9},
        {10, 12, 9, Double.NaN}};
    assertThat(bound.contradicted(places, mesh)).containsExactly(false, false, false, true);
    places[3] = PARIS;
    assertThat(bound.contradicted(places, mesh)).containsExactly(false, false, false, false);
  }

  @Test
  void twoPlacesThatOnlyContradictEachOtherAreBothMarked() {
    Place[] places = {FRANKFURT, SYDNEY};
    double[][] mesh = {{Double.NaN, 3}, {Double.NaN, Double.NaN}};
    assertThat(bound.contradicted(places, mesh)).containsExactly(true, true);
  }

  @Test
  void aHostContradictedByOneLandmark() {
    Place[] lm = {FRANKFURT, SYDNEY};
    assertThat(bound.contradicted(LONDON, lm, new double[] {12, 280})).isFalse();
    assertThat(bound.contradicted(LONDON, lm, new double[] {12, 40})).isTrue();
  }

  @Test
  void toleranceMustBeFinite() {
    assertThatThrownBy(() -> new LightBound(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LightBound(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
