package dev.reed.cli.browse;

import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The browse report's JSON: a fluent face on Gson's streaming {@link JsonWriter}, which does the
 * structure and the string escaping. Numbers keep three decimals; NaN and infinities become null
 * (JSON has neither).
 */
final class Json {
  private final StringWriter buffer = new StringWriter();
  private final JsonWriter w = new JsonWriter(buffer);

  /** Starts an object as a value (top level or array element). */
  Json open() {
    return write(() -> w.beginObject());
  }

  /** Starts an object under a key. */
  Json object(String key) {
    return write(() -> w.name(key).beginObject());
  }

  Json close() {
    return write(() -> w.endObject());
  }

  Json array(String key) {
    return write(() -> w.name(key).beginArray());
  }

  Json closeArray() {
    return write(() -> w.endArray());
  }

  Json field(String key, String value) {
    return write(() -> w.name(key).value(value));
  }

  Json field(String key, long value) {
    return write(() -> w.name(key).value(value));
  }

  Json field(String key, boolean value) {
    return write(() -> w.name(key).value(value));
  }

  Json field(String key, double value) {
    write(() -> w.name(key));
    return value(value);
  }

  /** A number as an array element (or after a key). */
  Json value(double v) {
    return write(() -> {
      if (Double.isFinite(v)) {
        w.value(Math.round(v * 1000) / 1000.0);
      } else {
        w.nullValue();
      }
    });
  }

  @Override
  public String toString() {
    return buffer.toString();
  }

  private interface Step {
    void run() throws IOException;
  }

  private Json write(Step step) {
    try {
      step.run(); // a StringWriter does not fail; JsonWriter throws only on misuse (IllegalStateException)
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }
}
