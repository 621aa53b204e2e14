package dev.reed.probe.responder;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * How long the responder holds its reply to a client: the testbed's emulated WAN latency (an
 * emulated host delays its reply by the model's RTT, docs/design.md section 5), zero in production.
 */
@FunctionalInterface
public interface ReplyDelay {
  ReplyDelay NONE = f -> Duration.ZERO;

  Duration delayFor(InetSocketAddress from);
}
