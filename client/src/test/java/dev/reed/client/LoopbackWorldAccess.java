package dev.reed.client;

import dev.reed.proto.v1.GameProtocol;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/** {@link LoopbackWorld} for tests outside this package (the browse command's). */
public final class LoopbackWorldAccess implements AutoCloseable {
  private final LoopbackWorld world;

  private LoopbackWorldAccess(LoopbackWorld world) {
    this.world = world;
  }

  public static LoopbackWorldAccess start(int servers, long seed) throws IOException {
    return new LoopbackWorldAccess(LoopbackWorld.start(servers, seed));
  }

  public String coordinator() {
    return world.coordinator();
  }

  /** "ip:port" of the k servers closest to the client. */
  public List<String> closestKeys(int k) {
    return world.world.closestKeys(k);
  }

  public List<InetSocketAddress> quake3Servers() {
    return world.world.servers.stream().filter(s -> s.protocol() == GameProtocol.GAME_PROTOCOL_QUAKE3)
        .map(FakeWorld.Server::address).toList();
  }

  /** ReportMeasurements calls the fake coordinator has received so far. */
  public int reportsReceived() {
    return world.service.reportRequests.size();
  }

  @Override
  public void close() {
    world.close();
  }
}
