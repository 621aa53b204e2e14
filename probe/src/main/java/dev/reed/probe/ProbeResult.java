package dev.reed.probe;

import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.ServerInfo;
import java.time.Instant;

/**
 * The outcome of one probe.
 *
 * @param target what was probed
 * @param status OK, TIMEOUT (no valid reply within the timeout: loss, the paper's 999 ms) or ERROR
 * @param rttNanos round trip of the final, answered exchange ({@code System.nanoTime} right
 *     before send and right after receive); 0 unless OK
 * @param challengeRttNanos round trip of the A2S challenge exchange, 0 if there was none
 * @param sendTime wall-clock time of the first send (or of the failure if nothing was sent)
 * @param serverInfo what the server reported; null unless OK
 * @param errorDetail why the probe failed, for people; null unless ERROR
 * @param forensics what the replies say about who answers (stale challenges, the forged-challenge
 *     check, the answer's digest); never null
 */
public record ProbeResult(ProbeTarget target, ProbeStatus status, long rttNanos, long challengeRttNanos,
    Instant sendTime, ServerInfo serverInfo, String errorDetail, ReplyForensics forensics) {

  public ProbeResult {
    java.util.Objects.requireNonNull(forensics, "forensics");
  }

  /** A result without forensics (simulated probers, failures before any reply). */
  public ProbeResult(ProbeTarget target, ProbeStatus status, long rttNanos, long challengeRttNanos, Instant sendTime,
      ServerInfo serverInfo, String errorDetail) {
    this(target, status, rttNanos, challengeRttNanos, sendTime, serverInfo, errorDetail, ReplyForensics.NONE);
  }

  public boolean ok() {
    return status == ProbeStatus.PROBE_STATUS_OK;
  }

  static ProbeResult ok(ProbeTarget t, long rtt, long challengeRtt, Instant sent, ServerInfo info,
      ReplyForensics forensics) {
    return new ProbeResult(t, ProbeStatus.PROBE_STATUS_OK, rtt, challengeRtt, sent, info, null, forensics);
  }

  static ProbeResult timeout(ProbeTarget t, long challengeRtt, Instant sent, ReplyForensics forensics) {
    return new ProbeResult(t, ProbeStatus.PROBE_STATUS_TIMEOUT, 0, challengeRtt, sent, null, null, forensics);
  }

  static ProbeResult error(ProbeTarget t, long challengeRtt, Instant sent, String detail) {
    return new ProbeResult(t, ProbeStatus.PROBE_STATUS_ERROR, 0, challengeRtt, sent, null, detail);
  }
}
