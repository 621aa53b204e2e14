package dev.reed.coordinates;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * How a model of parameters ({@code DiscoveryModel}, {@code EstimatorModel}, {@code ReportConfig},
 * {@code IntegrityConfig}) is read from a Java properties file: {@code key = value} per line,
 * {@code #} comments, one key per record component named as the component, keys not given keep
 * their defaults, and an unknown key or a bad value is an {@link IllegalArgumentException} naming
 * the file and the key.
 */
public final class ModelFile {
  private ModelFile() {}

  /**
   * Reads {@code file} into a {@code type} record: each key sets the component of its name, the
   * others keep {@code defaults}' values; the record's constructor checks the result.
   *
   * @throws IllegalArgumentException naming the file when it does not exist or cannot be read, and
   *     the key of an unknown key (with the allowed ones) or a bad value
   */
  public static <R extends Record> R load(Path file, Class<R> type, R defaults) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(file + ": no such file");
    }
    try {
      return load(file, p -> of(p, type, defaults));
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  /**
   * What a command's {@code option FILE} gives: {@code defaults} without a file, else the file read
   * as {@link #load(Path, Class, Record)} does, its errors prefixed with the option
   * ({@code --reports-config r.properties: unknown key speed; allowed: ...}).
   */
  @SuppressWarnings("unchecked")
  public static <R extends Record> R option(String option, Path file, R defaults) {
    if (file == null) return defaults;
    try {
      return load(file, (Class<R>) defaults.getClass(), defaults);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + " " + e.getMessage(), e);
    }
  }

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

  /** A {@code type} record from properties (see {@link #load(Path, Class, Record)}). */
  public static <R extends Record> R of(Properties p, Class<R> type, R defaults) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String k : p.stringPropertyNames()) values.put(k, p.getProperty(k));
    return with(defaults, values);
  }

  /**
   * {@code base} with the components named in {@code changes} replaced by their parsed values
   * (numbers, {@code true/false/on/off/yes/no}, enum constants in any case, text).
   */
  @SuppressWarnings("unchecked")
  public static <R extends Record> R with(R base, Map<String, String> changes) {
    Class<R> type = (Class<R>) base.getClass();
    RecordComponent[] components = type.getRecordComponents();
    requireKnown(changes.keySet(), keys(type), "key");
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent c = components[i];
      String text = changes.get(c.getName());
      args[i] = text == null ? get(c, base) : parse(c.getName(), c.getType(), text.strip());
    }
    try {
      return type.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new))
          .newInstance(args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IllegalArgumentException bad) throw bad;
      throw new IllegalStateException(type.getSimpleName() + ": " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(type.getSimpleName() + " is not a public record", e);
    }
  }

  /** The keys of a {@code type} file: its components' names, in declaration order. */
  public static List<String> keys(Class<? extends Record> type) {
    return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
  }

  /** {@code record} as a properties file would hold it (every key). */
  public static Properties toProperties(Record record) {
    Properties p = new Properties();
    for (RecordComponent c : record.getClass().getRecordComponents()) {
      Object v = get(c, record);
      p.setProperty(c.getName(), v instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : String.valueOf(v));
    }
    return p;
  }

  private static void requireKnown(Set<String> given, java.util.Collection<String> known, String what) {
    Set<String> unknown = new TreeSet<>(given);
    unknown.removeAll(known);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown " + what + (unknown.size() == 1 ? " " : "s ")
          + String.join(", ", unknown) + "; allowed: " + String.join(", ", known));
    }
  }

  private static Object get(RecordComponent c, Record r) {
    try {
      return c.getAccessor().invoke(r);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(r.getClass().getSimpleName() + "." + c.getName(), e);
    }
  }

  private static Object parse(String key, Class<?> type, String v) {
    try {
      if (type == int.class) return Integer.parseInt(v);
      if (type == long.class) return Long.parseLong(v);
      if (type == double.class) return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be " + (type == double.class ? "a number" : "a whole number")
          + ", got '" + v + "'");
    }
    if (type == boolean.class) {
      return switch (v.toLowerCase(Locale.ROOT)) {
        case "true", "on", "yes" -> true;
        case "false", "off", "no" -> false;
        default -> throw new IllegalArgumentException(key + " must be true or false, got '" + v + "'");
      };
    }
    if (type.isEnum()) {
      for (Object constant : type.getEnumConstants()) {
        if (((Enum<?>) constant).name().equalsIgnoreCase(v)) return constant;
      }
      throw new IllegalArgumentException(key + " must be one of " + Arrays.stream(type.getEnumConstants())
          .map(e -> ((Enum<?>) e).name().toLowerCase(Locale.ROOT)).toList() + ", got '" + v + "'");
    }
    if (type == String.class) return v;
    throw new IllegalStateException(key + ": no file syntax for " + type.getSimpleName());
  }
}
