package dev.reed.cli.demo;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The demo's terminal progress: one line per phase or round, prefixed with the time since the
 * demo started, so a user watching sees what is happening and how long each step takes.
 */
final class Progress {
  private final PrintWriter out;
  private final LongSupplier nanos;
  private final long start;

  /** @param nanos monotonic time source ({@code System::nanoTime} outside tests) */
  Progress(PrintWriter out, LongSupplier nanos) {
    this.out = out;
    this.nanos = nanos;
    this.start = nanos.getAsLong();
  }

  /** Seconds since the demo started. */
  double elapsed() {
    return (nanos.getAsLong() - start) / 1e9;
  }

  /** A monotonic timestamp, for measuring a phase. */
  long now() {
    return nanos.getAsLong();
  }

  /** Seconds since {@code since} (a value of {@link #now()}). */
  double secondsSince(long since) {
    return (nanos.getAsLong() - since) / 1e9;
  }

  /** A progress line: {@code [  12.3 s] text}. */
  void line(String format, Object... args) {
    out.printf(Locale.ROOT, "[%6.1f s] %s%n", elapsed(), String.format(Locale.ROOT, format, args));
    out.flush();
  }

  /** Text without the time prefix (tables, notes). */
  void plain(String text) {
    out.println(text);
    out.flush();
  }
}
