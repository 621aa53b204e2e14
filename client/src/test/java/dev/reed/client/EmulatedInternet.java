package dev.reed.client;

import dev.reed.probe.responder.ReplyDelay;
import dev.reed.testbed.relay.PathDelay;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A small emulated Internet for the end-to-end tests: hosts on a plane (in ms) with an access
 * delay each, RTT = distance + both access delays (+ a detour where one is set between two hosts:
 * a path that routing sends the long way round, which no coordinate can express), every host on
 * its own 127.40.x.y address.
 * Whoever answers a datagram looks up the sender's address here and delays the reply by the RTT
 * (no kernel network emulation on this machine), so probers see these latencies over real sockets.
 */
final class EmulatedInternet {
  private final List<double[]> position = new ArrayList<>();
  private final List<Double> access = new ArrayList<>();
  private final List<InetAddress> address = new ArrayList<>();
  private final Map<InetAddress, Integer> byAddress = new HashMap<>();
  private final Map<Long, Double> detourMs = new java.util.concurrent.ConcurrentHashMap<>();

  /** Adds a host; returns its index. */
  int add(double x, double y, double accessMs) {
    int i = position.size();
    try {
      InetAddress a = InetAddress.getByAddress(new byte[] {127, 40, (byte) (i / 250), (byte) (1 + i % 250)});
      position.add(new double[] {x, y});
      access.add(accessMs);
      address.add(a);
      byAddress.put(a, i);
      return i;
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  InetAddress address(int host) {
    return address.get(host);
  }

  double rttMs(int a, int b) {
    double[] p = position.get(a);
    double[] q = position.get(b);
    return Math.hypot(p[0] - q[0], p[1] - q[1]) + access.get(a) + access.get(b) + detourMs.getOrDefault(pair(a, b), 0.0);
  }

  /** Adds {@code extraMs} to the RTT between two hosts (both ways). */
  void detour(int a, int b, double extraMs) {
    detourMs.put(pair(a, b), extraMs);
  }

  private static long pair(int a, int b) {
    return ((long) Math.min(a, b) << 32) | Math.max(a, b);
  }

  /** How long host {@code server} holds its reply to a query from an address (0 outside this Internet). */
  ReplyDelay replyDelay(int server) {
    return from -> {
      Integer c = byAddress.get(from.getAddress());
      return c == null ? Duration.ZERO : Duration.ofNanos(Math.round(rttMs(c, server) * 1e6));
    };
  }

  /** For a relay that puts a real server at host {@code server}: half the RTT each way. */
  PathDelay pathDelay(int server) {
    return client -> {
      Integer c = byAddress.get(client.getAddress());
      return c == null ? Duration.ZERO : Duration.ofNanos(Math.round(rttMs(c, server) * 1e6 / 2));
    };
  }
}
