package dev.reed.coordinates.vivaldi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.Coordinate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class VivaldiUpdaterTest {

  @Test
  void convergesTowardsTheTruePositionAgainstFixedLandmarks() {
    SplittableRandom r = new SplittableRandom(4);
    List<Coordinate> landmarks = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      landmarks.add(new Coordinate(new double[] {(r.nextDouble() - .5) * 300, (r.nextDouble() - .5) * 300,
          (r.nextDouble() - .5) * 300, (r.nextDouble() - .5) * 300}, 0));
    }
    Coordinate truth = new Coordinate(new double[] {30, -20, 10, 5}, 8);
    VivaldiUpdater u = new VivaldiUpdater(VivaldiConfig.defaults());
    VivaldiState s = u.initial(4, true);
    for (int round = 0; round < 3000; round++) {
      Coordinate l = landmarks.get(round % 15);
      s = u.update(s, l, 0.05, truth.distanceTo(l), true);
    }
    double worst = 0;
    for (Coordinate l : landmarks) {
      worst = Math.max(worst, Math.abs(s.coordinate().distanceTo(l) - truth.distanceTo(l)) / truth.distanceTo(l));
    }
    assertThat(worst).isLessThan(0.08); // from an initial error of ~100 %
    assertThat(s.error()).isLessThan(0.2);
  }

  @Test
  void separatesCoincidentNodesAndStaysFinite() {
    VivaldiUpdater u = new VivaldiUpdater(VivaldiConfig.defaults());
    VivaldiState s = u.initial(3, false);
    VivaldiState next = u.update(s, Coordinate.of(0, 0, 0), 1.5, 50, false);
    assertThat(next.coordinate().euclideanTo(Coordinate.of(0, 0, 0))).isGreaterThan(1);
    VivaldiState same = u.update(next, Coordinate.of(0, 0, 0), 1.5, 1e9, false); // bogus RTT ignored
    assertThat(same).isEqualTo(next);
  }

  @Test
  void rejectsBadInput() {
    VivaldiUpdater u = new VivaldiUpdater(VivaldiConfig.defaults());
    VivaldiState s = u.initial(3, false);
    assertThatThrownBy(() -> u.update(s, Coordinate.of(1, 2), 0.1, 10, false)).hasMessageContaining("dimension");
    assertThatThrownBy(() -> u.update(s, Coordinate.of(1, 2, 3), 0.1, Double.NaN, false)).hasMessageContaining("rttMs");
    assertThatThrownBy(() -> u.update(s, Coordinate.of(1, 2, 3), -1, 10, false)).hasMessageContaining("remoteError");
    assertThatThrownBy(() -> new VivaldiConfig(0, 0.25, 1.5, 0.01, 1e4)).hasMessageContaining("ce");
  }
}
