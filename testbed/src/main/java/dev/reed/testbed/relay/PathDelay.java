package dev.reed.testbed.relay;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The one-way delay of the emulated path between a client and the relayed server; a relay
 * applies it to each direction, so the client sees twice this on top of the real round trip.
 * Called once per datagram, so an implementation may add jitter; returning null means this
 * datagram is lost (the relay drops it and counts it as lost).
 */
@FunctionalInterface
public interface PathDelay {
  PathDelay NONE = client -> Duration.ZERO;

  Duration oneWay(InetSocketAddress client);

  /** The same delay for every client. */
  static PathDelay fixed(Duration oneWay) {
    if (oneWay.isNegative()) {
      throw new IllegalArgumentException("negative delay: " + oneWay);
    }
    return client -> oneWay;
  }
}
