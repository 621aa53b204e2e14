package dev.reed.agent.beacon;

import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.probe.responder.ReplyDelay;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.runtime.PrefixBuckets;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The landmark's calibration beacon: answers A2S_INFO (issuing and checking the 2020 challenge)
 * and Quake3 getinfo/getstatus with the landmark's own description, so that clients can calibrate
 * against landmarks with the probes they send to game servers, and landmarks measure each other
 * with the same protocol (REED section 6.3: the PlanetLab landmarks served as calibration
 * beacons). The server name is the landmark id, the map its region.
 */
public final class Beacon implements AutoCloseable {
  /** The game identifier a beacon reports, so browsers can tell it from a game server. */
  public static final String GAME = "reed-landmark";

  private final GameQueryResponder responder;

  private Beacon(GameQueryResponder responder) {
    this.responder = responder;
  }

  /** @param delay artificial reply delay; {@link ReplyDelay#NONE} outside the testbed */
  public static Beacon start(InetSocketAddress bind, String landmarkId, String region, String version, ReplyDelay delay)
      throws IOException {
    return start(bind, landmarkId, region, version, delay, null);
  }

  /**
   * The same, answering each network prefix at most at its rate ({@code --beacon-rate}): a beacon
   * answers anyone, so without it one host could keep it busy from a whole /64.
   *
   * @param limit queries per network prefix, or null for none
   */
  public static Beacon start(InetSocketAddress bind, String landmarkId, String region, String version, ReplyDelay delay,
      PrefixBuckets limit) throws IOException {
    ServerInfo info = info(landmarkId, region, version);
    return new Beacon(GameQueryResponder.start(bind, () -> info, delay, limit == null ? client -> true : limit::take));
  }

  /** What the beacon says about itself. */
  public static ServerInfo info(String landmarkId, String region, String version) {
    return ServerInfo.newBuilder()
        .setName(landmarkId)
        .setMap(region.isBlank() ? "landmark" : region.replace(' ', '_'))
        .setGame(GAME)
        .setGameDescription("REED landmark beacon")
        .setVersion(version)
        .setGameType("beacon")
        .build();
  }

  public InetSocketAddress localAddress() {
    return responder.localAddress();
  }

  public GameQueryResponder responder() {
    return responder;
  }

  @Override
  public void close() {
    responder.close();
  }
}
