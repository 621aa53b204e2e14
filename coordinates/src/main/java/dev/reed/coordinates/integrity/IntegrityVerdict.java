package dev.reed.coordinates.integrity;

/**
 * The verdict on one server, with the evidence an operator needs to check it.
 *
 * @param kind what the RTTs say
 * @param pairsChecked landmark pairs with an RTT from both landmarks to the server and a mesh bound
 * @param violatingPairs of those, pairs whose two RTTs sum below the mesh bound by more than the
 *     tolerance
 * @param worstViolationMs the largest shortfall over the pairs, {@code bound - rtt(a,s) - rtt(b,s)}
 *     (ms; 0 without a violation)
 * @param lightViolations landmarks whose RTT to the server is below the light-in-fibre floor to the
 *     server's known location by more than the light tolerance (0 without a location)
 * @param evidence one line for logs and the API: the worst pair with its numbers, or empty when OK
 * @param replyTells samples whose reply a real server would not send ({@link ReplyEvidence#tells()})
 * @param sameReplyPairs violated near-both-ends pairs whose two landmarks got byte-identical replies
 * @param differentReplyPairs such pairs whose two landmarks got different replies
 */
public record IntegrityVerdict(IntegrityKind kind, int pairsChecked, int violatingPairs, double worstViolationMs,
    int lightViolations, String evidence, int replyTells, int sameReplyPairs, int differentReplyPairs) {

  public IntegrityVerdict {
    if (kind == null || evidence == null || pairsChecked < 0 || violatingPairs < 0 || violatingPairs > pairsChecked
        || lightViolations < 0 || !(worstViolationMs >= 0) || Double.isInfinite(worstViolationMs) || replyTells < 0
        || sameReplyPairs < 0 || differentReplyPairs < 0 || sameReplyPairs + differentReplyPairs > violatingPairs) {
      throw new IllegalArgumentException("bad verdict: " + kind + " " + violatingPairs + "/" + pairsChecked + " worst "
          + worstViolationMs + " light " + lightViolations + " tells " + replyTells + " same/different "
          + sameReplyPairs + "/" + differentReplyPairs);
    }
  }

  /** A verdict from RTTs alone. */
  public IntegrityVerdict(IntegrityKind kind, int pairsChecked, int violatingPairs, double worstViolationMs,
      int lightViolations, String evidence) {
    this(kind, pairsChecked, violatingPairs, worstViolationMs, lightViolations, evidence, 0, 0, 0);
  }

  /** Whether the server is flagged (anything but OK). */
  public boolean flagged() {
    return kind != IntegrityKind.OK;
  }
}
