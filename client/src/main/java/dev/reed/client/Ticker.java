package dev.reed.client;

/** Monotonic nanoseconds, injectable so tests control time-dependent decisions. */
@FunctionalInterface
interface Ticker {
  long nanos();

  Ticker SYSTEM = System::nanoTime;
}
