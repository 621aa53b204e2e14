package dev.reed.client;

import dev.reed.coordinates.Coordinate;
import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * A {@link FakeWorld} on loopback for tests of the SDK and the browse command with real probes:
 * every server and calibration beacon is a real {@link GameQueryResponder} (A2S and Quake3 over
 * UDP) at its own 127.x address, delaying its reply by its world RTT to the client, and the fake
 * coordinator is served over real gRPC/TCP on 127.0.0.1. (The real coordinator, agents and
 * OpenArena servers are exercised in {@link EndToEndTest}.)
 */
final class LoopbackWorld implements AutoCloseable {
  final FakeWorld world;
  final FakeReedService service;
  private final List<GameQueryResponder> responders = new ArrayList<>();
  private final Server grpc;

  private LoopbackWorld(int servers, long seed) throws IOException {
    world = new FakeWorld(Coordinate.of(0, 0));
    Random rnd = new Random(seed);
    try {
      for (int i = 0; i < servers; i++) {
        // 15 ms between consecutive true RTTs: the order survives a loaded machine's late replies
        double rtt = 10 + 15 * i;
        double angle = rnd.nextDouble() * 2 * Math.PI;
        Coordinate c = Coordinate.of(rtt * Math.cos(angle), rtt * Math.sin(angle));
        boolean q3 = i % 2 == 0;
        ServerInfo info = ServerInfo.newBuilder().setName("loop-" + i).setMap(i % 3 == 0 ? "oa_dm4" : "oa_dm1")
            .setGame(q3 ? "baseoa" : "cstrike").setPlayers(i % 4).setMaxPlayers(12).build();
        world.servers.add(new FakeWorld.Server(start(FakeWorld.address(31, i), info, world.client.distanceTo(c)),
            q3 ? GameProtocol.GAME_PROTOCOL_QUAKE3 : GameProtocol.GAME_PROTOCOL_A2S, c, info, true));
      }
      for (int i = 0; i < 6; i++) {
        double a = 2 * Math.PI * i / 6;
        Coordinate c = Coordinate.of(150 * Math.cos(a) + 5, 150 * Math.sin(a) - 3);
        ServerInfo info = ServerInfo.newBuilder().setName("beacon-" + i).setGame("reed-beacon").build();
        world.calibration.add(new FakeWorld.Server(start(FakeWorld.address(32, i), info, world.client.distanceTo(c)),
            GameProtocol.GAME_PROTOCOL_A2S, c, info, true));
      }
      service = new FakeReedService(world);
      grpc = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
          .addService(service).build().start();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** {@code servers} game servers 10, 25, 40 ... ms from the client (in random directions), 6 calibration beacons. */
  static LoopbackWorld start(int servers, long seed) throws IOException {
    return new LoopbackWorld(servers, seed);
  }

  private InetSocketAddress start(InetSocketAddress at, ServerInfo info, double rttMs) throws IOException {
    Duration delay = Duration.ofNanos((long) (rttMs * 1e6));
    GameQueryResponder r = GameQueryResponder.start(new InetSocketAddress(at.getAddress(), 0), () -> info, from -> delay);
    responders.add(r);
    return r.localAddress();
  }

  /** "127.0.0.1:port" of the fake coordinator. */
  String coordinator() {
    return "127.0.0.1:" + grpc.getPort();
  }

  @Override
  public void close() {
    for (GameQueryResponder r : responders) r.close();
    if (grpc != null) {
      grpc.shutdownNow();
      try {
        grpc.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
