package dev.reed.coordinates.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FusionWeightsTest {

  /** Examples where {@code informative} predicts the truth within 3 % and the other sources are noise. */
  private static List<FusionExample> examples(int informative) {
    SplittableRandom r = new SplittableRandom(11);
    List<FusionExample> out = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      double truth = 5 + r.nextDouble() * 200;
      double[] f = new double[3];
      for (int s = 0; s < 3; s++) {
        f[s] = s == informative ? truth * (1 + r.nextDouble(-0.03, 0.03)) : 5 + r.nextDouble() * 200;
      }
      out.add(new FusionExample(f[0], f[1], f[2], truth));
    }
    return out;
  }

  @Test
  void crossValidatedWeightsFavourTheInformativeSource() {
    assertThat(FusionWeights.fit(examples(0), 0.05).geo()).isGreaterThanOrEqualTo(0.9);
    assertThat(FusionWeights.fit(examples(1), 0.05).coordinate()).isGreaterThanOrEqualTo(0.9);
    assertThat(FusionWeights.fit(examples(2), 0.05).relay()).isGreaterThanOrEqualTo(0.9);
    FusionWeights w = FusionWeights.fit(examples(1), 0.05);
    assertThat(w.geo() + w.coordinate() + w.relay()).isCloseTo(1, within(1e-9));
    assertThat(w.loss(examples(1))).isLessThan(0.05);
  }

  @Test
  void missingSourcesAreLeftOutAndTheRestRenormalised() {
    FusionWeights w = new FusionWeights(0.2, 0.8, 0);
    assertThat(w.predictMs(10, 20, 30)).isCloseTo(18, within(1e-9));
    assertThat(w.predictMs(10, Double.NaN, 30)).isCloseTo(10, within(1e-9));
    // only sources of weight 0: each counts alike rather than none
    assertThat(w.predictMs(Double.NaN, Double.NaN, 30)).isCloseTo(30, within(1e-9));
    assertThat(w.predictMs(Double.NaN, Double.NaN, Double.NaN)).isNaN();
  }

  @Test
  void badWeightsAndEmptyDataAreRejected() {
    assertThatThrownBy(() -> new FusionWeights(0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FusionWeights(-0.1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FusionWeights.fit(List.of(new FusionExample(1, 1, 1, 0)), 0.1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no example");
  }
}
