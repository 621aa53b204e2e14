package dev.reed.eval;

import dev.reed.coordinates.RttMatrixCsv;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A measured RTT matrix (ms; row i to column j; NaN = missing) with what is known of its nodes.
 * File format of ../shared/data: N lines of N comma-separated values, no header, empty cell =
 * missing; the optional nodes file is {@code index,name} per line or a header naming located
 * columns ({@link NodeTable}).
 */
public record RttMatrix(double[][] ms, NodeTable nodes) {

  public RttMatrix {
    int n = ms.length;
    if (nodes.size() != n) {
      throw new IllegalArgumentException("one node entry per row expected: " + nodes.size() + " nodes, " + n + " rows");
    }
  }

  /** Every node's name. */
  public List<String> names() {
    return nodes.names();
  }

  public int size() {
    return ms.length;
  }

  /** RTT from a to b, falling back to b to a when only that direction was measured; NaN if neither. */
  public double rtt(int a, int b) {
    double v = ms[a][b];
    return Double.isNaN(v) ? ms[b][a] : v;
  }

  /** Symmetric view of the RTT between a and b (mean of both directions when both exist). */
  public double symmetric(int a, int b) {
    double x = ms[a][b];
    double y = ms[b][a];
    if (Double.isNaN(x)) {
      return y;
    }
    return Double.isNaN(y) ? x : 0.5 * (x + y);
  }

  /** Sub-matrix of the given nodes (in that order). */
  public double[][] sub(int[] idx) {
    double[][] out = new double[idx.length][idx.length];
    for (int a = 0; a < idx.length; a++) {
      for (int b = 0; b < idx.length; b++) {
        out[a][b] = a == b ? 0 : ms[idx[a]][idx[b]];
      }
    }
    return out;
  }

  /**
   * Loads a matrix and its optional nodes file. @throws IllegalArgumentException with file and
   * line on a malformed file (not square, not a number, negative or infinite RTT; a bad node column)
   */
  public static RttMatrix load(Path matrix, Path nodes) throws IOException {
    double[][] ms;
    try (BufferedReader r = Files.newBufferedReader(matrix, StandardCharsets.UTF_8)) {
      ms = RttMatrixCsv.parseMatrix(r, matrix.toString());
    }
    int n = ms.length;
    if (n < 3) {
      throw new IllegalArgumentException(matrix + ": need at least 3 nodes, got " + n);
    }
    for (int i = 0; i < n; i++) {
      ms[i][i] = 0;
    }
    NodeTable table = nodes == null ? NodeTable.unnamed(n)
        : NodeTable.parse(Files.readAllLines(nodes, StandardCharsets.UTF_8), n, nodes.toString());
    return new RttMatrix(ms, table);
  }
}
