package dev.reed.coordinates;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The measured-RTT matrix format of the evaluation data (NetLatency-Data, Zhu et al., IEEE/ACM
 * ToN): {@code matrix.csv} holds N rows of N comma-separated RTTs in milliseconds from row i to
 * column j, no header, an empty cell for a missing measurement; {@code nodes.csv} beside it holds
 * {@code index,name} lines after a header. The dataset's raw time slices
 * ({@code raw/PlanetLabData_t}) separate cells with tabs instead; a matrix whose first row has no
 * comma is read that way (cells split on any whitespace, so it can have no missing cells), so
 * analysts can evaluate a slice as published. The evaluator and the testbed's measured-matrix
 * world read the same files through this one parser. Parsing only: the caller opens the files, so
 * this module stays free of I/O.
 */
public final class RttMatrixCsv {
  private RttMatrixCsv() {}

  /**
   * Parses a matrix: missing cells are NaN, the diagonal is kept as written.
   *
   * @param name the file's name, for error messages
   * @throws IllegalArgumentException naming line and column: not a number, negative or infinite
   *     RTT, ragged or non-square rows, no rows
   */
  public static double[][] parseMatrix(BufferedReader in, String name) throws IOException {
    List<double[]> rows = new ArrayList<>();
    String line;
    int lineNo = 0;
    Boolean commas = null; // decided by the first row
    while ((line = in.readLine()) != null) {
      lineNo++;
      if (line.isBlank()) continue;
      if (commas == null) commas = line.indexOf(',') >= 0;
      String[] cells = commas ? line.split(",", -1) : line.strip().split("\\s+");
      double[] row = new double[cells.length];
      for (int j = 0; j < cells.length; j++) {
        String c = cells[j].strip();
        if (c.isEmpty()) {
          row[j] = Double.NaN;
          continue;
        }
        double v;
        try {
          v = Double.parseDouble(c);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(name + " line " + lineNo + " column " + (j + 1) + ": not a number: '" + abbreviated(c) + "'"
              + (commas ? "" : " (cells are separated by whitespace: the first row has no comma)"));
        }
        if (!(v >= 0) || Double.isInfinite(v)) {
          throw new IllegalArgumentException(name + " line " + lineNo + " column " + (j + 1)
              + ": RTT must be finite and >= 0, got " + abbreviated(c));
        }
        row[j] = v;
      }
      if (!rows.isEmpty() && row.length != rows.getFirst().length) {
        throw new IllegalArgumentException(name + " line " + lineNo + ": " + row.length + " values, expected "
            + rows.getFirst().length);
      }
      rows.add(row);
    }
    if (rows.isEmpty()) throw new IllegalArgumentException(name + " is empty");
    if (rows.size() != rows.getFirst().length) {
      throw new IllegalArgumentException(name + " is not square: " + rows.size() + " rows of " + rows.getFirst().length);
    }
    return rows.toArray(new double[0][]);
  }

  /** A cell as an error message quotes it: a wrong separator can make one cell a whole line. */
  private static String abbreviated(String cell) {
    return cell.length() <= 40 ? cell : cell.substring(0, 40) + "... (" + cell.length() + " characters)";
  }

  /**
   * Parses node names; a first line that does not start with an index is a header.
   *
   * @param n the matrix size
   * @return the name of every index; null where the file names none
   * @throws IllegalArgumentException naming the line: no index, index outside 0..n-1
   */
  public static String[] parseNodes(List<String> lines, int n, String name) {
    String[] names = new String[n];
    for (int k = 0; k < lines.size(); k++) {
      String line = lines.get(k);
      if (line.isBlank()) continue;
      int comma = line.indexOf(',');
      int idx;
      try {
        idx = Integer.parseInt(line.substring(0, comma < 0 ? line.length() : comma).strip());
      } catch (NumberFormatException e) {
        if (k == 0) continue; // the header
        throw new IllegalArgumentException(name + " line " + (k + 1) + ": expected index,name");
      }
      if (idx < 0 || idx >= n) {
        throw new IllegalArgumentException(name + " line " + (k + 1) + ": index " + idx + " outside 0.." + (n - 1));
      }
      if (comma >= 0) names[idx] = line.substring(comma + 1).strip();
    }
    return names;
  }
}
