package dev.reed.client;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import java.net.InetSocketAddress;

/** A server to probe, in list order, with the coordinator's prediction (NaN when none). */
record Candidate(InetSocketAddress address, GameProtocol protocol, double predictedMs) {
  String key() {
    return Endpoints.key(address);
  }

  static Candidate of(ListedServer s) {
    return new Candidate(s.address(), s.protocol(), Double.NaN);
  }
}
