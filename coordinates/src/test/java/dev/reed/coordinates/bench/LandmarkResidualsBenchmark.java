package dev.reed.coordinates.bench;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.integrity.LandmarkResiduals;
import dev.reed.coordinates.integrity.QuarantineConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The coordinator leader's lying-landmark check per landmark round: 15 landmarks in 4-D, the default
 * 200 sampled servers, RTTs with 10 % noise: one {@link LandmarkResiduals#measure} (15 x 200 leave-one-out
 * server fits and 15 landmark fits).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@Threads(1)
public class LandmarkResidualsBenchmark {
  LandmarkResiduals residuals;
  List<String> ids;
  double[][] mesh;
  Map<String, Coordinate> trusted;
  double[][] min;
  double[][] spread;

  @Setup
  public void setUp() {
    SplittableRandom r = new SplittableRandom(18);
    int l = 15;
    int s = 200;
    double[][] lm = BenchWorld.centres(l, 4, r);
    ids = new ArrayList<>();
    trusted = new HashMap<>();
    for (int k = 0; k < l; k++) {
      ids.add("l" + k);
      trusted.put("l" + k, new Coordinate(lm[k], 0));
    }
    mesh = new double[l][l];
    for (int i = 0; i < l; i++) for (int j = 0; j < l; j++) mesh[i][j] = i == j ? 0 : dist(lm[i], lm[j]) * (1 + 0.1 * r.nextDouble());
    min = new double[s][l];
    spread = new double[s][l];
    for (int i = 0; i < s; i++) {
      double[] p = BenchWorld.centres(1, 4, r)[0];
      for (int k = 0; k < l; k++) {
        min[i][k] = 1 + dist(p, lm[k]) * (1 + 0.1 * r.nextDouble());
        spread[i][k] = r.nextDouble() * 3;
      }
    }
    residuals = new LandmarkResiduals(new HostPositioner(CoordinateConfig.defaults()), QuarantineConfig.defaults());
  }

  private static double dist(double[] a, double[] b) {
    double d = 0;
    for (int i = 0; i < a.length; i++) d += (a[i] - b[i]) * (a[i] - b[i]);
    return Math.sqrt(d);
  }

  @Benchmark
  public Object oneCheck() {
    return residuals.measure(ids, mesh, trusted, min, spread);
  }
}
