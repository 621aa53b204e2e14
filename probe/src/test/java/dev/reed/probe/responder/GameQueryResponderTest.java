package dev.reed.probe.responder;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.probe.UdpPeer;
import dev.reed.probe.a2s.A2sChallenge;
import dev.reed.probe.a2s.A2sCodec;
import dev.reed.probe.a2s.A2sInfo;
import dev.reed.probe.a2s.A2sPlayers;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Reply;
import dev.reed.proto.v1.ServerInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GameQueryResponderTest {
  static final ServerInfo INFO = ServerInfo.newBuilder().setName("reed beacon").setMap("landmark").setGame("reed")
      .setGameDescription("REED landmark beacon").setPlayers(3).setMaxPlayers(16).setBots(1).setVersion("71")
      .setGameType("0").setSecure(true).build();
  private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

  private GameQueryResponder responder;

  @AfterEach
  void stop() {
    if (responder != null) {
      responder.close();
    }
  }

  @Test
  void a2sInfoNeedsTheChallengeIssuedToThisAddress() throws Exception {
    responder = GameQueryResponder.start(LOOPBACK, () -> INFO, ReplyDelay.NONE);
    try (UdpPeer client = new UdpPeer(); UdpPeer other = new UdpPeer()) {
      client.send(A2sCodec.encodeInfoRequest(), responder.localAddress());
      A2sChallenge c = (A2sChallenge) A2sCodec.decodeReply(client.receive(2000).data());

      other.send(A2sCodec.encodeInfoRequest(c.challenge()), responder.localAddress());
      assertThat(A2sCodec.decodeReply(other.receive(2000).data())).isInstanceOf(A2sChallenge.class);

      client.send(A2sCodec.encodeInfoRequest(c.challenge()), responder.localAddress());
      A2sInfo info = (A2sInfo) A2sCodec.decodeReply(client.receive(2000).data());
      assertThat(info.serverInfo()).isEqualTo(INFO);
      assertThat(info.gamePort()).isEqualTo(responder.localAddress().getPort());

      client.send(A2sCodec.encodePlayerRequest(-1), responder.localAddress());
      A2sChallenge pc = (A2sChallenge) A2sCodec.decodeReply(client.receive(2000).data());
      client.send(A2sCodec.encodePlayerRequest(pc.challenge()), responder.localAddress());
      assertThat(A2sCodec.decodeReply(client.receive(2000).data())).isInstanceOf(A2sPlayers.class);
    }
    assertThat(responder.counters().answered()).isEqualTo(2);
    assertThat(responder.counters().challengesIssued()).isEqualTo(3);
  }

  @Test
  void quake3QueriesEchoTheChallenge() throws Exception {
    responder = GameQueryResponder.start(LOOPBACK, () -> INFO, ReplyDelay.NONE);
    try (UdpPeer client = new UdpPeer()) {
      client.send(Quake3Codec.encodeGetInfo("abcXYZ123"), responder.localAddress());
      Quake3Reply info = Quake3Codec.decodeReply(client.receive(2000).data());
      assertThat(info.challenge()).isEqualTo("abcXYZ123");
      assertThat(info.serverInfo()).isEqualTo(INFO.toBuilder().setGameDescription("").build());

      client.send(Quake3Codec.encodeGetStatus("s1"), responder.localAddress());
      Quake3Reply status = Quake3Codec.decodeReply(client.receive(2000).data());
      assertThat(status.challenge()).isEqualTo("s1");
      assertThat(status.players()).hasSize(3);
      assertThat(status.serverInfo().getBots()).isEqualTo(1);
    }
  }

  @Test
  void malformedAndOversizedQueriesAreCountedAndDropped() throws Exception {
    responder = GameQueryResponder.start(LOOPBACK, () -> INFO, ReplyDelay.NONE);
    try (UdpPeer client = new UdpPeer()) {
      client.send(new byte[] {1, 2, 3}, responder.localAddress());
      client.send("\377\377\377\377rcon secret quit".getBytes(ISO_8859_1), responder.localAddress());
      client.send(new byte[3000], responder.localAddress());
      client.send(("\377\377\377\377getinfo " + "x".repeat(129)).getBytes(ISO_8859_1), responder.localAddress());
      assertThat(client.receive(300)).isNull();
      client.send(Quake3Codec.encodeGetInfo("ok"), responder.localAddress());
      assertThat(client.receive(2000)).isNotNull();
    }
    assertThat(responder.counters().malformed()).isEqualTo(4);
    assertThat(responder.counters().answered()).isEqualTo(1);
  }

  @Test
  void aDelayedClientDoesNotHoldUpOthers() throws Exception {
    try (UdpPeer slow = new UdpPeer(); UdpPeer fast = new UdpPeer()) {
      InetSocketAddress slowAddress = slow.address();
      responder = GameQueryResponder.start(LOOPBACK, () -> INFO,
          from -> from.equals(slowAddress) ? Duration.ofMillis(1000) : Duration.ofMillis(20));
      long t0 = System.nanoTime();
      slow.send(Quake3Codec.encodeGetInfo("slow"), responder.localAddress());
      fast.send(Quake3Codec.encodeGetInfo("fast"), responder.localAddress());
      assertThat(fast.receive(2000)).isNotNull();
      long fastMs = (System.nanoTime() - t0) / 1_000_000;
      assertThat(slow.receive(2000)).isNotNull();
      long slowMs = (System.nanoTime() - t0) / 1_000_000;
      // held up by the slow one it would come after its 1000 ms; the margin is for a loaded machine
      assertThat(fastMs).isBetween(20L, 800L);
      assertThat(slowMs).isGreaterThanOrEqualTo(1000L);
    }
  }
}
