package dev.reed.eval;

import dev.reed.coordinates.RttMatrixCsv;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What {@code --nodes} says about each node of the matrix: its name and, where the file has the
 * columns, its location, country, AS number and region. Two layouts: {@code index,name} lines
 * (an optional header; the name is the rest of the line), or a header naming the columns, of which
 * {@code index} is required and {@code name}, {@code lat}, {@code lon}, {@code country},
 * {@code asn}, {@code region} are read (other columns are ignored; {@code lat} and {@code lon} come
 * together). An empty cell is unknown for that node; cells are split on every comma (no quoting).
 *
 * @param nodes one entry per matrix row
 */
public record NodeTable(List<Node> nodes) {

  /**
   * One node.
   *
   * @param name its name ({@code node<i>} when the file names none)
   * @param location where it is, or null
   * @param country ISO 3166 alpha-2 code (upper case), or null
   * @param asn its AS number, or 0 when unknown (AS 0 is reserved, RFC 7607)
   * @param region a region label (for example a continent code), or null
   */
  public record Node(String name, GeoPoint location, String country, long asn, String region) {}

  /** Columns the located layout reads. */
  static final Set<String> COLUMNS = Set.of("index", "name", "lat", "lon", "country", "asn", "region");

  public NodeTable {
    nodes = List.copyOf(nodes);
  }

  /** Nodes named {@code node0..} and nothing else known. */
  static NodeTable unnamed(int n) {
    List<Node> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new Node("node" + i, null, null, 0, null));
    }
    return new NodeTable(out);
  }

  int size() {
    return nodes.size();
  }

  Node node(int i) {
    return nodes.get(i);
  }

  List<String> names() {
    return nodes.stream().map(Node::name).toList();
  }

  boolean hasLocations() {
    return nodes.stream().anyMatch(v -> v.location() != null);
  }

  boolean hasCountries() {
    return nodes.stream().anyMatch(v -> v.country() != null);
  }

  boolean hasAsns() {
    return nodes.stream().anyMatch(v -> v.asn() != 0);
  }

  boolean hasRegions() {
    return nodes.stream().anyMatch(v -> v.region() != null);
  }

  /**
   * Parses a nodes file for a matrix of {@code n} nodes.
   *
   * @param name the file's name, for error messages
   * @throws IllegalArgumentException naming the file, line and column of a bad value
   */
  static NodeTable parse(List<String> lines, int n, String name) {
    int first = 0;
    while (first < lines.size() && lines.get(first).isBlank()) {
      first++;
    }
    List<String> header = first < lines.size() ? cells(lines.get(first)) : List.of();
    boolean located = !header.isEmpty() && header.getFirst().equalsIgnoreCase("index")
        && !(header.size() == 2 && header.get(1).equalsIgnoreCase("name"));
    if (!located) {
      // index,name: the name is the rest of the line (it may hold commas)
      String[] named = RttMatrixCsv.parseNodes(lines, n, name);
      NodeTable plain = unnamed(n);
      List<Node> out = new ArrayList<>(plain.nodes());
      for (int i = 0; i < n; i++) {
        if (named[i] != null) {
          out.set(i, new Node(named[i], null, null, 0, null));
        }
      }
      return new NodeTable(out);
    }
    Map<String, Integer> col = new TreeMap<>();
    for (int c = 0; c < header.size(); c++) {
      String h = header.get(c).toLowerCase(Locale.ROOT);
      if (COLUMNS.contains(h) && col.put(h, c) != null) {
        throw new IllegalArgumentException(name + " line " + (first + 1) + ": column '" + h + "' twice");
      }
    }
    if (col.containsKey("lat") != col.containsKey("lon")) {
      throw new IllegalArgumentException(name + " line " + (first + 1) + ": columns lat and lon come together");
    }
    Node[] out = new Node[n];
    for (int k = first + 1; k < lines.size(); k++) {
      String line = lines.get(k);
      if (line.isBlank()) {
        continue;
      }
      String where = name + " line " + (k + 1);
      List<String> cells = cells(line);
      if (cells.size() != header.size()) {
        throw new IllegalArgumentException(where + ": " + cells.size() + " cells, the header has " + header.size());
      }
      int idx;
      try {
        idx = Integer.parseInt(cells.get(col.get("index")));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(where + ": index is not an integer: '" + cells.get(col.get("index")) + "'");
      }
      if (idx < 0 || idx >= n) {
        throw new IllegalArgumentException(where + ": index " + idx + " outside 0.." + (n - 1));
      }
      if (out[idx] != null) {
        throw new IllegalArgumentException(where + ": index " + idx + " listed twice");
      }
      String nodeName = cell(cells, col, "name");
      out[idx] = new Node(nodeName == null ? "node" + idx : nodeName, location(cells, col, where), country(cells, col, where),
          asn(cells, col, where), cell(cells, col, "region"));
    }
    for (int i = 0; i < n; i++) {
      if (out[i] == null) {
        out[i] = new Node("node" + i, null, null, 0, null);
      }
    }
    return new NodeTable(Arrays.asList(out));
  }

  private static List<String> cells(String line) {
    return Arrays.stream(line.split(",", -1)).map(String::strip).toList();
  }

  /** The cell of that column, or null when the file has no such column or the cell is empty. */
  private static String cell(List<String> cells, Map<String, Integer> col, String column) {
    Integer c = col.get(column);
    if (c == null || cells.get(c).isEmpty()) {
      return null;
    }
    return cells.get(c);
  }

  private static GeoPoint location(List<String> cells, Map<String, Integer> col, String where) {
    String lat = cell(cells, col, "lat");
    String lon = cell(cells, col, "lon");
    if (lat == null && lon == null) {
      return null;
    }
    if (lat == null || lon == null) {
      throw new IllegalArgumentException(where + ": lat and lon must both be given or both be empty");
    }
    double a = degrees(lat, "lat", where);
    double o = degrees(lon, "lon", where);
    if (a < -90 || a > 90) {
      throw new IllegalArgumentException(where + ": lat must be -90..90, got " + lat);
    }
    if (o < -180 || o > 180) {
      throw new IllegalArgumentException(where + ": lon must be -180..180, got " + lon);
    }
    return new GeoPoint(a, o);
  }

  private static double degrees(String v, String column, String where) {
    double d;
    try {
      d = Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(where + ": " + column + " is not a number: '" + v + "'");
    }
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException(where + ": " + column + " must be finite, got " + v);
    }
    return d;
  }

  private static String country(List<String> cells, Map<String, Integer> col, String where) {
    String c = cell(cells, col, "country");
    if (c != null && !c.matches("[A-Za-z]{2}")) {
      throw new IllegalArgumentException(where + ": country must be an ISO 3166 alpha-2 code such as DE, got '" + c + "'");
    }
    return c == null ? null : c.toUpperCase(Locale.ROOT);
  }

  private static long asn(List<String> cells, Map<String, Integer> col, String where) {
    String a = cell(cells, col, "asn");
    if (a == null) {
      return 0;
    }
    String digits = a.regionMatches(true, 0, "AS", 0, 2) ? a.substring(2) : a;
    long v;
    try {
      v = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      v = -1;
    }
    if (v < 1 || v > 4_294_967_295L) {
      throw new IllegalArgumentException(where + ": asn must be an AS number 1..4294967295 (optionally AS...), got '" + a + "'");
    }
    return v;
  }
}
