package dev.reed.probe.quake3;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.proto.v1.ServerInfo;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Quake3CodecTest {
  private static byte[] oob(String text) {
    byte[] t = text.getBytes(ISO_8859_1);
    byte[] p = new byte[4 + t.length];
    Arrays.fill(p, 0, 4, (byte) 0xFF);
    System.arraycopy(t, 0, p, 4, t.length);
    return p;
  }

  @Test
  void requestsAreConnectionlessTextCommands() {
    assertThat(Quake3Codec.encodeGetInfo("xyz123")).isEqualTo(oob("getinfo xyz123"));
    assertThat(Quake3Codec.encodeGetStatus("abc")).isEqualTo(oob("getstatus abc"));
    assertThatThrownBy(() -> Quake3Codec.encodeGetInfo("a\\b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Quake3Codec.encodeGetInfo("x".repeat(129))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void challengesAreRandomAndInfostringSafe() {
    SplittableRandom rng = new SplittableRandom(1);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      String c = Quake3Codec.newChallenge(rng);
      assertThat(c).matches("[A-Za-z0-9]{12}");
      seen.add(c);
    }
    assertThat(seen).hasSize(1000);
  }

  @Test
  void decodesAnIoquake3InfoResponseInAnyKeyOrderAndCase() {
    byte[] reply = oob("infoResponse\n\\g_needpass\\0\\pure\\1\\gametype\\0\\sv_maxclients\\12\\g_humanplayers\\2"
        + "\\clients\\3\\mapname\\oa_dm1\\hostname\\^1Reed ^7Test\\protocol\\71\\gamename\\baseoa"
        + "\\challenge\\Abc123xyz");
    Quake3Reply r = Quake3Codec.decodeReply(reply);
    assertThat(r.type()).isEqualTo(Quake3Reply.Type.INFO);
    assertThat(r.challenge()).isEqualTo("Abc123xyz");
    assertThat(r.info().get("MAPNAME")).isEqualTo("oa_dm1");
    assertThat(r.serverInfo()).isEqualTo(ServerInfo.newBuilder().setName("^1Reed ^7Test").setMap("oa_dm1")
        .setGame("baseoa").setPlayers(3).setMaxPlayers(12).setBots(1).setPassword(false).setSecure(true)
        .setVersion("71").setGameType("0").build());

    Quake3Reply upper = Quake3Codec.decodeReply(oob("INFORESPONSE\n\\Challenge\\c1\\HostName\\h\\CLIENTS\\0\n"));
    assertThat(upper.challenge()).isEqualTo("c1");
    assertThat(upper.serverInfo().getName()).isEqualTo("h");
  }

  @Test
  void decodesAStatusResponseWithPlayers() {
    byte[] reply = oob("statusResponse\n\\sv_hostname\\Reed\\mapname\\oa_dm4\\sv_maxclients\\8\\g_gametype\\3"
        + "\\sv_pure\\0\\g_needpass\\1\\gamename\\baseoa\\protocol\\71\\challenge\\zz9\n"
        + "12 48 \"^2alice\"\n0 0 \"Sarge\"\n-3 120 \"bob with \\ spaces\"\n");
    Quake3Reply r = Quake3Codec.decodeReply(reply);
    assertThat(r.type()).isEqualTo(Quake3Reply.Type.STATUS);
    assertThat(r.challenge()).isEqualTo("zz9");
    assertThat(r.players()).containsExactly(new Quake3Player(12, 48, "^2alice"), new Quake3Player(0, 0, "Sarge"),
        new Quake3Player(-3, 120, "bob with \\ spaces"));
    assertThat(r.serverInfo()).isEqualTo(ServerInfo.newBuilder().setName("Reed").setMap("oa_dm4").setGame("baseoa")
        .setPlayers(3).setMaxPlayers(8).setBots(1).setPassword(true).setSecure(false).setVersion("71")
        .setGameType("3").build());
  }

  @Test
  void serverSideEncodersRoundTrip() {
    ServerInfo si = ServerInfo.newBuilder().setName("beacon").setMap("landmark").setGame("reed").setPlayers(4)
        .setMaxPlayers(16).setBots(2).setPassword(true).setSecure(true).setVersion("71").setGameType("0").build();
    Quake3Reply info = Quake3Codec.decodeReply(Quake3Codec.encodeInfoResponse(si, "ch4ll"));
    assertThat(info.challenge()).isEqualTo("ch4ll");
    assertThat(info.serverInfo()).isEqualTo(si);
    List<Quake3Player> players = List.of(new Quake3Player(1, 30, "a"), new Quake3Player(2, 40, "b"),
        new Quake3Player(0, 0, "bot1"), new Quake3Player(0, 0, "bot2"));
    Quake3Reply status = Quake3Codec.decodeReply(Quake3Codec.encodeStatusResponse(si, "c", players));
    assertThat(status.players()).isEqualTo(players);
    assertThat(status.serverInfo()).isEqualTo(si);
    assertThatThrownBy(() -> Quake3Codec.encodeInfoResponse(si.toBuilder().setName("a\\b").build(), "c"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void decodesRequestsServerSide() {
    assertThat(Quake3Codec.decodeRequest(ByteBuffer.wrap(oob("getinfo abc"))))
        .isEqualTo(new Quake3Request(Quake3Request.Type.GETINFO, "abc"));
    assertThat(Quake3Codec.decodeRequest(ByteBuffer.wrap(oob("GetStatus xy\n"))))
        .isEqualTo(new Quake3Request(Quake3Request.Type.GETSTATUS, "xy"));
    assertThat(Quake3Codec.decodeRequest(ByteBuffer.wrap(oob("getstatus\0"))))
        .isEqualTo(new Quake3Request(Quake3Request.Type.GETSTATUS, ""));
    assertThatThrownBy(() -> Quake3Codec.decodeRequest(ByteBuffer.wrap(oob("getinfo " + "x".repeat(129)))))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("128");
    assertThatThrownBy(() -> Quake3Codec.decodeRequest(ByteBuffer.wrap(oob("rcon pw status"))))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("rcon");
    assertThatThrownBy(() -> Quake3Codec.decodeRequest(ByteBuffer.wrap(new byte[] {1, 2})))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("truncated");
  }

  @Test
  void malformedRepliesGiveClearErrors() {
    assertThatThrownBy(() -> Quake3Codec.decodeReply(new byte[0])).isInstanceOf(MalformedPacketException.class)
        .hasMessageContaining("truncated");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("infoResponse"))).isInstanceOf(MalformedPacketException.class)
        .hasMessageContaining("newline");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("print\nhello"))).isInstanceOf(MalformedPacketException.class)
        .hasMessageContaining("print");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("infoResponse\n\\clients\\many")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("clients");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("infoResponse\n\\clients")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("no value");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("infoResponse\n\\a\\1\\A\\2")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("repeats");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("infoResponse\n\\clients\\1\\g_humanplayers\\2")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("g_humanplayers");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("statusResponse\n\\a\\b\n12 x \"n\"\n")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("ping");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("statusResponse\n\\a\\b\n12 3 noquotes\n")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("player line");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("infoResponse\n\\a\\b" + "x".repeat(17000))))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("oversized");
    assertThatThrownBy(() -> Quake3Codec.decodeReply(oob("infoResponse\n\\a\\b\0junk")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("NUL");
    byte[] good = Quake3Codec.encodeInfoResponse(ServerInfo.newBuilder().setName("n").build(), "c");
    for (int len = 0; len < 17; len++) {
      byte[] cut = Arrays.copyOf(good, len);
      assertThatThrownBy(() -> Quake3Codec.decodeReply(cut)).isInstanceOf(MalformedPacketException.class);
    }
  }
}
