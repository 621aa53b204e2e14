package dev.reed.client.browse;

/** A minimal JSON writer for the browse report (objects, arrays, strings, numbers; no dependencies). */
final class Json {
  private final StringBuilder sb = new StringBuilder();
  private boolean needComma;
  private boolean afterKey;

  /** Starts an object as a value (top level or array element). */
  Json open() {
    beforeValue();
    sb.append('{');
    needComma = false;
    return this;
  }

  /** Starts an object under a key. */
  Json object(String key) {
    key(key);
    return open();
  }

  Json close() {
    sb.append('}');
    needComma = true;
    return this;
  }

  Json array(String key) {
    key(key);
    beforeValue();
    sb.append('[');
    needComma = false;
    return this;
  }

  Json closeArray() {
    sb.append(']');
    needComma = true;
    return this;
  }

  Json field(String key, String value) {
    key(key);
    beforeValue();
    string(value);
    needComma = true;
    return this;
  }

  Json field(String key, long value) {
    key(key);
    beforeValue();
    sb.append(value);
    needComma = true;
    return this;
  }

  Json field(String key, boolean value) {
    key(key);
    beforeValue();
    sb.append(value);
    needComma = true;
    return this;
  }

  /** Non-finite numbers become null (JSON has no NaN); three decimals. */
  Json field(String key, double value) {
    key(key);
    return value(value);
  }

  /** A number as an array element (or after a key). */
  Json value(double v) {
    beforeValue();
    if (!Double.isFinite(v)) sb.append("null");
    else sb.append(Math.round(v * 1000) / 1000.0);
    needComma = true;
    return this;
  }

  private void key(String k) {
    beforeValue();
    string(k);
    sb.append(':');
    afterKey = true;
  }

  private void beforeValue() {
    if (afterKey) {
      afterKey = false;
      return;
    }
    if (needComma) sb.append(',');
  }

  private void string(String s) {
    if (s == null) {
      sb.append("null");
      return;
    }
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) && !validSurrogate(s, i)) sb.append(String.format("\\u%04x", (int) c));
          else sb.append(c);
        }
      }
    }
    sb.append('"');
  }

  private static boolean validSurrogate(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  @Override
  public String toString() {
    return sb.toString();
  }
}
