package dev.reed.probe.packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;

/**
 * Bounds-checked little-endian reads from one datagram. Every read that runs past the end throws
 * {@link MalformedPacketException} naming the field and the offset, so decoders never surface
 * {@code BufferUnderflowException} or {@code IndexOutOfBoundsException}.
 */
public final class PacketReader {
  private final ByteBuffer buf;

  /** Reads {@code packet} from its position to its limit; the caller's buffer is not modified. */
  public PacketReader(ByteBuffer packet) {
    this.buf = packet.slice().order(ByteOrder.LITTLE_ENDIAN);
  }

  public static PacketReader of(byte[] packet) {
    return new PacketReader(ByteBuffer.wrap(packet));
  }

  public int position() {
    return buf.position();
  }

  public int remaining() {
    return buf.remaining();
  }

  public boolean hasRemaining() {
    return buf.hasRemaining();
  }

  private void need(int n, String field) {
    if (buf.remaining() < n) {
      throw new MalformedPacketException("truncated: " + field + " needs " + n + " byte(s) at offset "
          + position() + ", " + buf.remaining() + " left");
    }
  }

  public int u8(String field) {
    need(1, field);
    return buf.get() & 0xFF;
  }

  public int u16(String field) {
    need(2, field);
    return buf.getShort() & 0xFFFF;
  }

  public int i32(String field) {
    need(4, field);
    return buf.getInt();
  }

  public long i64(String field) {
    need(8, field);
    return buf.getLong();
  }

  public float f32(String field) {
    need(4, field);
    return buf.getFloat();
  }

  public byte[] bytes(int n, String field) {
    need(n, field);
    byte[] out = new byte[n];
    buf.get(out);
    return out;
  }

  /** The rest of the packet. */
  public byte[] rest() {
    byte[] out = new byte[buf.remaining()];
    buf.get(out);
    return out;
  }

  /** A NUL-terminated string; a missing terminator is a truncated packet. */
  public String cstring(String field, Charset charset) {
    int from = buf.position();
    int limit = buf.limit();
    for (int i = from; i < limit; i++) {
      if (buf.get(i) == 0) {
        byte[] raw = new byte[i - from];
        buf.get(raw);
        buf.get(); // terminator
        return new String(raw, charset);
      }
    }
    throw new MalformedPacketException("truncated: string " + field + " at offset " + position()
        + " has no terminating NUL");
  }

  /** Skips the 4-byte connectionless header {@code FF FF FF FF}, or says what was there. */
  public void expectHeader(int header, String what) {
    need(4, what + " header");
    int got = buf.getInt();
    if (got != header) {
      throw new MalformedPacketException(String.format("not %s: header %08X", what, Integer.reverseBytes(got)));
    }
  }
}
