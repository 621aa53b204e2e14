package dev.reed.agent.round;

import java.time.Duration;
import java.time.Instant;

/**
 * What one round did; also the content of the round's INFO log line.
 *
 * @param round the landmark's round number (monotonic across restarts)
 * @param started wall-clock start
 * @param targets targets probed
 * @param replies targets that answered (status OK), retries included
 * @param timeouts targets that did not answer, even after the one retry
 * @param errors targets whose probe could not be sent or whose reply could not be decoded
 * @param retried timed-out targets probed a second time (> 1 s after the first probe)
 * @param mesh peer landmarks whose beacon answered at least one of the back-to-back probes
 * @param meshPeers peer landmarks probed
 * @param published records of this round the broker acknowledged before the round ended
 * @param spooled records of this round still waiting in the spool when the round ended
 * @param duration wall time of the round, flush included
 * @param abandoned true if shutdown cut the round short (samples measured so far were still published)
 */
public record RoundReport(long round, Instant started, int targets, int replies, int timeouts, int errors, int retried,
    int mesh, int meshPeers, long published, long spooled, Duration duration, boolean abandoned) {}
