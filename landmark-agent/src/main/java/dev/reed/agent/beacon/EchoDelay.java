package dev.reed.agent.beacon;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * How long the WebSocket beacon holds an echo before sending it. Zero in production; the testbed's
 * demo delays echoes by the emulated RTT between the browser's host and the landmark, as the UDP
 * beacon's {@link dev.reed.probe.responder.ReplyDelay} does for UDP probes.
 */
@FunctionalInterface
public interface EchoDelay {
  /** No delay. */
  EchoDelay NONE = remote -> Duration.ZERO;

  /** @return the delay for an echo to this peer; zero or negative = none */
  Duration delayFor(InetSocketAddress remote);
}
