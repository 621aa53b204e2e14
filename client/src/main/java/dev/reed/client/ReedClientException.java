package dev.reed.client;

/**
 * Why a discovery, locate or group call failed. The message names the coordinator, the call and
 * what went wrong, so a browser can show it to the player as is.
 */
public final class ReedClientException extends RuntimeException {

  /** What kind of failure, for callers that react differently (retry, fall back, give up). */
  public enum Kind {
    /** The coordinator could not be reached (connection refused, no route, TLS/HTTP2 mismatch). */
    COORDINATOR_UNAVAILABLE,
    /** The coordinator did not answer within the call's deadline. */
    COORDINATOR_DEADLINE,
    /** The coordinator answered something this client cannot use (invalid fields, wrong dimensions). */
    COORDINATOR_BAD_RESPONSE,
    /** The coordinator refused the request (invalid argument, unimplemented, internal error). */
    COORDINATOR_REJECTED,
    /** Too few calibration servers answered to position the client. */
    CALIBRATION_FAILED,
    /** A master server list could not be fetched or parsed. */
    SERVER_LIST_FAILED,
    /** The local probe socket could not be opened. */
    PROBE_SETUP_FAILED
  }

  private final Kind kind;

  public ReedClientException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public ReedClientException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  /** True when traditional discovery from another list is a sensible fallback. */
  public boolean coordinatorFault() {
    return switch (kind) {
      case COORDINATOR_UNAVAILABLE, COORDINATOR_DEADLINE, COORDINATOR_BAD_RESPONSE, COORDINATOR_REJECTED -> true;
      default -> false;
    };
  }
}
