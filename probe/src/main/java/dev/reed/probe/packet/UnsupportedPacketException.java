package dev.reed.probe.packet;

/**
 * A well-formed reply using a protocol feature this implementation does not support (a
 * bzip2-compressed A2S split reply). Unlike a merely malformed packet it comes from a real server
 * that will keep answering the same way, so the prober fails the probe with an error instead of
 * waiting for a better reply.
 */
public final class UnsupportedPacketException extends MalformedPacketException {
  public UnsupportedPacketException(String message) {
    super(message);
  }
}
