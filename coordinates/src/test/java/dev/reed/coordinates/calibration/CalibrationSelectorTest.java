package dev.reed.coordinates.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CalibrationSelectorTest {

  static List<CalibrationCandidate> candidates(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<CalibrationCandidate> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // 80 % in one dense cluster, the rest spread out
      double s = i % 5 == 0 ? 300 : 20;
      out.add(new CalibrationCandidate("s" + i,
          Coordinate.of((r.nextDouble() - .5) * s, (r.nextDouble() - .5) * s, (r.nextDouble() - .5) * s,
              (r.nextDouble() - .5) * s),
          i % 7 == 0 ? 0.5 : r.nextDouble() * 0.1, i % 11 == 0 ? 3 : 15));
    }
    return out;
  }

  @Test
  void picksOnlyAccurateSpreadCandidates() {
    CoordinateConfig cfg = CoordinateConfig.defaults();
    List<CalibrationCandidate> all = candidates(400, 1);
    List<CalibrationCandidate> sel = new CalibrationSelector(cfg).select(all, 14, 1);
    assertThat(sel).hasSize(14);
    assertThat(new HashSet<>(sel)).hasSize(14);
    assertThat(sel).allSatisfy(c -> {
      assertThat(c.relativeError()).isLessThanOrEqualTo(cfg.calibrationMaxError());
      assertThat(c.anchorsUsed()).isGreaterThanOrEqualTo(cfg.dimensions() + 1);
    });
    // spread: most chosen are from the sparse 20 % (they span the space)
    long spread = sel.stream().filter(c -> Integer.parseInt(c.key().substring(1)) % 5 == 0).count();
    assertThat(spread).isGreaterThanOrEqualTo(10);
  }

  @Test
  void rotatesWithTheEpochAndIsDeterministic() {
    CalibrationSelector s = new CalibrationSelector(CoordinateConfig.defaults());
    List<CalibrationCandidate> all = candidates(400, 2);
    assertThat(s.select(all, 14, 7)).isEqualTo(s.select(new ArrayList<>(all.reversed()), 14, 7));
    Map<String, Integer> load = new HashMap<>();
    for (long epoch = 0; epoch < 50; epoch++) {
      s.select(all, 14, epoch).forEach(c -> load.merge(c.key(), 1, Integer::sum));
    }
    assertThat(load.size()).isGreaterThan(40); // many different servers share the work
    assertThat(load.values().stream().mapToInt(Integer::intValue).max().orElseThrow()).isLessThan(50);
  }

  @Test
  void fillsUpWithTheBestWhenTooFewAreAccurate() {
    List<CalibrationCandidate> few = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      few.add(new CalibrationCandidate("s" + i, Coordinate.of(i, 0, 0, 0), 0.5 + i * 0.01, 15));
    }
    assertThat(new CalibrationSelector(CoordinateConfig.defaults()).select(few, 5, 0)).hasSize(5)
        .allSatisfy(c -> assertThat(c.relativeError()).isLessThan(0.55));
    assertThatThrownBy(() -> new CalibrationSelector(CoordinateConfig.defaults()).select(few, 4, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("D+1");
  }

  @Test
  void nearestReturnsTheClosestNotYetProbedNearestFirst() {
    CoordinateConfig cfg = CoordinateConfig.defaults();
    List<CalibrationCandidate> all = candidates(200, 4);
    Coordinate here = Coordinate.of(3, -2, 1, 0);
    CalibrationSelector s = new CalibrationSelector(cfg);
    List<CalibrationCandidate> first = s.nearest(all, here, 3, java.util.Set.of());
    assertThat(first).hasSize(3);
    double third = here.distanceTo(first.get(2).coordinate());
    assertThat(here.distanceTo(first.get(0).coordinate())).isLessThanOrEqualTo(here.distanceTo(first.get(1).coordinate()));
    assertThat(all).filteredOn(c -> !first.contains(c)).allSatisfy(
        c -> assertThat(here.distanceTo(c.coordinate())).isGreaterThanOrEqualTo(third));
    List<CalibrationCandidate> next = s.nearest(all, here, 1, java.util.Set.of(first.get(0).key()));
    assertThat(next).containsExactly(first.get(1));
    assertThat(s.nearest(all.subList(0, 2), here, 5, java.util.Set.of())).hasSize(2);
    assertThatThrownBy(() -> s.nearest(all, Coordinate.of(1, 2), 1, java.util.Set.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimensions");
    assertThatThrownBy(() -> s.nearest(all, here, -1, java.util.Set.of())).isInstanceOf(IllegalArgumentException.class);
  }
}
