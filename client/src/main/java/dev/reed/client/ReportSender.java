package dev.reed.client;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends discovery reports in the background: a report never delays or fails the
 * discovery that measured it. Failures are counted and logged once at INFO (then at DEBUG: a
 * coordinator without the RPC, or one that is down, would otherwise log at every discovery). At most
 * {@link #MAX_IN_FLIGHT} reports are outstanding; more are dropped and counted, so a stalled
 * coordinator cannot pile them up.
 */
final class ReportSender {
  private static final Logger log = LoggerFactory.getLogger(ReportSender.class);
  static final int MAX_IN_FLIGHT = 4;

  private final CoordinatorClient coordinator;
  private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
  private final AtomicLong reported = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicBoolean failureLogged = new AtomicBoolean();

  ReportSender(CoordinatorClient coordinator) {
    this.coordinator = coordinator;
  }

  /** Starts sending; returns at once. Null (nothing probed) sends nothing. */
  void send(MeasurementReport report) {
    if (report == null) {
      return;
    }
    if (inFlight.size() >= MAX_IN_FLIGHT) {
      failed("dropped: " + MAX_IN_FLIGHT + " reports still in flight");
      return;
    }
    CompletableFuture<?> f;
    try {
      f = coordinator.reportAsync(report).whenComplete((r, ex) -> {
        if (ex == null) {
          reported.incrementAndGet();
          accepted.addAndGet(r.getAccepted());
          log.debug("coordinator {}: report of {} servers sent, {} accepted", coordinator.target(), report.servers().size(),
              r.getAccepted());
        } else {
          failed(ex.getMessage());
        }
      });
    } catch (RuntimeException e) { // a report must never break the discovery that measured it
      failed(e.toString());
      return;
    }
    inFlight.add(f);
    f.whenComplete((r, ex) -> inFlight.remove(f));
  }

  private void failed(String why) {
    failed.incrementAndGet();
    if (failureLogged.compareAndSet(false, true)) {
      log.info("coordinator {}: measurement report not sent ({}); discovery is unaffected, further failures are logged at DEBUG",
          coordinator.target(), why);
    } else {
      log.debug("coordinator {}: measurement report not sent: {}", coordinator.target(), why);
    }
  }

  /** Waits up to {@code max} for the reports in flight (before the channel closes under them). */
  void flush(Duration max) {
    CompletableFuture<?>[] pending = inFlight.toArray(new CompletableFuture<?>[0]);
    if (pending.length == 0) {
      return;
    }
    try {
      CompletableFuture.allOf(pending).get(max.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
      // counted by the callbacks; a report still in flight is cancelled with the channel
    }
  }

  ReportStats stats() {
    return new ReportStats(reported.get(), failed.get(), accepted.get());
  }
}
