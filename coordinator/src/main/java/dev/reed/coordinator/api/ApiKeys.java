package dev.reed.coordinator.api;

import dev.reed.runtime.ConfigLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * API keys and their request rates, from a file of {@code KEY [requests-per-second]} lines
 * ({@code #} comments; no rate = {@link #DEFAULT_RATE}). Keys must be at least 16 characters so a
 * guessed key is not a real risk.
 */
public record ApiKeys(Map<String, Double> ratePerKey) {
  public static final double DEFAULT_RATE = 100;

  public ApiKeys {
    ratePerKey = Map.copyOf(ratePerKey);
  }

  /** @throws IllegalArgumentException naming the file and line */
  public static ApiKeys read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    Map<String, Double> out = new HashMap<>();
    for (ConfigLine l : ConfigLine.of(lines)) {
      String[] parts = l.text().split("\\s+");
      String where = file + ":" + l.number() + ": ";
      if (parts.length > 2) throw new IllegalArgumentException(where + "expected 'KEY [requests-per-second]'");
      if (parts[0].length() < 16) throw new IllegalArgumentException(where + "key shorter than 16 characters");
      double rate = DEFAULT_RATE;
      if (parts.length == 2) {
        try {
          rate = Double.parseDouble(parts[1]);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(where + "bad rate '" + parts[1] + "'");
        }
        if (!(rate > 0) || !Double.isFinite(rate)) throw new IllegalArgumentException(where + "rate must be > 0");
      }
      if (out.put(parts[0], rate) != null) throw new IllegalArgumentException(where + "duplicate key");
    }
    if (out.isEmpty()) throw new IllegalArgumentException(file + ": no keys");
    return new ApiKeys(out);
  }

  /** The configured key equal to {@code presented}, compared in constant time; null if none. */
  String match(String presented) {
    byte[] p = presented.getBytes(StandardCharsets.UTF_8);
    String found = null;
    for (String k : ratePerKey.keySet()) {
      if (MessageDigest.isEqual(p, k.getBytes(StandardCharsets.UTF_8))) found = k;
    }
    return found;
  }
}
