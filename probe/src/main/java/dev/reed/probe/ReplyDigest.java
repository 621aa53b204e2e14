package dev.reed.probe;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * 64-bit FNV-1a over a reply's bytes: cheap (one multiply a byte), no allocation, and collisions
 * between two different replies to one server are far below anything the coordinator counts.
 * Not a defence against a forger choosing bytes: it only tells identical replies from different ones.
 */
final class ReplyDigest {
  private static final long OFFSET = 0xcbf29ce484222325L;
  private static final long PRIME = 0x100000001b3L;

  private ReplyDigest() {}

  /** The digest of the buffer's remaining bytes (position and limit untouched); never 0. */
  static long of(ByteBuffer packet) {
    long h = OFFSET;
    for (int i = packet.position(); i < packet.limit(); i++) {
      h = (h ^ (packet.get(i) & 0xff)) * PRIME;
    }
    return nonZero(h);
  }

  static long of(byte[] bytes) {
    return of(ByteBuffer.wrap(bytes));
  }

  /**
   * The digest of a Quake3 reply without its {@code \challenge\VALUE} pair, so replies to different
   * probes with the same content digest alike. Quake3 text is ISO-8859-1, one byte a character.
   */
  static long withoutChallenge(ByteBuffer packet, String challenge) {
    if (challenge == null) return of(packet);
    byte[] bytes = new byte[packet.remaining()];
    packet.duplicate().get(bytes);
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    String pair = "\\challenge\\" + challenge;
    int at = text.indexOf(pair);
    if (at < 0) return of(bytes);
    return of((text.substring(0, at) + text.substring(at + pair.length())).getBytes(StandardCharsets.ISO_8859_1));
  }

  private static long nonZero(long h) {
    return h == 0 ? 1 : h;
  }
}
