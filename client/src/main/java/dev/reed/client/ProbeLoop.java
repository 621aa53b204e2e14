package dev.reed.client;

import dev.reed.probe.NanoTicker;

import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.probe.Prober;
import dev.reed.proto.v1.ProbeStatus;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The pipelined probing loop of REED discovery (Algorithm 4) and of traditional discovery: sends
 * one probe every 1/rate seconds to the next listed server without waiting for replies (the
 * paper's clients probe at a fixed rate, 140/s on DSL), shows each reply as it arrives, and feeds
 * outcomes to the stop condition in probe order (a late reply to an early probe is waited for, as
 * Algorithms 5 and 6 reason about the probe sequence) or, for conditions that do not depend on the
 * order (calibration, First N_close, RTT_limit + delta), as they arrive.
 *
 * <p>One thread owns all state: probe completions and page arrivals are posted to an inbox and
 * run on the looping thread.
 */
final class ProbeLoop {

  /** What the loop did. */
  record Outcome(DiscoveryResult.StopReason reason, int sent, int needed, int timeouts, List<DiscoveredServer> found,
      List<Recorded> results, long stopNanos, ReedClientException failure) {}

  /**
   * A finished probe (or cache hit), in probe order.
   *
   * @param result the outcome as the stop rule saw it (a reply that does not match the request's
   *     filter counts as no answer)
   * @param measured the outcome as measured, before the filter: what a report tells the coordinator
   * @param sent false when answered from the calibration cache (measured earlier, not by this loop)
   */
  record Recorded(Candidate candidate, ProbeResult result, ProbeResult measured, boolean sent) {}

  private final Prober prober;
  private final long intervalNanos;
  private final NanoTicker ticker;
  private final EventSink events;
  private final long startNanos;
  private final long endNanos;
  private final int probeIndexBase;
  private final ReplyFilter replyFilter;
  private final LinkedBlockingQueue<Runnable> inbox = new LinkedBlockingQueue<>();

  // loop state (looping thread only)
  private final List<Slot> slots = new ArrayList<>();
  private final Set<String> probed = new HashSet<>();
  private final List<DiscoveredServer> found = new ArrayList<>();
  private final ArrayDeque<Slot> arrived = new ArrayDeque<>(); // finished, not yet observed
  private int observed;
  private int lastObservedSeq = -1; // the latest probe (in probe order) the stop rule has seen
  private int sent;
  private int timeouts;
  private boolean decidedBeforeSend;

  private static final class Slot {
    final int seq;
    final Candidate candidate;
    final boolean sent; // false: answered from the calibration cache
    ProbeResult result;
    ProbeResult measured; // before the reply filter

    Slot(int seq, Candidate c, boolean sent) {
      this.seq = seq;
      candidate = c;
      this.sent = sent;
    }
  }

  /**
   * @param probeIndexBase probes already sent in this discovery (calibration), for event counts
   * @param startNanos discovery start, for elapsed times
   * @param maxDuration discovery time limit, measured from startNanos
   */
  ProbeLoop(Prober prober, double rate, NanoTicker ticker, EventSink events, long startNanos, Duration maxDuration,
      int probeIndexBase, ReplyFilter replyFilter) {
    this.replyFilter = replyFilter;
    this.prober = prober;
    this.intervalNanos = (long) (1e9 / rate);
    this.ticker = ticker;
    this.events = events;
    this.startNanos = startNanos;
    this.endNanos = startNanos + maxDuration.toNanos();
    this.probeIndexBase = probeIndexBase;
  }

  /** Runs a task on the looping thread (page arrivals). */
  void post(Runnable task) {
    inbox.add(task);
  }

  /**
   * Probes until the stop condition, the end of the feed, a feed failure or the time limit.
   *
   * @param cached results measured earlier in this discovery (calibration), reused instead of a new probe
   */
  Outcome run(CandidateFeed feed, StopCondition stop, Map<String, ProbeResult> cached) {
    long nextSend = ticker.read();
    try {
      while (true) {
        Runnable task;
        while ((task = inbox.poll()) != null) task.run();
        if (observe(stop)) return outcome(DiscoveryResult.StopReason.STOP_RULE, null);
        long now = ticker.read();
        if (now - endNanos >= 0) return outcome(DiscoveryResult.StopReason.TIME_LIMIT, null);
        long stopAt = stop.stopAtNanos();
        if (stopAt != Long.MAX_VALUE && now - stopAt >= 0) return outcome(DiscoveryResult.StopReason.STOP_RULE, null);
        if (feed.failure() != null) return outcome(DiscoveryResult.StopReason.COORDINATOR_FAILED, feed.failure());
        long wait;
        if (now - nextSend >= 0) {
          Candidate c = nextUnprobed(feed);
          if (c != null) {
            if (stop.stopBefore(c)) {
              decidedBeforeSend = true; // every probe sent so far was one the rule asked for
              return outcome(DiscoveryResult.StopReason.STOP_RULE, null);
            }
            ProbeResult hit = cached.get(c.key());
            if (hit != null) {
              slots.add(new Slot(slots.size(), c, false));
              complete(feed, slots.size() - 1, hit);
            } else {
              send(feed, c);
              // no catch-up bursts after a stall: at most one interval of credit
              nextSend = Math.max(nextSend + intervalNanos, now - intervalNanos);
            }
            continue;
          }
          if (feed.exhausted() && observed == slots.size()) {
            return outcome(DiscoveryResult.StopReason.LIST_EXHAUSTED, null);
          }
          wait = TimeUnit.MILLISECONDS.toNanos(50); // waiting for replies or a page
        } else {
          wait = nextSend - now;
        }
        wait = Math.min(wait, endNanos - now);
        if (stopAt != Long.MAX_VALUE) wait = Math.min(wait, stopAt - now);
        task = inbox.poll(Math.max(wait, 0), TimeUnit.NANOSECONDS);
        if (task != null) task.run();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return outcome(DiscoveryResult.StopReason.INTERRUPTED, null);
    }
  }

  private Candidate nextUnprobed(CandidateFeed feed) {
    Candidate c;
    while ((c = feed.next()) != null) {
      if (probed.add(c.key())) return c;
    }
    return null;
  }

  private void send(CandidateFeed feed, Candidate c) {
    int seq = slots.size();
    slots.add(new Slot(seq, c, true));
    sent++;
    prober.probe(new ProbeTarget(c.address(), c.protocol())).whenComplete((r, ex) -> {
      ProbeResult result = r != null ? r : new ProbeResult(new ProbeTarget(c.address(), c.protocol()),
          ProbeStatus.PROBE_STATUS_ERROR, 0, 0, java.time.Instant.now(), null, String.valueOf(ex));
      inbox.add(() -> complete(feed, seq, result));
    });
  }

  private void complete(CandidateFeed feed, int seq, ProbeResult reply) {
    feed.completed(slots.get(seq).candidate, reply);
    ProbeResult r = reply;
    if (r.ok()) {
      String mismatch = r.serverInfo() == null ? "no server info" : replyFilter.mismatch(r.serverInfo());
      if (mismatch != null) { // answered, but not a server the player asked for: no answer for the stop rule
        r = new ProbeResult(r.target(), ProbeStatus.PROBE_STATUS_ERROR, 0, r.challengeRttNanos(), r.sendTime(), null,
            "filtered: " + mismatch);
      }
    }
    Slot s = slots.get(seq);
    s.result = r;
    s.measured = reply;
    arrived.add(s);
    Candidate c = s.candidate;
    if (r.ok()) {
      DiscoveredServer d = new DiscoveredServer(c.address(), c.protocol(), r.rttNanos() / 1e6, c.predictedMs(),
          r.serverInfo(), probeIndexBase + seq);
      found.add(d);
      events.emit(new DiscoveryEvent.ServerFound(d, probeIndexBase + sent, elapsed()));
    } else {
      if (r.status() == ProbeStatus.PROBE_STATUS_TIMEOUT) timeouts++;
      events.emit(new DiscoveryEvent.NoReply(c.address(), r.status() == ProbeStatus.PROBE_STATUS_TIMEOUT,
          r.errorDetail(), probeIndexBase + sent));
    }
  }

  /**
   * Feeds finished probes to the stop condition, in probe order (a finished probe waits for the
   * earlier ones) or, if the condition wants, as they finished; true if it says stop.
   */
  private boolean observe(StopCondition stop) {
    if (!stop.inProbeOrder()) {
      while (!arrived.isEmpty()) {
        Slot s = arrived.poll();
        observed++;
        lastObservedSeq = Math.max(lastObservedSeq, s.seq);
        if (stop.observe(s.candidate, s.result)) return true;
      }
      return false;
    }
    arrived.clear();
    while (observed < slots.size() && slots.get(observed).result != null) {
      Slot s = slots.get(observed++);
      lastObservedSeq = s.seq;
      if (stop.observe(s.candidate, s.result)) return true;
    }
    return false;
  }

  private Duration elapsed() {
    return Duration.ofNanos(ticker.read() - startNanos);
  }

  private Outcome outcome(DiscoveryResult.StopReason reason, ReedClientException failure) {
    List<Recorded> results = new ArrayList<>();
    for (Slot s : slots) if (s.result != null) results.add(new Recorded(s.candidate, s.result, s.measured, s.sent));
    // probes sent up to the latest one whose outcome the stop rule had seen when it decided; the
    // rest were in flight. Without a rule decision every probe counts.
    int needed = sent;
    if (reason == DiscoveryResult.StopReason.STOP_RULE && !decidedBeforeSend) {
      needed = 0;
      for (int i = 0; i <= lastObservedSeq; i++) if (slots.get(i).sent) needed++;
    }
    return new Outcome(reason, sent, needed, timeouts, List.copyOf(found), results, ticker.read(), failure);
  }
}
