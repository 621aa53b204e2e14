package dev.reed.eval;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A measured RTT matrix (ms; row i to column j; NaN = missing) with node names. File format of
 * ../shared/data: N lines of N comma-separated values, no header, empty cell = missing; the
 * optional nodes file is {@code index,name} per line.
 */
public record RttMatrix(double[][] ms, List<String> names) {

  public RttMatrix {
    int n = ms.length;
    if (names.size() != n) {
      throw new IllegalArgumentException("one name per node expected: " + names.size() + " names, " + n + " rows");
    }
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
   * Loads a matrix. @throws IllegalArgumentException with file and line on a malformed file (not
   * square, not a number, negative or infinite RTT)
   */
  public static RttMatrix load(Path matrix, Path nodes) throws IOException {
    List<double[]> rows = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(matrix, StandardCharsets.UTF_8)) {
      String line;
      int lineNo = 0;
      while ((line = r.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        String[] cells = line.split(",", -1);
        double[] row = new double[cells.length];
        for (int j = 0; j < cells.length; j++) {
          String c = cells[j].trim();
          if (c.isEmpty()) {
            row[j] = Double.NaN;
            continue;
          }
          double v;
          try {
            v = Double.parseDouble(c);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(matrix + " line " + lineNo + " column " + (j + 1) + ": not a number: '" + c + "'");
          }
          if (!Double.isFinite(v) || v < 0) {
            throw new IllegalArgumentException(matrix + " line " + lineNo + " column " + (j + 1)
                + ": RTT must be finite and >= 0, got " + c);
          }
          row[j] = v;
        }
        rows.add(row);
      }
    }
    int n = rows.size();
    if (n < 3) {
      throw new IllegalArgumentException(matrix + ": need at least 3 nodes, got " + n);
    }
    double[][] ms = new double[n][];
    for (int i = 0; i < n; i++) {
      if (rows.get(i).length != n) {
        throw new IllegalArgumentException(matrix + ": not square: row " + (i + 1) + " has " + rows.get(i).length
            + " values, expected " + n);
      }
      ms[i] = rows.get(i);
      ms[i][i] = 0;
    }
    List<String> names = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      names.add("node" + i);
    }
    if (nodes != null) {
      int lineNo = 0;
      for (String line : Files.readAllLines(nodes, StandardCharsets.UTF_8)) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        int comma = line.indexOf(',');
        try {
          int idx = Integer.parseInt(line.substring(0, comma < 0 ? line.length() : comma).trim());
          if (idx < 0 || idx >= n) {
            throw new IllegalArgumentException(nodes + " line " + lineNo + ": index " + idx + " outside 0.." + (n - 1));
          }
          names.set(idx, comma < 0 ? "node" + idx : line.substring(comma + 1).trim());
        } catch (NumberFormatException e) {
          if (lineNo == 1) {
            continue; // a header line
          }
          throw new IllegalArgumentException(nodes + " line " + lineNo + ": expected index,name");
        }
      }
    }
    return new RttMatrix(ms, names);
  }
}
