package dev.reed.probe;

import dev.reed.proto.v1.ChallengeCheck;
import java.util.Objects;

/**
 * What a probe's replies say about who answers, beside the RTT: replies a real game server would
 * not send, and a digest of the answer for comparing what different landmarks got.
 *
 * @param staleChallenges replies from the target's address that echoed a Quake3 challenge this
 *     probe never sent (a cache replaying a stored reply; rarely a late reply to an earlier probe)
 * @param challengeCheck the outcome of the forged-challenge check
 *     ({@link Prober#probeForgingChallenge}); UNSPECIFIED when not checked
 * @param replyDigest 64-bit FNV-1a of the answering reply's payload without the echoed challenge; 0
 *     without an answer
 */
public record ReplyForensics(int staleChallenges, ChallengeCheck challengeCheck, long replyDigest) {
  /** Nothing to say: no stale replies, no check, no answer. */
  public static final ReplyForensics NONE = new ReplyForensics(0, ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED, 0);

  public ReplyForensics {
    Objects.requireNonNull(challengeCheck, "challengeCheck");
    if (staleChallenges < 0) throw new IllegalArgumentException("staleChallenges < 0: " + staleChallenges);
  }

  /** Whether a real server would not have sent these replies (a stale echo, a forged challenge accepted). */
  public boolean tell() {
    return staleChallenges > 0 || challengeCheck == ChallengeCheck.CHALLENGE_CHECK_ACCEPTED;
  }
}
