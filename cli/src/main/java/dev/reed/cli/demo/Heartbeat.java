package dev.reed.cli.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A progress line at least every {@link #QUIET_SECONDS} during the demo's long phases (a
 * measurement round, traditional discovery, the waits for the coordinator), naming what is still
 * running and how far it is, so a user never watches a silent terminal for long.
 */
final class Heartbeat implements AutoCloseable {
  /** Seconds without a progress line after which a heartbeat is printed. */
  static final double QUIET_SECONDS = 8;

  private final Progress progress;
  private final Map<Activity, Supplier<String>> running = new LinkedHashMap<>();
  private ScheduledExecutorService timer;

  Heartbeat(Progress progress) {
    this.progress = progress;
  }

  /** Checks once a second from a daemon thread (tests call {@link #beat()} themselves). */
  Heartbeat start() {
    timer = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().name("reed-demo-heartbeat").daemon().unstarted(r));
    timer.scheduleWithFixedDelay(this::beat, 1, 1, TimeUnit.SECONDS);
    return this;
  }

  /**
   * An activity the heartbeat reports until it is closed.
   *
   * @param status what it is doing now, e.g. "2,100 of 15,000 probes"; called from the heartbeat's thread
   */
  Activity begin(String name, Supplier<String> status) {
    Activity a = new Activity(name, progress.now());
    synchronized (running) {
      running.put(a, status);
    }
    return a;
  }

  Activity begin(String name) {
    return begin(name, () -> "");
  }

  /** Prints a line naming every running activity (if any) when nothing was printed for {@link #QUIET_SECONDS}. */
  void beat() {
    if (progress.secondsSinceLastLine() < QUIET_SECONDS) return;
    List<String> parts = new ArrayList<>();
    synchronized (running) {
      for (var e : running.entrySet()) {
        String status = e.getValue().get();
        parts.add(String.format(java.util.Locale.ROOT, "%s (%s%.0f s)", e.getKey().name, status.isEmpty() ? "" : status + ", ",
            progress.secondsSince(e.getKey().since)));
      }
    }
    progress.line("  ... %s", parts.isEmpty() ? "still working" : String.join("; ", parts));
  }

  @Override
  public void close() {
    if (timer != null) timer.shutdownNow();
  }

  /** A running activity; closing it ends its heartbeat. */
  final class Activity implements AutoCloseable {
    private final String name;
    private final long since;

    private Activity(String name, long since) {
      this.name = name;
      this.since = since;
    }

    @Override
    public void close() {
      synchronized (running) {
        running.remove(this);
      }
    }
  }
}
