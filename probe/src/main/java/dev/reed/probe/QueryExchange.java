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

  record Done(ServerInfo info) implements Step {}

  /** Send this request now, inside the same probe (A2S challenge resend). */
  record Resend(byte[] request) implements Step {}

  /** Part of a split reply; wait for the rest. */
  record Pending() implements Step {}

  /** Well-formed but not the answer to this probe (wrong challenge): counted as unexpected. */
  record Foreign(String why) implements Step {}

  static QueryExchange forTarget(ProbeTarget target, RandomGenerator rng) {
    return target.protocol() == GameProtocol.GAME_PROTOCOL_A2S ? new A2s() : new Quake3(Quake3Codec.newChallenge(rng));
  }

  abstract byte[] firstRequest();

  /**
   * @throws MalformedPacketException undecodable reply (also its subclass for unsupported ones)
   */
  abstract Step onReply(ByteBuffer packet);

  /** A2S_INFO with the December 2020 challenge and split replies. */
  static final class A2s extends QueryExchange {
    private static final int MAX_CHALLENGES = 2;
    private int challenges;
    private SplitReassembler split;

    @Override
    byte[] firstRequest() {
      return A2sCodec.encodeInfoRequest();
    }

    @Override
    Step onReply(ByteBuffer packet) {
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
        reply = A2sCodec.decodeReassembled(whole);
      }
      return switch (reply) {
        case A2sInfo info -> new Done(info.serverInfo());
        case A2sChallenge c -> {
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
      return new Done(reply.serverInfo());
    }
  }
}
