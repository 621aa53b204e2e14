package dev.reed.probe.packet;

/**
 * A datagram that does not follow its protocol: truncated, oversized, wrong header, bad field.
 * The only exception the decoders throw for bad input; the message says what was wrong and where,
 * so a prober can count the packet and a person can read why (docs/design.md section 6: bad input gets
 * a clear error and loses nothing).
 */
public class MalformedPacketException extends RuntimeException {
  public MalformedPacketException(String message) {
    super(message);
  }
}
