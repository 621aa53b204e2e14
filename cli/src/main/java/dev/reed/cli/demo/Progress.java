package dev.reed.cli.demo;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The demo's terminal progress: one line per phase or round, prefixed with the time since the
 * demo started, so a user watching sees what is happening and how long each step takes. Phases
 * run side by side (traditional discovery beside REED's), so lines are printed whole.
 */
final class Progress {
  private final PrintWriter out;
  private final LongSupplier nanos;
  private final long start;
  private volatile long lastLine;

  /** @param nanos monotonic time source ({@code System::nanoTime} outside tests) */
  Progress(PrintWriter out, LongSupplier nanos) {
    this.out = out;
    this.nanos = nanos;
    this.start = nanos.getAsLong();
    this.lastLine = start;
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

  /** Seconds since the last line was printed (or the start). */
  double secondsSinceLastLine() {
    return secondsSince(lastLine);
  }

  /** A progress line: {@code [  12.3 s] text}. */
  void line(String format, Object... args) {
    String text = String.format(Locale.ROOT, format, args);
    synchronized (out) {
      out.printf(Locale.ROOT, "[%6.1f s] %s%n", elapsed(), text);
      out.flush();
      lastLine = nanos.getAsLong();
    }
  }

  /** Text without the time prefix (tables, notes). */
  void plain(String text) {
    synchronized (out) {
      out.println(text);
      out.flush();
    }
  }
}
