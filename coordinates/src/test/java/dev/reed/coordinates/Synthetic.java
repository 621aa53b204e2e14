package dev.reed.coordinates;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Synthetic worlds for tests: random points whose RTTs are exact (or noisy) distances. */
final class Synthetic {
  private Synthetic() {}

  static List<Coordinate> points(int n, int d, double scale, boolean height, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<Coordinate> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double[] c = new double[d];
      for (int k = 0; k < d; k++) {
        c[k] = (r.nextDouble() - 0.5) * scale;
      }
      out.add(new Coordinate(c, height ? r.nextDouble() * scale * 0.05 : 0));
    }
    return out;
  }

  static double[][] matrix(List<Coordinate> pts) {
    int n = pts.size();
    double[][] m = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        m[i][j] = i == j ? 0 : pts.get(i).distanceTo(pts.get(j));
      }
    }
    return m;
  }
}
