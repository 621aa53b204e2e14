package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A synthetic world for the SDK's pure-logic tests: servers at known 2-D coordinates (ms), a
 * client at a true position, and the RTT between them = their distance. The fake coordinator
 * serves it and the fake prober answers from it.
 */
final class FakeWorld {

  record Server(InetSocketAddress address, GameProtocol protocol, Coordinate coordinate, ServerInfo info, boolean answers) {
    String key() {
      return dev.reed.proto.Endpoints.key(address);
    }
  }

  final Coordinate client;
  final List<Server> servers = new ArrayList<>();
  final List<Server> calibration = new ArrayList<>();
  /** Servers whose coordinate (what the coordinator serves) is wrong: where they truly are, by key. */
  final java.util.Map<String, Coordinate> truePosition = new java.util.concurrent.ConcurrentHashMap<>();

  FakeWorld(Coordinate client) {
    this.client = client;
  }

  /** n game servers spread over [-300, 300]^2 ms, every 7th a Quake3 server, every 5th full. */
  static FakeWorld random(int n, long seed) {
    FakeWorld w = new FakeWorld(Coordinate.of(0, 0));
    Random rnd = new Random(seed);
    for (int i = 0; i < n; i++) {
      Coordinate c = Coordinate.of(rnd.nextDouble() * 600 - 300, rnd.nextDouble() * 600 - 300);
      boolean q3 = i % 7 == 0;
      ServerInfo info = ServerInfo.newBuilder().setName("server-" + i).setMap(i % 2 == 0 ? "oa_dm1" : "oa_dm4")
          .setGame(q3 ? "baseoa" : "cstrike").setPlayers(i % 5 == 0 ? 16 : i % 3).setMaxPlayers(16).build();
      w.servers.add(new Server(address(10, i), q3 ? GameProtocol.GAME_PROTOCOL_QUAKE3 : GameProtocol.GAME_PROTOCOL_A2S,
          c, info, true));
    }
    // 8 calibration beacons around the space
    for (int i = 0; i < 8; i++) {
      double a = 2 * Math.PI * i / 8;
      Coordinate c = Coordinate.of(250 * Math.cos(a) + 20, 250 * Math.sin(a) - 10);
      w.calibration.add(new Server(address(20, i), GameProtocol.GAME_PROTOCOL_A2S, c,
          ServerInfo.newBuilder().setName("beacon-" + i).setGame("reed-beacon").build(), true));
    }
    return w;
  }

  static InetSocketAddress address(int b, int i) {
    try {
      return new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, (byte) b, (byte) (i / 250), (byte) (1 + i % 250)}),
          27000 + i % 1000);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  double rttMs(Server s) {
    return client.distanceTo(trueCoordinate(s));
  }

  /** Where the server truly is (its coordinate unless it is misplaced). */
  Coordinate trueCoordinate(Server s) {
    return truePosition.getOrDefault(s.key(), s.coordinate());
  }

  Server find(InetSocketAddress a) {
    for (Server s : servers) if (s.address().equals(a)) return s;
    for (Server s : calibration) if (s.address().equals(a)) return s;
    return null;
  }

  /** Every server's key as the coordinator ranks them from {@code from}: by coordinate distance, then key. */
  List<String> byPredictedDistance(Coordinate from) {
    return servers.stream().sorted(java.util.Comparator.comparingDouble((Server s) -> from.distanceTo(s.coordinate()))
        .thenComparing(Server::key)).map(Server::key).toList();
  }

  /** The k servers with the lowest true RTT among those answering. */
  List<String> closestKeys(int k) {
    return servers.stream().filter(Server::answers).sorted(java.util.Comparator.comparingDouble(this::rttMs)).limit(k)
        .map(Server::key).toList();
  }
}
