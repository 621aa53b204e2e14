package dev.reed.coordinates;

import java.util.List;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.SingularValueDecomposition;

/**
 * Orthogonal Procrustes alignment (Schoenemann 1966): the rigid motion (orthogonal R, translation t,
 * no scaling) that best maps a new embedding onto the previous one in the least-squares sense.
 * Distances, and so the GNP objective, are unchanged; coordinates stop jumping between rounds.
 */
final class Procrustes {
  private Procrustes() {}

  /**
   * Moves the rows of {@code x} in place onto {@code previous} (entries may be null: those rows
   * move with the rest but do not steer). With fewer than two paired rows nothing is done; with
   * fewer than D+1 only the translation is applied.
   */
  static void alignInPlace(double[][] x, List<Coordinate> previous) {
    int n = x.length;
    if (n == 0) {
      return;
    }
    int d = x[0].length;
    int paired = 0;
    double[] cx = new double[d];
    double[] cp = new double[d];
    for (int i = 0; i < n; i++) {
      Coordinate p = previous.get(i);
      if (p == null) {
        continue;
      }
      paired++;
      for (int k = 0; k < d; k++) {
        cx[k] += x[i][k];
        cp[k] += p.component(k);
      }
    }
    if (paired < 2) {
      return;
    }
    for (int k = 0; k < d; k++) {
      cx[k] /= paired;
      cp[k] /= paired;
    }
    double[][] rot = identity(d);
    if (paired >= d + 1) {
      // H = sum (x_i - cx)(p_i - cp)^T ; H = U S V^T ; R = V U^T maps centred x onto centred p
      double[][] hm = new double[d][d];
      for (int i = 0; i < n; i++) {
        Coordinate p = previous.get(i);
        if (p == null) {
          continue;
        }
        for (int a = 0; a < d; a++) {
          double xa = x[i][a] - cx[a];
          for (int b = 0; b < d; b++) {
            hm[a][b] += xa * (p.component(b) - cp[b]);
          }
        }
      }
      try {
        SingularValueDecomposition svd = new SingularValueDecomposition(new Array2DRowRealMatrix(hm, false));
        RealMatrix r = svd.getV().multiply(svd.getUT());
        double[][] cand = r.getData();
        if (allFinite(cand)) {
          rot = cand;
        }
      } catch (RuntimeException e) {
        // degenerate cross-covariance: translation only
      }
    }
    double[] tmp = new double[d];
    for (int i = 0; i < n; i++) {
      for (int a = 0; a < d; a++) {
        double s = 0;
        for (int b = 0; b < d; b++) {
          s += rot[a][b] * (x[i][b] - cx[b]);
        }
        tmp[a] = s + cp[a];
      }
      System.arraycopy(tmp, 0, x[i], 0, d);
    }
  }

  private static double[][] identity(int d) {
    double[][] m = new double[d][d];
    for (int i = 0; i < d; i++) {
      m[i][i] = 1;
    }
    return m;
  }

  private static boolean allFinite(double[][] m) {
    for (double[] row : m) {
      for (double v : row) {
        if (!Double.isFinite(v)) {
          return false;
        }
      }
    }
    return true;
  }
}
