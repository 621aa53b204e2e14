package dev.reed.probe.packet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.Charset;

/**
 * Little-endian writes into a datagram of bounded size. Writing past the bound throws
 * {@link IllegalArgumentException}: the encoders are given our own data, so an oversized reply is a
 * programming or configuration error, never something to send truncated.
 */
public final class PacketWriter {
  private final ByteBuffer buf;

  public PacketWriter(int maxSize) {
    this.buf = ByteBuffer.allocate(maxSize).order(ByteOrder.LITTLE_ENDIAN);
  }

  private void room(int n) {
    if (buf.remaining() < n) {
      throw new IllegalArgumentException("packet would exceed " + buf.capacity() + " bytes");
    }
  }

  public PacketWriter u8(int v) {
    room(1);
    buf.put((byte) v);
    return this;
  }

  public PacketWriter u16(int v) {
    room(2);
    buf.putShort((short) v);
    return this;
  }

  public PacketWriter i32(int v) {
    room(4);
    buf.putInt(v);
    return this;
  }

  public PacketWriter i64(long v) {
    room(8);
    buf.putLong(v);
    return this;
  }

  public PacketWriter f32(float v) {
    room(4);
    buf.putFloat(v);
    return this;
  }

  public PacketWriter bytes(byte[] b) {
    room(b.length);
    buf.put(b);
    return this;
  }

  /** The string's bytes (a NUL inside is an error) and a terminating NUL. */
  public PacketWriter cstring(String s, Charset charset) {
    byte[] b = s.getBytes(charset);
    for (byte x : b) {
      if (x == 0) {
        throw new IllegalArgumentException("string contains NUL: " + s);
      }
    }
    bytes(b);
    return u8(0);
  }

  /** Raw text without terminator. */
  public PacketWriter text(String s, Charset charset) {
    return bytes(s.getBytes(charset));
  }

  public int size() {
    return buf.position();
  }

  public byte[] toByteArray() {
    byte[] out = new byte[buf.position()];
    buf.get(0, out);
    return out;
  }
}
