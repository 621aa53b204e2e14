package dev.reed.client;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * A server ranked for a group: predicted, not measured (the group needs no all-to-all probing).
 *
 * @param address the server
 * @param protocol how it is queried
 * @param scoreMs the group score: worst member's or mean predicted RTT, in ms
 * @param memberPredictedMs predicted RTT per member, in the order of the members given, in ms
 * @param info the latest server info the landmarks saw
 */
public record GroupServer(InetSocketAddress address, GameProtocol protocol, double scoreMs,
    List<Double> memberPredictedMs, ServerInfo info) {
  public GroupServer {
    memberPredictedMs = List.copyOf(memberPredictedMs);
  }

  public String key() {
    return Endpoints.key(address);
  }
}
