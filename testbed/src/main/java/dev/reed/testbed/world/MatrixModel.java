package dev.reed.testbed.world;

import dev.reed.coordinates.RttMatrixCsv;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A measured RTT matrix as a latency model: the PlanetLab and Seattle matrices in
 * the repository's {@code data/} (NetLatency-Data, Zhu et al., IEEE/ACM ToN) or any file in the same
 * format. Replaying real measurements keeps their triangle-inequality violations, asymmetry and
 * missing pairs, which no synthetic model reproduces exactly.
 *
 * <p>Format of {@code matrix.csv}: N lines of N comma-separated values, RTT in ms from row i to
 * column j, no header, an empty cell means missing (returned as NaN), the diagonal is ignored.
 * An optional {@code nodes.csv} beside it ({@code index,name} with a header) names the hosts.
 * Immutable and thread-safe.
 */
public final class MatrixModel implements LatencyModel {
  private final int n;
  private final float[] rtt;
  private final Host[] hosts;

  private MatrixModel(int n, float[] rtt, List<String> labels) {
    this.n = n;
    this.rtt = rtt;
    this.hosts = new Host[n];
    for (int i = 0; i < n; i++) {
      hosts[i] = new Host(i, labels.get(i), Region.UNKNOWN, null, Double.NaN, Double.NaN);
    }
  }

  /**
   * Reads {@code matrix.csv} (and {@code nodes.csv} from the same directory if present).
   *
   * @throws IOException unreadable file, or a malformed matrix (the message names line and column)
   */
  public static MatrixModel load(Path matrixCsv) throws IOException {
    double[][] rows;
    try (BufferedReader r = Files.newBufferedReader(matrixCsv, StandardCharsets.UTF_8)) {
      rows = RttMatrixCsv.parseMatrix(r, matrixCsv.toString());
    } catch (IllegalArgumentException malformed) {
      throw new IOException(malformed.getMessage(), malformed);
    }
    int n = rows.length;
    float[] flat = new float[n * n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        flat[i * n + j] = (float) rows[i][j];
      }
    }
    Path nodes = matrixCsv.resolveSibling("nodes.csv");
    List<String> labels = Files.isRegularFile(nodes) ? readLabels(nodes, n) : defaultLabels(matrixCsv, n);
    return new MatrixModel(n, flat, labels);
  }

  /**
   * A model from an in-memory matrix (NaN = missing).
   *
   * @throws IllegalArgumentException not square, negative or infinite values
   */
  public static MatrixModel of(double[][] rttMs, List<String> labels) {
    int n = rttMs.length;
    if (n == 0) {
      throw new IllegalArgumentException("empty matrix");
    }
    float[] flat = new float[n * n];
    for (int i = 0; i < n; i++) {
      if (rttMs[i].length != n) {
        throw new IllegalArgumentException("row " + i + " has " + rttMs[i].length + " values, expected " + n);
      }
      for (int j = 0; j < n; j++) {
        double v = rttMs[i][j];
        if (!Double.isNaN(v) && (v < 0 || Double.isInfinite(v))) {
          throw new IllegalArgumentException("bad RTT at (" + i + "," + j + "): " + v);
        }
        flat[i * n + j] = (float) v;
      }
    }
    List<String> names = labels != null ? List.copyOf(labels) : defaultLabels(Path.of("matrix"), n);
    if (names.size() != n) {
      throw new IllegalArgumentException(names.size() + " labels for " + n + " hosts");
    }
    return new MatrixModel(n, flat, names);
  }

  private static List<String> readLabels(Path nodes, int n) throws IOException {
    String[] labels;
    try {
      labels = RttMatrixCsv.parseNodes(Files.readAllLines(nodes, StandardCharsets.UTF_8), n, nodes.toString());
    } catch (IllegalArgumentException malformed) {
      throw new IOException(malformed.getMessage(), malformed);
    }
    for (int i = 0; i < n; i++) {
      if (labels[i] == null) {
        throw new IOException(nodes + " has no name for index " + i);
      }
    }
    return List.of(labels);
  }

  private static List<String> defaultLabels(Path matrix, int n) {
    Path parent = matrix.toAbsolutePath().getParent();
    String base = parent != null && parent.getFileName() != null ? parent.getFileName().toString() : "node";
    List<String> labels = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      labels.add(base + "_" + i);
    }
    return labels;
  }

  @Override
  public int size() {
    return n;
  }

  @Override
  public Host host(int index) {
    return hosts[index];
  }

  @Override
  public double rttMs(int from, int to) {
    Objects.checkIndex(from, n);
    Objects.checkIndex(to, n);
    return from == to ? 0 : rtt[from * n + to];
  }
}
