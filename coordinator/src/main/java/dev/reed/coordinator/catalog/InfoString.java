package dev.reed.coordinator.catalog;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Quake III {@code \key\value} info strings (ioquake3 {@code Info_ValueForKey}); keys compared case-insensitively. */
final class InfoString {
  private InfoString() {}

  static Map<String, String> parse(String s) {
    Map<String, String> out = new LinkedHashMap<>();
    String[] parts = s.split("\\\\", -1);
    int start = parts.length > 0 && parts[0].isEmpty() ? 1 : 0;
    for (int i = start; i + 1 < parts.length; i += 2) out.put(parts[i].toLowerCase(Locale.ROOT), parts[i + 1]);
    return out;
  }
}
