package dev.reed.client;

import dev.reed.proto.RttBound;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.discovery.RankedCandidate;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.LandmarkRtt;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A server to probe, in list order, with the coordinator's prediction (NaN when none), the
 * landmarks' RTTs to it and its coordinate as the coordinator served them (empty and null when
 * none), and, when the coordinator knows where client and server are, its geographic prediction
 * and the server's place (NaN and null otherwise), and the factor that reports from clients near
 * this one put on the coordinate prediction (1 when none), and whether it goes after every
 * unflagged server because the coordinator's integrity check flags it and the client demotes such
 * servers: what the discovery policy orders by ({@link #ranked}).
 */
record Candidate(InetSocketAddress address, GameProtocol protocol, double predictedMs, List<LandmarkRtt> landmarkRtts,
    Coordinate coordinate, double geoMs, Place place, double reportFactor, boolean demoted) {
  Candidate {
    landmarkRtts = List.copyOf(landmarkRtts);
  }

  Candidate(InetSocketAddress address, GameProtocol protocol, double predictedMs) {
    this(address, protocol, predictedMs, List.of(), null, Double.NaN, null, 1.0, false);
  }

  String key() {
    return Endpoints.key(address);
  }

  /** The same server with another prediction (the policy's). */
  Candidate withPredictedMs(double ms) {
    return new Candidate(address, protocol, ms, landmarkRtts, coordinate, geoMs, place, reportFactor, demoted);
  }

  /** The server as the discovery policy orders it: valid landmark RTTs only (1 us to the RTT bound), the lowest if repeated. */
  RankedCandidate ranked() {
    Map<String, Double> ms = new HashMap<>();
    for (LandmarkRtt r : landmarkRtts) {
      long us = Integer.toUnsignedLong(r.getRttUs());
      if (!r.getLandmarkId().isEmpty() && us >= 1 && us <= RttBound.MAX_US) ms.merge(r.getLandmarkId(), us / 1000.0, Math::min);
    }
    return new RankedCandidate(key(), coordinate, predictedMs, ms, geoMs, place, reportFactor, demoted);
  }

  static Candidate of(ListedServer s) {
    return new Candidate(s.address(), s.protocol(), Double.NaN);
  }
}
