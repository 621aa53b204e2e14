package dev.reed.coordinates;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * How a model of parameters ({@code DiscoveryModel}, {@code EstimatorModel}) is read from a Java
 * properties file: {@code key = value} per line, {@code #} comments, keys not given keep their
 * defaults, and an unknown key or a bad value is an {@link IllegalArgumentException} naming the
 * file and the key.
 */
public final class ModelFile {
  private ModelFile() {}

  /** Reads {@code file} and builds the model with {@code of}, prefixing its errors with the file. */
  public static <T> T load(Path file, Function<Properties, T> of) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
    }
    try {
      return of.apply(p);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** Rejects keys outside {@code known}; {@code what} names the model in the message ("model", "estimator"). */
  public static void requireKnown(Properties p, Set<String> known, String what) {
    Set<String> unknown = new TreeSet<>(p.stringPropertyNames());
    unknown.removeAll(known);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown " + what + " key(s) " + unknown + "; known: " + new TreeSet<>(known));
    }
  }

  /** The integer at {@code key}, or {@code dflt} when absent. */
  public static int integer(Properties p, String key, int dflt) {
    String v = p.getProperty(key);
    try {
      return v == null ? dflt : Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'");
    }
  }

  /** The number at {@code key}, or {@code dflt} when absent (NaN and infinities parse; the model validates them). */
  public static double real(Properties p, String key, double dflt) {
    String v = p.getProperty(key);
    try {
      return v == null ? dflt : Double.parseDouble(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number, got '" + v + "'");
    }
  }
}
