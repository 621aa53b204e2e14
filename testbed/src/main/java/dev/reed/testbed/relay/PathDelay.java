package dev.reed.testbed.relay;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The one-way delay of the emulated path between a client and the relayed server; a relay
 * applies it to each direction, so the client sees twice this on top of the real round trip.
 * Called once per datagram, so an implementation may add jitter.
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
