package dev.reed.coordinates;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresProblem;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.DiagonalMatrix;
import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;

/**
 * GNP landmark embedding (Ng &amp; Zhang, "Predicting Internet network distance with
 * coordinates-based approaches", INFOCOM 2002): find landmark coordinates minimising
 * {@code sum_{i<j} w_ij ((||x_i - x_j|| + h_i + h_j - d_ij) / d_ij)^2} over the landmarks' own
 * RTT matrix, as REED's central server does (Armitage &amp; Heyde 2011, section 5.1.1).
 *
 * <p>Solver: Commons Math's Levenberg-Marquardt with an analytic Jacobian, from classical MDS
 * (Torgerson) and {@code restarts - 1} random starts; the lowest cost wins. With a robust threshold
 * the best solution is re-solved twice with Huber weights (IRLS). More than {@value #JOINT_LIMIT}
 * landmarks are embedded hierarchically, because the joint LM costs O(pairs x params^2) per
 * iteration: a spread core of {@value #CORE_SIZE} is embedded jointly, the rest are positioned
 * against it, then all are refined by a few sweeps of block-coordinate descent (each landmark
 * re-positioned against all others). The limit was 32 until 30 landmarks, jointly, took 968 ms
 * against 119 ms for 100 hierarchically ({@code EmbeddingBenchmark}); {@code ./reed eval} at 30
 * landmarks gave the same accuracy both ways on all three measured matrices (coordinates/README.md).
 *
 * <p>Given the previous round's coordinates, the new solution is aligned to them by orthogonal
 * Procrustes (rotation/reflection + translation, no scaling), so that coordinates only move as much
 * as the measurements did: the objective is invariant under rigid motions, and an unaligned
 * solution would shift every server and every cached client position each round.
 *
 * <p>Not thread-safe (it owns the random generator); use one per thread.
 */
public final class LandmarkEmbedder {

  static final int JOINT_LIMIT = 20;
  static final int CORE_SIZE = 20;
  private static final int REFINE_SWEEPS = 6;

  private final CoordinateConfig config;
  private final RandomGenerator rng;

  public LandmarkEmbedder(CoordinateConfig config, RandomGenerator rng) {
    if (config == null || rng == null) {
      throw new IllegalArgumentException("config and rng must not be null");
    }
    this.config = config;
    this.rng = rng;
  }

  /**
   * Embeds the landmarks.
   *
   * @param rttMs n x n, ms, NaN = missing; the diagonal is ignored; d_ij and d_ji are averaged
   * @param previous null, or n entries (an entry may be null for a new landmark): align to them
   * @throws IllegalArgumentException non-square matrix, Inf/negative RTT, fewer than D+2 landmarks,
   *     a landmark with fewer than D+1 measured peers, previous of the wrong size or dimension
   */
  public LandmarkEmbedding embed(double[][] rttMs, List<Coordinate> previous) {
    double[][] sym = symmetrise(rttMs);
    int n = sym.length;
    int d = config.dimensions();
    if (previous != null) {
      if (previous.size() != n) {
        throw new IllegalArgumentException("previous must have one entry per landmark: " + previous.size() + " vs " + n);
      }
      for (Coordinate c : previous) {
        if (c != null && c.dimensions() != d) {
          throw new IllegalArgumentException("dimension mismatch: previous coordinate has "
              + c.dimensions() + " dimensions, config " + d);
        }
      }
    }
    double[][] x;
    double[] h;
    if (n <= JOINT_LIMIT) {
      Solution s = embedJoint(sym, allIndices(n));
      x = s.x;
      h = s.h;
    } else {
      Solution s = embedHierarchical(sym);
      x = s.x;
      h = s.h;
    }
    if (previous != null) {
      Procrustes.alignInPlace(x, previous);
    }
    List<Coordinate> coords = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      coords.add(new Coordinate(x[i], h[i]));
    }
    double[] errs = new double[n];
    double[] row = new double[n];
    for (int i = 0; i < n; i++) {
      int k = 0;
      for (int j = 0; j < n; j++) {
        if (j != i && !Double.isNaN(sym[i][j])) {
          row[k++] = Math.abs(coords.get(i).distanceTo(coords.get(j)) - sym[i][j])
              / Math.max(sym[i][j], config.minRttMs());
        }
      }
      errs[i] = Stats.median(row, k);
    }
    return new LandmarkEmbedding(coords, errs);
  }

  /** Validates and averages both directions; NaN where neither was measured. */
  double[][] symmetrise(double[][] m) {
    if (m == null) {
      throw new IllegalArgumentException("RTT matrix must not be null");
    }
    int n = m.length;
    int d = config.dimensions();
    if (n < d + 2) {
      throw new IllegalArgumentException("need at least D+2 = " + (d + 2) + " landmarks for "
          + d + " dimensions, got " + n);
    }
    for (int i = 0; i < n; i++) {
      if (m[i] == null || m[i].length != n) {
        throw new IllegalArgumentException("RTT matrix must be square: row " + i + " has "
            + (m[i] == null ? "no" : m[i].length) + " entries, expected " + n);
      }
      for (int j = 0; j < n; j++) {
        double v = m[i][j];
        if (i != j && (Double.isInfinite(v) || v < 0)) {
          throw new IllegalArgumentException("RTT[" + i + "][" + j + "] must be finite and >= 0 (NaN = missing), got " + v);
        }
      }
    }
    double[][] s = new double[n][n];
    for (int i = 0; i < n; i++) {
      int measured = 0;
      for (int j = 0; j < n; j++) {
        if (i == j) {
          s[i][j] = 0;
          continue;
        }
        double a = m[i][j];
        double b = m[j][i];
        double v = Double.isNaN(a) ? b : Double.isNaN(b) ? a : 0.5 * (a + b);
        s[i][j] = v;
        if (!Double.isNaN(v)) {
          measured++;
        }
      }
      if (measured < d + 1) {
        throw new IllegalArgumentException("landmark " + i + " has " + measured
            + " measured peers, needs at least D+1 = " + (d + 1));
      }
    }
    return s;
  }

  private record Solution(double[][] x, double[] h, double cost) {}

  private static int[] allIndices(int n) {
    int[] idx = new int[n];
    for (int i = 0; i < n; i++) {
      idx[i] = i;
    }
    return idx;
  }

  /** Joint LM over the landmarks in {@code idx} (indices into sym); result rows follow idx. */
  private Solution embedJoint(double[][] sym, int[] idx) {
    int n = idx.length;
    int d = config.dimensions();
    int per = config.parametersPerHost();
    List<int[]> pairs = new ArrayList<>();
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        if (!Double.isNaN(sym[idx[a]][idx[b]])) {
          pairs.add(new int[] {a, b});
        }
      }
    }
    int np = pairs.size();
    double[] target = new double[np];
    double[] inv = new double[np];
    for (int k = 0; k < np; k++) {
      double v = sym[idx[pairs.get(k)[0]]][idx[pairs.get(k)[1]]];
      target[k] = v;
      inv[k] = 1.0 / Math.max(v, config.minRttMs());
    }
    double scale = Stats.median(target);
    if (!(scale > 0)) {
      scale = 1;
    }
    MultivariateJacobianFunction model = point -> {
      double[] p = point.toArray();
      double[] val = new double[np];
      double[][] jac = new double[np][n * per];
      for (int k = 0; k < np; k++) {
        int a = pairs.get(k)[0];
        int b = pairs.get(k)[1];
        double s = 0;
        for (int c = 0; c < d; c++) {
          double t = p[a * per + c] - p[b * per + c];
          s += t * t;
        }
        double norm = Math.sqrt(s);
        double pred = norm;
        if (per > d) {
          pred += Math.max(0, p[a * per + d]) + Math.max(0, p[b * per + d]);
        }
        val[k] = pred * inv[k];
        double f = norm > 1e-12 ? inv[k] / norm : 0;
        for (int c = 0; c < d; c++) {
          double g = (p[a * per + c] - p[b * per + c]) * f;
          jac[k][a * per + c] = g;
          jac[k][b * per + c] = -g;
        }
        if (per > d) {
          jac[k][a * per + d] = inv[k];
          jac[k][b * per + d] = inv[k];
        }
      }
      return new Pair<>(new ArrayRealVector(val, false), new Array2DRowRealMatrix(jac, false));
    };
    // residual = pred/d - target/d = pred/d - 1 (capped denominators keep target/d)
    double[] observed = new double[np];
    for (int k = 0; k < np; k++) {
      observed[k] = target[k] * inv[k];
    }
    double[] bestSol = null;
    double bestCost = Double.POSITIVE_INFINITY;
    for (int r = 0; r < config.restarts(); r++) {
      double[] start = r == 0 ? mdsStart(sym, idx) : randomStart(n, scale);
      double[] sol = solve(model, observed, start, null, n);
      double cost = robustCost(model, observed, sol);
      if (cost < bestCost) {
        bestCost = cost;
        bestSol = sol;
      }
    }
    if (config.robustThreshold() > 0) {
      // iteratively reweighted (Huber) re-solves of the best solution only
      for (int round = 0; round < 2; round++) {
        double[] sol = solve(model, observed, bestSol, huberWeights(model, observed, bestSol), n);
        double cost = robustCost(model, observed, sol);
        if (cost <= bestCost) {
          bestCost = cost;
          bestSol = sol;
        }
      }
    }
    return unpack(bestSol, n, bestCost);
  }

  private double[] solve(MultivariateJacobianFunction model, double[] observed, double[] start, double[] weights, int n) {
    int per = config.parametersPerHost();
    int d = config.dimensions();
    LeastSquaresBuilder b = new LeastSquaresBuilder()
        .model(model)
        .target(observed)
        .start(start)
        .maxEvaluations(config.maxIterations() * 4)
        .maxIterations(config.maxIterations() * 2)
        .lazyEvaluation(false)
        .parameterValidator(v -> {
          if (per > d) {
            for (int i = 0; i < n; i++) {
              if (v.getEntry(i * per + d) < 0) {
                v.setEntry(i * per + d, 0);
              }
            }
          }
          return v;
        });
    if (weights != null) {
      b.weight(new DiagonalMatrix(weights));
    }
    LeastSquaresProblem problem = b.build();
    try {
      LeastSquaresOptimizer.Optimum o = new LevenbergMarquardtOptimizer()
          .withCostRelativeTolerance(1e-5)
          .withParameterRelativeTolerance(1e-5)
          .optimize(problem);
      double[] p = o.getPoint().toArray();
      for (double v : p) {
        if (!Double.isFinite(v)) {
          return start;
        }
      }
      return p;
    } catch (org.apache.commons.math3.exception.TooManyEvaluationsException
        | org.apache.commons.math3.exception.TooManyIterationsException
        | org.apache.commons.math3.linear.SingularMatrixException
        | org.apache.commons.math3.exception.ConvergenceException e) {
      return start;
    }
  }

  private double[] huberWeights(MultivariateJacobianFunction model, double[] observed, double[] p) {
    RealVector v = model.value(new ArrayRealVector(p, false)).getFirst();
    double k = config.robustThreshold();
    double[] w = new double[observed.length];
    for (int i = 0; i < w.length; i++) {
      double r = Math.abs(v.getEntry(i) - observed[i]);
      w[i] = r <= k ? 1.0 : k / r;
    }
    return w;
  }

  private double robustCost(MultivariateJacobianFunction model, double[] observed, double[] p) {
    RealVector v = model.value(new ArrayRealVector(p, false)).getFirst();
    double k = config.robustThreshold();
    double c = 0;
    for (int i = 0; i < observed.length; i++) {
      double r = Math.abs(v.getEntry(i) - observed[i]);
      c += (k <= 0 || r <= k) ? r * r : 2 * k * r - k * k;
    }
    return c;
  }

  private Solution unpack(double[] p, int n, double cost) {
    int d = config.dimensions();
    int per = config.parametersPerHost();
    double[][] x = new double[n][d];
    double[] h = new double[n];
    for (int i = 0; i < n; i++) {
      System.arraycopy(p, i * per, x[i], 0, d);
      h[i] = per > d ? Math.max(0, p[i * per + d]) : 0;
    }
    return new Solution(x, h, cost);
  }

  private double[] randomStart(int n, double scale) {
    int per = config.parametersPerHost();
    int d = config.dimensions();
    double[] p = new double[n * per];
    for (int i = 0; i < n; i++) {
      for (int c = 0; c < d; c++) {
        p[i * per + c] = (rng.nextDouble() - 0.5) * scale;
      }
      if (per > d) {
        p[i * per + d] = rng.nextDouble() * 0.05 * scale;
      }
    }
    return p;
  }

  /** Classical MDS (Torgerson): top-D eigenvectors of the double-centred squared distances. */
  private double[] mdsStart(double[][] sym, int[] idx) {
    int n = idx.length;
    int d = config.dimensions();
    int per = config.parametersPerHost();
    double[][] sq = new double[n][n];
    double fill = 0;
    int cnt = 0;
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        double v = sym[idx[a]][idx[b]];
        if (a != b && !Double.isNaN(v)) {
          fill += v;
          cnt++;
        }
      }
    }
    fill = cnt > 0 ? fill / cnt : 1;
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        double v = a == b ? 0 : sym[idx[a]][idx[b]];
        if (Double.isNaN(v)) {
          v = fill;
        }
        sq[a][b] = v * v;
      }
    }
    double[] rowMean = new double[n];
    double all = 0;
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        rowMean[a] += sq[a][b] / n;
      }
      all += rowMean[a] / n;
    }
    double[][] bm = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        bm[a][b] = -0.5 * (sq[a][b] - rowMean[a] - rowMean[b] + all);
      }
    }
    double[] p = new double[n * per];
    try {
      EigenDecomposition eig = new EigenDecomposition(new Array2DRowRealMatrix(bm, false));
      double[] ev = eig.getRealEigenvalues();
      Integer[] order = new Integer[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (u, v) -> Double.compare(ev[v], ev[u]));
      RealMatrix vecs = eig.getV();
      for (int c = 0; c < d && c < n; c++) {
        int e = order[c];
        double s = Math.sqrt(Math.max(ev[e], 0));
        for (int i = 0; i < n; i++) {
          double val = vecs.getEntry(i, e) * s;
          p[i * per + c] = Double.isFinite(val) ? val : 0;
        }
      }
    } catch (RuntimeException e) {
      return randomStart(n, Math.sqrt(fill));
    }
    // break exact symmetry so the Jacobian is never degenerate
    for (int i = 0; i < p.length; i++) {
      p[i] += (rng.nextDouble() - 0.5) * 1e-3 * fill;
    }
    if (per > d) {
      for (int i = 0; i < n; i++) {
        p[i * per + d] = 0.01 * fill;
      }
    }
    return p;
  }

  /** Spread core embedded jointly, the rest positioned against it, then block-coordinate sweeps. */
  private Solution embedHierarchical(double[][] sym) {
    int n = sym.length;
    int d = config.dimensions();
    int[] core = farthestPointCore(sym, CORE_SIZE);
    Solution cs = embedJoint(sym, core);
    double[][] x = new double[n][];
    double[] h = new double[n];
    boolean[] placed = new boolean[n];
    for (int k = 0; k < core.length; k++) {
      x[core[k]] = cs.x[k];
      h[core[k]] = cs.h[k];
      placed[core[k]] = true;
    }
    HostPositioner positioner = new HostPositioner(config);
    // place the others against the core
    List<Coordinate> coreCoords = new ArrayList<>();
    for (int k = 0; k < core.length; k++) {
      coreCoords.add(new Coordinate(cs.x[k], cs.h[k]));
    }
    for (int i = 0; i < n; i++) {
      if (placed[i]) {
        continue;
      }
      double[] r = new double[core.length];
      for (int k = 0; k < core.length; k++) {
        r[k] = sym[i][core[k]];
      }
      PositionFit f = fitOrCentroid(positioner, coreCoords, r, null, cs);
      x[i] = f.coordinate().components();
      h[i] = f.coordinate().height();
    }
    // block-coordinate refinement: each landmark against all the others
    for (int sweep = 0; sweep < REFINE_SWEEPS; sweep++) {
      for (int i = 0; i < n; i++) {
        List<Coordinate> others = new ArrayList<>(n - 1);
        double[] r = new double[n - 1];
        int k = 0;
        for (int j = 0; j < n; j++) {
          if (j != i) {
            others.add(new Coordinate(x[j], h[j]));
            r[k++] = sym[i][j];
          }
        }
        PositionFit f = fitOrCentroid(positioner, others, r, new Coordinate(x[i], h[i]), cs);
        x[i] = f.coordinate().components();
        h[i] = f.coordinate().height();
      }
    }
    return new Solution(x, h, Double.NaN);
  }

  private PositionFit fitOrCentroid(HostPositioner positioner, List<Coordinate> anchors, double[] r,
      Coordinate warm, Solution core) {
    try {
      return positioner.position(anchors, r, warm);
    } catch (IllegalArgumentException notEnough) {
      // fewer than D+1 measured peers among these anchors: keep it where it was, or at the core's centroid
      if (warm != null) {
        return new PositionFit(warm, 0, 0);
      }
      double[] c = new double[config.dimensions()];
      for (double[] row : core.x) {
        for (int k = 0; k < c.length; k++) {
          c[k] += row[k] / core.x.length;
        }
      }
      return new PositionFit(new Coordinate(c, 0), 0, 0);
    }
  }

  /** Farthest-point selection by RTT: a core that spans the landmark set. */
  private static int[] farthestPointCore(double[][] sym, int k) {
    int n = sym.length;
    int[] core = new int[k];
    double[] minDist = new double[n];
    Arrays.fill(minDist, Double.POSITIVE_INFINITY);
    // start with the landmark with the largest median RTT (an extreme point)
    int first = 0;
    double bestMed = -1;
    for (int i = 0; i < n; i++) {
      double med = Stats.median(sym[i]);
      if (med > bestMed) {
        bestMed = med;
        first = i;
      }
    }
    core[0] = first;
    boolean[] in = new boolean[n];
    in[first] = true;
    for (int c = 1; c < k; c++) {
      int prev = core[c - 1];
      int next = -1;
      double far = -1;
      for (int i = 0; i < n; i++) {
        if (in[i]) {
          continue;
        }
        double v = sym[i][prev];
        if (!Double.isNaN(v)) {
          minDist[i] = Math.min(minDist[i], v);
        }
        double md = Double.isInfinite(minDist[i]) ? 0 : minDist[i];
        if (md > far) {
          far = md;
          next = i;
        }
      }
      core[c] = next;
      in[next] = true;
    }
    return core;
  }
}
