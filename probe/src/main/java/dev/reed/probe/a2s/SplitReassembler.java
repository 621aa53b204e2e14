package dev.reed.probe.a2s;

import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.probe.packet.UnsupportedPacketException;
import java.io.ByteArrayOutputStream;

/**
 * Collects the fragments of ONE split A2S reply (one per probe; not thread-safe). Fragments may
 * arrive in any order and twice; a fragment of another reply id or with a different count is
 * malformed. Memory is bounded by {@link #MAX_FRAGMENTS} x {@link A2sCodec#MAX_PACKET_SIZE}.
 */
public final class SplitReassembler {
  /** Upper bound on fragments of one reply (Valve replies rarely exceed a handful). */
  public static final int MAX_FRAGMENTS = 32;

  private byte[][] parts;
  private int id;
  private int received;

  /**
   * Adds a fragment; returns the whole reply (starting {@code FF FF FF FF}) once every fragment is
   * in, else {@code null}.
   *
   * @throws UnsupportedPacketException the reply is bzip2-compressed
   * @throws MalformedPacketException inconsistent fragment
   */
  public byte[] offer(A2sSplitFragment f) {
    if (f.compressed()) {
      throw new UnsupportedPacketException("bzip2-compressed split reply (id " + Integer.toHexString(f.id())
          + ") is not supported");
    }
    if (f.total() < 1 || f.total() > MAX_FRAGMENTS) {
      throw new MalformedPacketException("split reply with " + f.total() + " fragments (allowed 1-" + MAX_FRAGMENTS + ")");
    }
    if (f.number() >= f.total()) {
      throw new MalformedPacketException("split fragment " + f.number() + " of " + f.total());
    }
    if (parts == null) {
      parts = new byte[f.total()][];
      id = f.id();
    } else if (f.id() != id || f.total() != parts.length) {
      throw new MalformedPacketException("split fragment of reply " + Integer.toHexString(f.id()) + "/" + f.total()
          + " while assembling " + Integer.toHexString(id) + "/" + parts.length);
    }
    if (parts[f.number()] == null) {
      parts[f.number()] = f.payload();
      received++;
    }
    if (received < parts.length) {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
