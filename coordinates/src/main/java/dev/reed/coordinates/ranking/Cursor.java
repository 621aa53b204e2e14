package dev.reed.coordinates.ranking;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Position in a ranking: the (predicted RTT, key) of the last server of a page; the next page starts
 * strictly after it. REED pages with the last server seen (S_last, Algorithm 4), as the Valve master
 * does; the key breaks ties so no server is skipped or repeated. The token is opaque to clients:
 * {@code r1.<hex of the double's bits>.<base64url key>}, exact for every double.
 */
public record Cursor(double predictedMs, String key) {

  private static final String PREFIX = "r1.";
  private static final int MAX_TOKEN = 4096;

  public Cursor {
    if (!Double.isFinite(predictedMs) || predictedMs < 0) {
      throw new IllegalArgumentException("cursor predictedMs must be finite and >= 0, got " + predictedMs);
    }
    if (key == null) {
      throw new IllegalArgumentException("cursor key must not be null");
    }
  }

  public String encode() {
    return PREFIX + Long.toHexString(Double.doubleToLongBits(predictedMs)) + "."
        + Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
  }

  /** @throws IllegalArgumentException when the token was not made by {@link #encode()} */
  public static Cursor decode(String token) {
    if (token == null || token.length() > MAX_TOKEN || !token.startsWith(PREFIX)) {
      throw new IllegalArgumentException("not a ranking cursor: " + abbreviate(token));
    }
    int dot = token.indexOf('.', PREFIX.length());
    if (dot < 0) {
      throw new IllegalArgumentException("not a ranking cursor: " + abbreviate(token));
    }
    try {
      long bits = Long.parseUnsignedLong(token.substring(PREFIX.length(), dot), 16);
      String key = new String(Base64.getUrlDecoder().decode(token.substring(dot + 1)), StandardCharsets.UTF_8);
      return new Cursor(Double.longBitsToDouble(bits), key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a ranking cursor: " + abbreviate(token) + " (" + e.getMessage() + ")", e);
    }
  }

  /** True when (predictedMs, key) comes strictly after this cursor. */
  public boolean isBefore(double otherPredictedMs, String otherKey) {
    int c = Double.compare(otherPredictedMs, predictedMs);
    return c > 0 || (c == 0 && otherKey.compareTo(key) > 0);
  }

  private static String abbreviate(String s) {
    if (s == null) {
      return "null";
    }
    return s.length() <= 40 ? "'" + s + "'" : "'" + s.substring(0, 40) + "...'";
  }
}
