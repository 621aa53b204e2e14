package dev.reed.coordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LandmarkEmbedderTest {

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4, 5, 8, 10})
  void recoversAnExactlyEuclideanWorld(int d) {
    List<Coordinate> truth = Synthetic.points(15, d, 200, false, 7 + d);
    CoordinateConfig cfg = new CoordinateConfig(d, false);
    LandmarkEmbedding e = new LandmarkEmbedder(cfg, new SplittableRandom(1)).embed(Synthetic.matrix(truth), null);
    assertThat(e.coordinates()).hasSize(15);
    assertThat(e.medianRelativeError()).isLessThan(0.01);
  }

  @Test
  void recoversHeights() {
    List<Coordinate> truth = Synthetic.points(15, 2, 200, true, 3);
    CoordinateConfig cfg = new CoordinateConfig(2, true);
    LandmarkEmbedding e = new LandmarkEmbedder(cfg, new SplittableRandom(1)).embed(Synthetic.matrix(truth), null);
    assertThat(e.medianRelativeError()).isLessThan(0.02);
    assertThat(e.coordinates()).allSatisfy(c -> assertThat(c.height()).isGreaterThanOrEqualTo(0));
  }

  @Test
  void alignsToThePreviousEmbedding() {
    List<Coordinate> truth = Synthetic.points(12, 4, 200, false, 11);
    CoordinateConfig cfg = new CoordinateConfig(4, false);
    double[][] m = Synthetic.matrix(truth);
    LandmarkEmbedding aligned = new LandmarkEmbedder(cfg, new SplittableRandom(99)).embed(m, truth);
    for (int i = 0; i < truth.size(); i++) {
      assertThat(aligned.coordinates().get(i).distanceTo(truth.get(i))).isLessThan(2.0);
    }
    // unaligned, a solution is only right up to a rigid motion: far from the truth in general
    LandmarkEmbedding free = new LandmarkEmbedder(cfg, new SplittableRandom(99)).embed(m, null);
    double moved = 0;
    for (int i = 0; i < truth.size(); i++) {
      moved += free.coordinates().get(i).distanceTo(truth.get(i));
    }
    assertThat(moved / truth.size()).isGreaterThan(5.0);
  }

  @Test
  void toleratesMissingAndAsymmetricEntries() {
    List<Coordinate> truth = Synthetic.points(15, 3, 200, false, 5);
    double[][] m = Synthetic.matrix(truth);
    SplittableRandom r = new SplittableRandom(2);
    for (int k = 0; k < 20; k++) {
      int i = r.nextInt(15);
      int j = r.nextInt(15);
      if (i != j) {
        m[i][j] = Double.NaN; // one direction lost: the other is used
      }
    }
    m[0][1] = Double.NaN;
    m[1][0] = Double.NaN; // both lost: pair skipped
    LandmarkEmbedding e = new LandmarkEmbedder(new CoordinateConfig(3, false), new SplittableRandom(1)).embed(m, null);
    assertThat(e.medianRelativeError()).isLessThan(0.01);
  }

  @ParameterizedTest
  @ValueSource(ints = {30, 60})
  void embedsManyLandmarksHierarchically(int n) {
    assertThat(n).isGreaterThan(LandmarkEmbedder.JOINT_LIMIT);
    List<Coordinate> truth = Synthetic.points(n, 4, 200, false, 21);
    LandmarkEmbedding e = new LandmarkEmbedder(new CoordinateConfig(4, false), new SplittableRandom(1))
        .embed(Synthetic.matrix(truth), null);
    assertThat(e.coordinates()).hasSize(n);
    assertThat(e.medianRelativeError()).isLessThan(0.02);
  }

  @Test
  void rejectsBadMatrices() {
    LandmarkEmbedder emb = new LandmarkEmbedder(new CoordinateConfig(4, false), new SplittableRandom(1));
    double[][] ok = Synthetic.matrix(Synthetic.points(8, 4, 100, false, 1));
    assertThatThrownBy(() -> emb.embed(null, null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> emb.embed(new double[5][5], null)).hasMessageContaining("at least D+2");
    double[][] ragged = ok.clone();
    ragged[3] = new double[2];
    assertThatThrownBy(() -> emb.embed(ragged, null)).hasMessageContaining("square");
    double[][] inf = Synthetic.matrix(Synthetic.points(8, 4, 100, false, 1));
    inf[1][2] = Double.POSITIVE_INFINITY;
    assertThatThrownBy(() -> emb.embed(inf, null)).hasMessageContaining("RTT[1][2]");
    double[][] sparse = Synthetic.matrix(Synthetic.points(8, 4, 100, false, 1));
    for (int j = 1; j < 8; j++) {
      sparse[0][j] = Double.NaN;
      sparse[j][0] = Double.NaN;
    }
    assertThatThrownBy(() -> emb.embed(sparse, null)).hasMessageContaining("landmark 0");
    assertThatThrownBy(() -> emb.embed(ok, List.of(Coordinate.of(1, 2, 3, 4)))).hasMessageContaining("one entry per landmark");
  }
}
