package dev.reed.probe;

import dev.reed.probe.a2s.A2sChallenge;
import dev.reed.probe.a2s.A2sCodec;
import dev.reed.probe.a2s.A2sInfo;
import dev.reed.probe.a2s.A2sReply;
import dev.reed.probe.a2s.A2sSplitFragment;
import dev.reed.probe.a2s.SplitReassembler;
import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Reply;
import dev.reed.proto.v1.ChallengeCheck;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.nio.ByteBuffer;
import java.util.random.RandomGenerator;

/**
 * The protocol side of one probe: what to send first and what each reply from the target means.
 * One instance per probe, used by one thread at a time.
 */
abstract sealed class QueryExchange {
  /** What a reply means for the probe. */
  sealed interface Step {}

  /** The answer, with the digest of its payload (without the echoed challenge). */
  record Done(ServerInfo info, long digest) implements Step {}

  /** Send this request now, inside the same probe (A2S challenge resend). */
  record Resend(byte[] request) implements Step {}

  /** Part of a split reply; wait for the rest. */
  record Pending() implements Step {}

  /** Well-formed but not the answer to this probe (wrong challenge): counted as unexpected. */
  record Foreign(String why) implements Step {}

  /**
   * @param forgeChallenge for A2S targets, open with a challenge the server never issued (the
   *     forged-challenge check); ignored for Quake3, whose every probe checks its echo
   */
  static QueryExchange forTarget(ProbeTarget target, RandomGenerator rng, boolean forgeChallenge) {
    return target.protocol() == GameProtocol.GAME_PROTOCOL_A2S
        ? new A2s(forgeChallenge ? forgedChallenge(rng) : 0)
        : new Quake3(Quake3Codec.newChallenge(rng));
  }

  /** A random challenge other than 0 ("none") and -1 ("send me one"). */
  private static int forgedChallenge(RandomGenerator rng) {
    int c;
    do {
      c = rng.nextInt();
    } while (c == 0 || c == -1);
    return c;
  }

  abstract byte[] firstRequest();

  /** What the forged-challenge check found so far (UNSPECIFIED when none was sent). */
  ChallengeCheck challengeCheck() {
    return ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED;
  }

  /**
   * @throws MalformedPacketException undecodable reply (also its subclass for unsupported ones)
   */
  abstract Step onReply(ByteBuffer packet);

  /**
   * A2S_INFO with the December 2020 challenge and split replies. The forged-challenge check opens
   * with a challenge the server never issued: a real server answers it with a fresh challenge (the
   * one it sends a plain request anyway, so the check costs it nothing); an answer with the info
   * is followed by a plain request, whose challenge (ACCEPTED: it challenges, yet took a forged
   * one) or info (INCONCLUSIVE: it never challenges) tells the two apart.
   */
  static final class A2s extends QueryExchange {
    private static final int MAX_CHALLENGES = 2;
    private final int forged;
    private int challenges;
    private SplitReassembler split;
    private ChallengeCheck check = ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED;
    /** The forged challenge was answered with the info; the plain request that follows decides. */
    private boolean forgedAnswered;

    /** @param forged the challenge to open with, 0 for a plain request */
    A2s(int forged) {
      this.forged = forged;
    }

    @Override
    byte[] firstRequest() {
      return forged == 0 ? A2sCodec.encodeInfoRequest() : A2sCodec.encodeInfoRequest(forged);
    }

    @Override
    ChallengeCheck challengeCheck() {
      return check;
    }

    @Override
    Step onReply(ByteBuffer packet) {
      long digest = ReplyDigest.of(packet);
      A2sReply reply = A2sCodec.decodeReply(packet);
      if (reply instanceof A2sSplitFragment f) {
        if (split == null) {
          split = new SplitReassembler();
        }
        byte[] whole = split.offer(f);
        if (whole == null) {
          return new Pending();
        }
        split = null;
        digest = ReplyDigest.of(whole);
        reply = A2sCodec.decodeReassembled(whole);
      }
      boolean checking = forged != 0 && check == ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED;
      return switch (reply) {
        case A2sInfo info -> {
          if (checking && !forgedAnswered) {
            forgedAnswered = true;
            yield new Resend(A2sCodec.encodeInfoRequest());
          }
          if (checking) check = ChallengeCheck.CHALLENGE_CHECK_INCONCLUSIVE;
          yield new Done(info.serverInfo(), digest);
        }
        case A2sChallenge c -> {
          if (checking) {
            check = forgedAnswered ? ChallengeCheck.CHALLENGE_CHECK_ACCEPTED : ChallengeCheck.CHALLENGE_CHECK_REFUSED;
          }
          if (++challenges > MAX_CHALLENGES) {
            throw new MalformedPacketException("server answered the challenged request with yet another challenge");
          }
          yield new Resend(A2sCodec.encodeInfoRequest(c.challenge()));
        }
        default -> throw new MalformedPacketException("A2S reply of type " + reply.getClass().getSimpleName()
            + " to an A2S_INFO request");
      };
    }
  }

  /** Quake3 getinfo with a random challenge the reply must echo. */
  static final class Quake3 extends QueryExchange {
    private final String challenge;

    Quake3(String challenge) {
      this.challenge = challenge;
    }

    @Override
    byte[] firstRequest() {
      return Quake3Codec.encodeGetInfo(challenge);
    }

    @Override
    Step onReply(ByteBuffer packet) {
      Quake3Reply reply = Quake3Codec.decodeReply(packet);
      if (!challenge.equals(reply.challenge())) {
        return new Foreign("challenge " + reply.challenge() + " instead of " + challenge);
      }
      return new Done(reply.serverInfo(), ReplyDigest.withoutChallenge(packet, challenge));
    }
  }
}
