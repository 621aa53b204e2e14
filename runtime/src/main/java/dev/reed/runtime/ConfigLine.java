package dev.reed.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * A meaningful line of one of the project's small line-based files (targets files, the
 * coordinator's API keys, browse's group files): they share the format, {@code #} starts a comment
 * and blank lines do not count.
 *
 * @param number the line's 1-based number in the file, for error messages
 * @param text the line without its comment, stripped; never empty
 */
public record ConfigLine(int number, String text) {

  /** The lines that say something, in file order. */
  public static List<ConfigLine> of(List<String> lines) {
    List<ConfigLine> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int hash = line.indexOf('#');
      if (hash >= 0) line = line.substring(0, hash);
      line = line.strip();
      if (!line.isEmpty()) out.add(new ConfigLine(i + 1, line));
    }
    return out;
  }
}
