package dev.reed.cli.browse;

import dev.reed.coordinates.Coordinate;
import dev.reed.proto.Endpoints;
import dev.reed.runtime.ConfigLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --group FILE} format: one member per line, {@code #} starts a comment.
 *
 * <pre>
 * alice  12.5 -3.0 40.1 7.0 h=2.5    # a coordinate (ms), as printed by ./reed browse --locate
 * bob    1,2,3,4                     # commas work too; no h= means height 0
 * me     @127.0.0.1:7400             # locate this machine now, against that coordinator
 * </pre>
 *
 * The id is optional when the line starts with a number.
 */
final class GroupFile {

  /** One member: a coordinate, or a coordinator to locate this machine against. */
  record Entry(String id, Coordinate coordinate, String locateVia) {}

  private GroupFile() {}

  static List<Entry> read(Path file) throws IOException {
    return parse(Files.readAllLines(file), file.toString());
  }

  /** @throws IllegalArgumentException naming the file, line and problem */
  static List<Entry> parse(List<String> lines, String source) {
    List<Entry> out = new ArrayList<>();
    for (ConfigLine l : ConfigLine.of(lines)) {
      try {
        out.add(entry(l.text(), out.size() + 1));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(source + ":" + l.number() + ": " + e.getMessage() + " in '"
            + lines.get(l.number() - 1).strip() + "'");
      }
    }
    if (out.isEmpty()) throw new IllegalArgumentException(source + ": no group members");
    if (out.size() > 64) throw new IllegalArgumentException(source + ": " + out.size() + " members, at most 64");
    return out;
  }

  private static Entry entry(String line, int index) {
    String[] tokens = line.replace(',', ' ').trim().split("\\s+");
    int i = 0;
    String id = "member-" + index;
    if (!isNumber(tokens[0])) {
      id = tokens[0];
      i = 1;
    }
    if (i >= tokens.length) throw new IllegalArgumentException("no coordinate or @HOST:PORT");
    if (tokens[i].startsWith("@")) {
      if (tokens.length != i + 1) throw new IllegalArgumentException("nothing may follow @HOST:PORT");
      String via = tokens[i].substring(1);
      Endpoints.hostPort(via, -1); // fails now, naming the text, rather than at the first probe
      return new Entry(id, null, via);
    }
    List<Double> comps = new ArrayList<>();
    double height = 0;
    for (; i < tokens.length; i++) {
      String t = tokens[i];
      if (t.startsWith("h=")) {
        height = number(t.substring(2));
      } else {
        comps.add(number(t));
      }
    }
    if (comps.isEmpty()) throw new IllegalArgumentException("no coordinate components");
    double[] c = comps.stream().mapToDouble(Double::doubleValue).toArray();
    return new Entry(id, new Coordinate(c, height), null);
  }

  private static boolean isNumber(String s) {
    try {
      Double.parseDouble(s);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static double number(String s) {
    try {
      double v = Double.parseDouble(s);
      if (!Double.isFinite(v)) throw new IllegalArgumentException("not a finite number: " + s);
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number: " + s);
    }
  }

  /** The line for a coordinate, in this format. */
  static String format(String id, Coordinate c) {
    StringBuilder sb = new StringBuilder(id);
    for (double x : c.components()) sb.append(' ').append(Math.round(x * 1000) / 1000.0);
    if (c.height() > 0) sb.append(" h=").append(Math.round(c.height() * 1000) / 1000.0);
    return sb.toString();
  }
}
