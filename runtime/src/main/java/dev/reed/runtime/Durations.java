package dev.reed.runtime;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration grammar of every command: {@code 5m}, {@code 30s}, {@code 1h30m},
 * {@code 250ms}, {@code 1.5s}, {@code 2d} (units in either case), or ISO-8601 ({@code PT5M}).
 */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)");

  private Durations() {}

  /**
   * @throws IllegalArgumentException naming the text and the accepted forms
   */
  public static Duration parse(String text) {
    if (text == null || text.isBlank()) throw new IllegalArgumentException("empty duration; expected e.g. 30s, 5m, 1h30m, 250ms");
    String s = text.strip();
    if (s.startsWith("P") || s.startsWith("p")) {
      try {
        return Duration.parse(s);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("invalid duration '" + text + "': " + e.getMessage());
      }
    }
    s = s.toLowerCase(Locale.ROOT);
    Matcher m = PART.matcher(s);
    int pos = 0;
    long nanos = 0;
    while (pos < s.length()) {
      if (!m.find(pos) || m.start() != pos) {
        throw new IllegalArgumentException("invalid duration '" + text + "': expected e.g. 30s, 5m, 1h30m, 250ms, PT5M");
      }
      double v = Double.parseDouble(m.group(1));
      long unit = switch (m.group(2)) {
        case "ms" -> 1_000_000L;
        case "s" -> 1_000_000_000L;
        case "m" -> 60_000_000_000L;
        case "h" -> 3_600_000_000_000L;
        default -> 86_400_000_000_000L;
      };
      double add = v * unit;
      if (add > Long.MAX_VALUE / 2.0 || nanos + add > Long.MAX_VALUE / 2.0) {
        throw new IllegalArgumentException("duration '" + text + "' is too long");
      }
      nanos += (long) add;
      pos = m.end();
    }
    return Duration.ofNanos(nanos);
  }

  /**
   * The short form {@link #parse} reads back, e.g. {@code 1h30m}, {@code 250ms}: what help texts
   * show as a default.
   */
  public static String format(Duration d) {
    if (d.isZero()) return "0s";
    StringBuilder out = new StringBuilder();
    long ms = d.toMillis();
    long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
    String[] names = {"d", "h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      if (ms >= units[i]) {
        out.append(ms / units[i]).append(names[i]);
        ms %= units[i];
      }
    }
    return out.toString();
  }
}
