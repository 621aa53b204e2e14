package dev.reed.coordinates;

import java.util.List;

/**
 * Positions one host (a game server, a client, a landmark against its peers) from its RTTs to
 * anchors with known coordinates: GNP host positioning (Ng &amp; Zhang 2002), minimising
 * {@code sum_l w_l * rho((||y - x_l|| + h_y + h_l - d_l) / d_l)} over y (and h_y with the height
 * model).
 *
 * <p>The solver is a small dense Levenberg-Marquardt on the (D+1)x(D+1) normal equations with an
 * analytic Jacobian, written here rather than with Commons Math because a coordinator positions
 * every server of every round (tens of thousands) and a client re-positions after each probe: the
 * generic optimizer's matrix objects cost more than the whole fit. rho is Huber's loss on the
 * relative residual (iteratively reweighted), so one congested or wrong RTT cannot drag the host
 * far (Ledlie et al., NSDI 2007). Starts: the warm start (the previous position, so coordinates
 * move little between rounds), then a linearised multilateration, then the nearest anchor; a start
 * whose fit has a median relative error of at most {@value #WARM_ACCEPT_ERROR} is kept without
 * trying the next (that is what makes 100,000+ fits/s), otherwise the lowest cost wins. The output
 * is always finite.
 *
 * <p>Thread-safe and stateless; one instance can serve all threads.
 */
public final class HostPositioner {

  /** A warm start whose fit has at most this median relative error is kept without other starts. */
  static final double WARM_ACCEPT_ERROR = 0.1;

  private final CoordinateConfig config;

  public HostPositioner(CoordinateConfig config) {
    if (config == null) {
      throw new IllegalArgumentException("config must not be null");
    }
    this.config = config;
  }

  public CoordinateConfig config() {
    return config;
  }

  /**
   * Fits a host from its RTTs to the anchors.
   *
   * @param anchors coordinates with the configured dimension count
   * @param rttMs one RTT per anchor, ms; NaN = not measured
   * @param warmStart previous position, or null
   * @throws IllegalArgumentException fewer than D+1 usable RTTs, NaN/Inf input, dimension mismatch
   */
  public PositionFit position(List<Coordinate> anchors, double[] rttMs, Coordinate warmStart) {
    return position(anchors, rttMs, null, warmStart);
  }

  /**
   * As {@link #position(List, double[], Coordinate)} with a confidence weight per anchor (for
   * example lower for servers than for landmarks); null = all 1.
   */
  public PositionFit position(List<Coordinate> anchors, double[] rttMs, double[] weights, Coordinate warmStart) {
    if (anchors == null || rttMs == null) {
      throw new IllegalArgumentException("anchors and rttMs must not be null");
    }
    if (anchors.size() != rttMs.length) {
      throw new IllegalArgumentException(
          "one RTT per anchor expected: " + anchors.size() + " anchors, " + rttMs.length + " RTTs");
    }
    if (weights != null && weights.length != rttMs.length) {
      throw new IllegalArgumentException("one weight per anchor expected: " + weights.length + " vs " + rttMs.length);
    }
    int d = config.dimensions();
    int m = rttMs.length;
    double[] ax = new double[m * d];
    double[] ah = new double[m];
    double[] dist = new double[m];
    double[] w = new double[m];
    int used = 0;
    for (int i = 0; i < m; i++) {
      Coordinate a = anchors.get(i);
      if (a == null) {
        throw new IllegalArgumentException("anchor " + i + " is null");
      }
      if (a.dimensions() != d) {
        throw new IllegalArgumentException(
            "dimension mismatch: anchor " + i + " has " + a.dimensions() + " dimensions, config " + d);
      }
      double r = rttMs[i];
      if (Double.isNaN(r)) {
        continue;
      }
      if (Double.isInfinite(r) || r < 0) {
        throw new IllegalArgumentException("RTT to anchor " + i + " must be finite and >= 0 (NaN = missing), got " + r);
      }
      double wi = 1.0;
      if (weights != null) {
        wi = weights[i];
        if (!Double.isFinite(wi) || wi < 0) {
          throw new IllegalArgumentException("weight " + i + " must be finite and >= 0, got " + wi);
        }
        if (wi == 0) {
          continue;
        }
      }
      System.arraycopy(a.raw(), 0, ax, used * d, d);
      ah[used] = a.height();
      dist[used] = r;
      w[used] = wi;
      used++;
    }
    if (used < config.minAnchors()) {
      throw new IllegalArgumentException("need at least " + config.minAnchors() + " anchors with a usable RTT for "
          + d + " dimensions, got " + used);
    }
    if (warmStart != null && warmStart.dimensions() != d) {
      throw new IllegalArgumentException(
          "dimension mismatch: warm start has " + warmStart.dimensions() + " dimensions, config " + d);
    }
    return new Fit(config, ax, ah, dist, w, used).solve(warmStart);
  }

  /** One fit's working state. */
  static final class Fit {
    private final int d;
    private final int p;
    private final boolean height;
    private final double[] ax;
    private final double[] ah;
    private final double[] dist;
    private final double[] inv; // 1 / max(d, minRtt)
    private final double[] w;
    private final int m;
    private final double huber;
    private final int maxIterations;
    // scratch
    private final double[] a;
    private final double[] g;
    private final double[] step;
    private final double[] cand;
    private final double[] row;
    private final double[] chol;

    Fit(CoordinateConfig c, double[] ax, double[] ah, double[] dist, double[] w, int m) {
      this.d = c.dimensions();
      this.height = c.height();
      this.p = d + (height ? 1 : 0);
      this.ax = ax;
      this.ah = ah;
      this.dist = dist;
      this.w = w;
      this.m = m;
      this.huber = c.robustThreshold();
      this.maxIterations = Math.max(20, Math.min(c.maxIterations(), 60));
      this.inv = new double[m];
      for (int i = 0; i < m; i++) {
        inv[i] = 1.0 / Math.max(dist[i], c.minRttMs());
      }
      this.a = new double[p * p];
      this.g = new double[p];
      this.step = new double[p];
      this.cand = new double[p];
      this.row = new double[p];
      this.chol = new double[p * p];
    }

    PositionFit solve(Coordinate warm) {
      double[] best = null;
      double bestCost = Double.POSITIVE_INFINITY;
      if (warm != null) {
        // the previous position is almost always in the right basin: keep it when it fits well
        double[] x = toParams(warm.raw(), warm.height());
        bestCost = refine(x);
        best = x;
        if (medianError(best) <= WARM_ACCEPT_ERROR) {
          return finish(best);
        }
      }
      for (int k = 0; k < 2; k++) {
        double[] s = k == 0 ? multilateration() : nearestAnchorStart();
        if (s == null) {
          continue;
        }
        double[] x = s.clone();
        double cost = refine(x);
        if (cost < bestCost) {
          bestCost = cost;
          best = x;
        }
        if (k == 0 && best != null && medianError(best) <= WARM_ACCEPT_ERROR) {
          break; // the linearised start landed in a good basin: no second start needed
        }
      }
      if (best == null) {
        best = nearestAnchorStart();
      }
      return finish(best);
    }

    private double medianError(double[] x) {
      double[] errs = new double[m];
      for (int i = 0; i < m; i++) {
        errs[i] = Math.abs(predict(x, i) - dist[i]) * inv[i];
      }
      return Stats.median(errs, m);
    }

    private PositionFit finish(double[] best) {
      double[] comps = new double[d];
      System.arraycopy(best, 0, comps, 0, d);
      double h = height ? Math.max(0, best[d]) : 0.0;
      double[] errs = new double[m];
      for (int i = 0; i < m; i++) {
        errs[i] = Math.abs(predict(best, i) - dist[i]) * inv[i];
      }
      return new PositionFit(new Coordinate(comps, h), Stats.median(errs, m), m);
    }

    private double[] toParams(double[] comps, double h) {
      double[] x = new double[p];
      System.arraycopy(comps, 0, x, 0, d);
      if (height) {
        x[d] = h;
      }
      return x;
    }

    double predict(double[] x, int i) {
      double s = 0;
      int o = i * d;
      for (int k = 0; k < d; k++) {
        double t = x[k] - ax[o + k];
        s += t * t;
      }
      return Math.sqrt(s) + ah[i] + (height ? x[d] : 0.0);
    }

    /** Huber cost of the relative residuals. */
    double cost(double[] x) {
      double c = 0;
      for (int i = 0; i < m; i++) {
        double r = (predict(x, i) - dist[i]) * inv[i];
        c += w[i] * rho(r);
      }
      return c;
    }

    private double rho(double r) {
      double ar = Math.abs(r);
      if (huber <= 0 || ar <= huber) {
        return r * r;
      }
      return 2 * huber * ar - huber * huber;
    }

    /** Levenberg-Marquardt with IRLS weights; x is updated in place; returns the final cost. */
    double refine(double[] x) {
      double lambda = 1e-3;
      double cost = cost(x);
      for (int it = 0; it < maxIterations; it++) {
        java.util.Arrays.fill(a, 0);
        java.util.Arrays.fill(g, 0);
        for (int i = 0; i < m; i++) {
          int o = i * d;
          double s = 0;
          for (int k = 0; k < d; k++) {
            double t = x[k] - ax[o + k];
            row[k] = t;
            s += t * t;
          }
          double norm = Math.sqrt(s);
          double pred = norm + ah[i] + (height ? x[d] : 0.0);
          double r = (pred - dist[i]) * inv[i];
          double ar = Math.abs(r);
          double wi = w[i] * ((huber <= 0 || ar <= huber) ? 1.0 : huber / ar);
          double scale = norm > 1e-12 ? inv[i] / norm : 0.0;
          for (int k = 0; k < d; k++) {
            row[k] *= scale;
          }
          if (height) {
            row[d] = inv[i];
          }
          for (int u = 0; u < p; u++) {
            double ru = wi * row[u];
            g[u] += ru * r;
            for (int v = 0; v <= u; v++) {
              a[u * p + v] += ru * row[v];
            }
          }
        }
        boolean improved = false;
        while (lambda < 1e12) {
          for (int u = 0; u < p; u++) {
            step[u] = -g[u];
          }
          if (!solveDamped(lambda)) {
            lambda *= 8;
            continue;
          }
          for (int u = 0; u < p; u++) {
            cand[u] = x[u] + step[u];
          }
          if (height && cand[d] < 0) {
            cand[d] = 0;
          }
          double c = cost(cand);
          if (c < cost) {
            double rel = (cost - c) / Math.max(cost, 1e-300);
            System.arraycopy(cand, 0, x, 0, p);
            cost = c;
            lambda = Math.max(lambda / 4, 1e-9);
            improved = rel > 1e-7;
            break;
          }
          lambda *= 8;
        }
        if (!improved) {
          break;
        }
      }
      return cost;
    }

    /** Solves (A + lambda diag(A)) step = step in place by Cholesky; false if not positive definite. */
    private boolean solveDamped(double lambda) {
      double[] l = chol;
      for (int u = 0; u < p; u++) {
        for (int v = 0; v <= u; v++) {
          l[u * p + v] = a[u * p + v];
        }
        l[u * p + u] = a[u * p + u] * (1 + lambda) + 1e-12 + lambda * 1e-9;
      }
      for (int j = 0; j < p; j++) {
        double s = l[j * p + j];
        for (int k = 0; k < j; k++) {
          s -= l[j * p + k] * l[j * p + k];
        }
        if (!(s > 0)) {
          return false;
        }
        double dj = Math.sqrt(s);
        l[j * p + j] = dj;
        for (int i = j + 1; i < p; i++) {
          double t = l[i * p + j];
          for (int k = 0; k < j; k++) {
            t -= l[i * p + k] * l[j * p + k];
          }
          l[i * p + j] = t / dj;
        }
      }
      for (int i = 0; i < p; i++) {
        double t = step[i];
        for (int k = 0; k < i; k++) {
          t -= l[i * p + k] * step[k];
        }
        step[i] = t / l[i * p + i];
      }
      for (int i = p - 1; i >= 0; i--) {
        double t = step[i];
        for (int k = i + 1; k < p; k++) {
          t -= l[k * p + i] * step[k];
        }
        step[i] = t / l[i * p + i];
      }
      for (int i = 0; i < p; i++) {
        if (!Double.isFinite(step[i])) {
          return false;
        }
      }
      return true;
    }

    /**
     * Linearised multilateration: subtracting the sphere equation of the nearest anchor from the
     * others gives a linear least-squares problem in y (heights folded into the RTTs).
     */
    private double[] multilateration() {
      int ref = nearestAnchor();
      double[] ata = new double[d * d];
      double[] atb = new double[d];
      double rr = Math.max(0, dist[ref] - ah[ref]);
      double refSq = 0;
      for (int k = 0; k < d; k++) {
        refSq += ax[ref * d + k] * ax[ref * d + k];
      }
      for (int i = 0; i < m; i++) {
        if (i == ref) {
          continue;
        }
        double ri = Math.max(0, dist[i] - ah[i]);
        double iSq = 0;
        for (int k = 0; k < d; k++) {
          iSq += ax[i * d + k] * ax[i * d + k];
        }
        // 2 (x_i - x_ref) . y = r_ref^2 - r_i^2 + |x_i|^2 - |x_ref|^2
        double b = rr * rr - ri * ri + iSq - refSq;
        for (int u = 0; u < d; u++) {
          double cu = 2 * (ax[i * d + u] - ax[ref * d + u]);
          atb[u] += cu * b;
          for (int v = 0; v < d; v++) {
            ata[u * d + v] += cu * 2 * (ax[i * d + v] - ax[ref * d + v]);
          }
        }
      }
      double trace = 0;
      for (int u = 0; u < d; u++) {
        trace += ata[u * d + u];
      }
      for (int u = 0; u < d; u++) {
        ata[u * d + u] += 1e-9 * trace + 1e-12;
      }
      double[] y = solveSymmetric(ata, atb, d);
      if (y == null) {
        return null;
      }
      double[] x = new double[p];
      System.arraycopy(y, 0, x, 0, d);
      return x;
    }

    private int nearestAnchor() {
      int best = 0;
      for (int i = 1; i < m; i++) {
        if (dist[i] - ah[i] < dist[best] - ah[best]) {
          best = i;
        }
      }
      return best;
    }

    /** Just off the nearest anchor, towards the anchors' centroid. */
    private double[] nearestAnchorStart() {
      int ref = nearestAnchor();
      double[] x = new double[p];
      double[] c = new double[d];
      for (int i = 0; i < m; i++) {
        for (int k = 0; k < d; k++) {
          c[k] += ax[i * d + k] / m;
        }
      }
      double len = 0;
      for (int k = 0; k < d; k++) {
        double t = c[k] - ax[ref * d + k];
        len += t * t;
      }
      len = Math.sqrt(len);
      double r = Math.max(0, dist[ref] - ah[ref]) * 0.5;
      for (int k = 0; k < d; k++) {
        double dir = len > 1e-9 ? (c[k] - ax[ref * d + k]) / len : (k == 0 ? 1 : 0);
        x[k] = ax[ref * d + k] + dir * r;
      }
      return x;
    }

    private static double[] solveSymmetric(double[] a, double[] b, int n) {
      double[] l = a.clone();
      for (int j = 0; j < n; j++) {
        double s = l[j * n + j];
        for (int k = 0; k < j; k++) {
          s -= l[j * n + k] * l[j * n + k];
        }
        if (!(s > 0)) {
          return null;
        }
        double dj = Math.sqrt(s);
        l[j * n + j] = dj;
        for (int i = j + 1; i < n; i++) {
          double t = l[i * n + j];
          for (int k = 0; k < j; k++) {
            t -= l[i * n + k] * l[j * n + k];
          }
          l[i * n + j] = t / dj;
        }
      }
      double[] y = b.clone();
      for (int i = 0; i < n; i++) {
        double t = y[i];
        for (int k = 0; k < i; k++) {
          t -= l[i * n + k] * y[k];
        }
        y[i] = t / l[i * n + i];
      }
      for (int i = n - 1; i >= 0; i--) {
        double t = y[i];
        for (int k = i + 1; k < n; k++) {
          t -= l[k * n + i] * y[k];
        }
        y[i] = t / l[i * n + i];
      }
      for (double v : y) {
        if (!Double.isFinite(v)) {
          return null;
        }
      }
      return y;
    }
  }
}
