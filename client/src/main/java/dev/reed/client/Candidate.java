package dev.reed.client;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.LandmarkRtt;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * A server to probe, in list order, with the coordinator's prediction (NaN when none) and the
 * landmarks' RTTs to it as the coordinator served them (empty when none; see {@link LandmarkOrder}).
 */
record Candidate(InetSocketAddress address, GameProtocol protocol, double predictedMs, List<LandmarkRtt> landmarkRtts) {
  Candidate {
    landmarkRtts = List.copyOf(landmarkRtts);
  }

  Candidate(InetSocketAddress address, GameProtocol protocol, double predictedMs) {
    this(address, protocol, predictedMs, List.of());
  }

  String key() {
    return Endpoints.key(address);
  }

  /** The same server with another prediction (the landmark-refined one). */
  Candidate withPredictedMs(double ms) {
    return new Candidate(address, protocol, ms, landmarkRtts);
  }

  static Candidate of(ListedServer s) {
    return new Candidate(s.address(), s.protocol(), Double.NaN);
  }
}
