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
 * File format: N lines of N comma-separated values, no header, empty cell = missing; the optional
 * nodes file is {@code index,name} per line or a header naming located columns ({@link NodeTable}).
 *
 * <p>The first {@link #hosts()} nodes are the measured hosts, which may serve as game servers and
 * landmarks; the nodes after them, if any, are players added near a host ({@link PlayerPopulation}):
 * clients only, never servers or landmarks.
 *
 * @param home each node's host: itself for a host, the host a player lives near for a player
 */
public record RttMatrix(double[][] ms, NodeTable nodes, int[] home) {

  public RttMatrix {
    int n = ms.length;
    if (nodes.size() != n) {
      throw new IllegalArgumentException("one node entry per row expected: " + nodes.size() + " nodes, " + n + " rows");
    }
    if (home.length != n) {
      throw new IllegalArgumentException("one home per node expected: " + home.length + " for " + n + " nodes");
    }
  }

  /** A matrix of hosts only. */
  public RttMatrix(double[][] ms, NodeTable nodes) {
    this(ms, nodes, java.util.stream.IntStream.range(0, ms.length).toArray());
  }

  /** Number of hosts: the nodes before the players. */
  public int hosts() {
    int h = 0;
    while (h < home.length && home[h] == h) {
      h++;
    }
    return h;
  }

  /** Whether node {@code v} is a player (a client near a host), not a host. */
  public boolean isPlayer(int v) {
    return home[v] != v;
  }

  /** The hosts alone, as a matrix of their own (the same indices). */
  public RttMatrix hostsOnly() {
    int h = hosts();
    if (h == ms.length) {
      return this;
    }
    double[][] sub = new double[h][];
    for (int i = 0; i < h; i++) {
      sub[i] = java.util.Arrays.copyOf(ms[i], h);
    }
    return new RttMatrix(sub, new NodeTable(nodes.nodes().subList(0, h)));
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
