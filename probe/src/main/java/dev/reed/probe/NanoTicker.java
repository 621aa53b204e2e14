package dev.reed.probe;

/** A monotonic nanosecond source: {@code System.nanoTime} in production, a fake in tests. */
@FunctionalInterface
public interface NanoTicker {
  NanoTicker SYSTEM = System::nanoTime;

  long read();
}
