package dev.reed.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * An operator's file (targets, deny list) that a long-running service re-reads when its
 * modification time changes, so an edit takes effect without a restart. A bad edit keeps the last
 * good contents: a typo must not empty a deny list or drop every target.
 *
 * <p>Not thread-safe: one thread refreshes it (the coordinator's round loop, an agent's round).
 */
public final class WatchedFile<T> {
  /** Reads the file; throws IllegalArgumentException for bad contents. */
  public interface Reader<T> {
    T read(Path file) throws IOException;
  }

  /** What a refresh did: {@code message} is null when the file did not change. */
  public record Refresh(String message, boolean failed) {}

  private final String what;
  private final Path file;
  private final Reader<T> reader;
  private final Function<T, String> describe;
  private T current;
  private long modified = Long.MIN_VALUE;
  private long attempted = Long.MIN_VALUE;
  private String lastFailure;

  /**
   * @param what names the file in messages, e.g. "deny file"
   * @param initial the contents until the first successful read
   * @param describe the contents in a message, e.g. "12 entries"
   */
  public WatchedFile(String what, Path file, Reader<T> reader, T initial, Function<T, String> describe) {
    this.what = what;
    this.file = file;
    this.reader = reader;
    this.current = initial;
    this.describe = describe;
  }

  /**
   * Re-reads the file if its modification time changed since the last attempt. A failure is
   * reported once, not every round, until the file changes again.
   */
  public Refresh refresh() {
    try {
      long m = Files.getLastModifiedTime(file).toMillis();
      if (m == attempted) return new Refresh(null, false);
      attempted = m;
      current = reader.read(file);
      modified = m;
      lastFailure = null;
      return new Refresh(what + " " + file + ": " + describe.apply(current), false);
    } catch (IOException | IllegalArgumentException e) {
      String message = what + " " + file + " not reloaded (keeping " + describe.apply(current) + "): " + e.getMessage();
      if (message.equals(lastFailure)) return new Refresh(null, false);
      lastFailure = message;
      return new Refresh(message, true);
    }
  }

  /** The contents as last read successfully. */
  public T current() {
    return current;
  }

  /** True once the file has been read successfully. */
  public boolean loaded() {
    return modified != Long.MIN_VALUE;
  }
}
