package dev.reed.coordinates.integrity;

/**
 * What the landmarks' replies to a server say beside their RTTs (the agents' reply forensics).
 *
 * @param tells samples in the landmarks' windows whose reply a real server would not send: a Quake3
 *     reply echoing a challenge the probe never sent (a cache replaying a stored reply), an A2S info
 *     answered to a challenge the server never issued though it challenges plain requests
 * @param digests each landmark's latest reply digest, in the mesh's landmark order; 0 = none. Only
 *     compared between landmarks the RTT check already finds near the server at both ends of a long
 *     path: honest servers send every landmark the same bytes too
 */
public record ReplyEvidence(int tells, long[] digests) {
  /** No tells, no digests: the RTT check alone. */
  public static final ReplyEvidence NONE = new ReplyEvidence(0, null);

  public ReplyEvidence {
    if (tells < 0) throw new IllegalArgumentException("tells < 0: " + tells);
  }

  /** The digest landmark {@code k} got, 0 when unknown. */
  long digest(int k) {
    return digests == null || k >= digests.length ? 0 : digests[k];
  }
}
