package dev.reed.coordinates.bench;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.ServerAttributes;
import dev.reed.coordinates.ranking.ServerEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthetic game-server worlds for the benchmarks: servers clustered like real ones (a few dense
 * regions, many small ones), coordinates in ms, deterministic in the seed.
 */
final class BenchWorld {
  private BenchWorld() {}

  static double[][] centres(int count, int d, SplittableRandom r) {
    double[][] c = new double[count][d];
    for (double[] row : c) {
      for (int k = 0; k < d; k++) {
        row[k] = (r.nextDouble() - 0.5) * 300;
      }
    }
    return c;
  }

  static Coordinate near(double[] centre, double spread, boolean height, SplittableRandom r) {
    double[] x = new double[centre.length];
    for (int k = 0; k < x.length; k++) {
      x[k] = centre[k] + r.nextGaussian() * spread;
    }
    return new Coordinate(x, height ? r.nextDouble() * 8 : 0);
  }

  static List<ServerEntry> servers(int n, int d, boolean height, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[][] c = centres(40, d, r);
    String[] games = {"openarena", "cstrike", "tf", "q3"};
    List<ServerEntry> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      // skewed: low-numbered centres (Europe, North America) hold most servers
      int ci = (int) Math.min(c.length - 1, Math.abs(r.nextGaussian()) * 8);
      int max = 8 + r.nextInt(25);
      out.add(new ServerEntry("10." + (i >> 16) + "." + ((i >> 8) & 255) + "." + (i & 255) + ":27960",
          near(c[ci], 12, height, r),
          new ServerAttributes(games[r.nextInt(games.length)], "dm" + r.nextInt(6), r.nextInt(max + 1), max,
              r.nextInt(10) == 0, 68)));
    }
    return out;
  }

  static List<Coordinate> clients(int n, int d, boolean height, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[][] c = centres(40, d, new SplittableRandom(seed - 1));
    List<Coordinate> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(near(c[(int) Math.min(c.length - 1, Math.abs(r.nextGaussian()) * 8)], 20, height, r));
    }
    return out;
  }
}
