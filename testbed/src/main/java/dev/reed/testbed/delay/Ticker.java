package dev.reed.testbed.delay;

/** A source of monotonic nanoseconds, injected so time can be controlled where that matters. */
@FunctionalInterface
public interface Ticker {
  Ticker SYSTEM = System::nanoTime;

  long nanoTime();
}
