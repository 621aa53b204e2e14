package dev.reed.probe.a2s;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.probe.packet.UnsupportedPacketException;
import dev.reed.proto.v1.ServerInfo;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class A2sCodecTest {
  private static final HexFormat HEX = HexFormat.ofDelimiter(" ");

  /** Builds packets byte by byte, as docs/protocols.md lists them. */
  static final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes hex(String h) {
      out.writeBytes(HEX.parseHex(h));
      return this;
    }

    Bytes str(String s) {
      out.writeBytes(s.getBytes(UTF_8));
      out.write(0);
      return this;
    }

    Bytes b(int v) {
      out.write(v);
      return this;
    }

    Bytes s16(int v) {
      out.write(v & 0xFF);
      out.write((v >> 8) & 0xFF);
      return this;
    }

    Bytes s32(int v) {
      return s16(v).s16(v >>> 16);
    }

    Bytes s64(long v) {
      return s32((int) v).s32((int) (v >>> 32));
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  @Test
  void infoRequestIsTheTwentyFiveSteamBytes() {
    byte[] req = A2sCodec.encodeInfoRequest();
    assertThat(req).hasSize(25);
    assertThat(HEX.formatHex(req)).isEqualTo(
        "ff ff ff ff 54 53 6f 75 72 63 65 20 45 6e 67 69 6e 65 20 51 75 65 72 79 00");
  }

  @Test
  void challengeIsAppendedAsReceived() {
    byte[] challengeReply = HEX.parseHex("ff ff ff ff 41 4a 8f 13 c2");
    A2sChallenge c = (A2sChallenge) A2sCodec.decodeReply(challengeReply);
    byte[] resend = A2sCodec.encodeInfoRequest(c.challenge());
    assertThat(resend).hasSize(29);
    assertThat(Arrays.copyOf(resend, 25)).isEqualTo(A2sCodec.encodeInfoRequest());
    assertThat(HEX.formatHex(resend, 25, 29)).isEqualTo("4a 8f 13 c2");
    assertThat(A2sCodec.encodeChallenge(c.challenge())).isEqualTo(challengeReply);
  }

  @Test
  void decodesSourceInfoWithAllEdfFields() {
    byte[] p = new Bytes().hex("ff ff ff ff 49").b(17).str("My Server").str("de_dust2").str("cstrike")
        .str("Counter-Strike: Source").s16(240).b(12).b(32).b(2).b('d').b('l').b(1).b(1).str("1.0.0.71")
        .b(0x80 | 0x10 | 0x40 | 0x20 | 0x01).s16(27015).s64(90071992547409921L).s16(27020).str("SourceTV")
        .str("alltalk,increased_maxplayers").s64(240L).bytes();
    A2sInfo info = (A2sInfo) A2sCodec.decodeReply(p);
    assertThat(info.serverInfo()).isEqualTo(ServerInfo.newBuilder().setName("My Server").setMap("de_dust2")
        .setGame("cstrike").setGameDescription("Counter-Strike: Source").setPlayers(12).setMaxPlayers(32)
        .setBots(2).setPassword(true).setSecure(true).setVersion("1.0.0.71").setAppId(240)
        .setGameType("alltalk,increased_maxplayers").build());
    assertThat(info.format()).isEqualTo('I');
    assertThat(info.protocolVersion()).isEqualTo(17);
    assertThat(info.serverType()).isEqualTo('d');
    assertThat(info.environment()).isEqualTo('l');
    assertThat(info.gamePort()).isEqualTo(27015);
    assertThat(info.steamId()).isEqualTo(90071992547409921L);
    assertThat(info.gameId()).isEqualTo(240L);
  }

  @Test
  void decodesSourceInfoWithoutEdfAndLargeAppIdFromGameId() {
    byte[] noEdf = new Bytes().hex("ff ff ff ff 49").b(17).str("n").str("m").str("f").str("g").s16(440)
        .b(0).b(24).b(0).b('l').b('w').b(0).b(0).str("v").bytes();
    A2sInfo info = (A2sInfo) A2sCodec.decodeReply(noEdf);
    assertThat(info.serverInfo().getAppId()).isEqualTo(440);
    assertThat(info.serverInfo().getPassword()).isFalse();
    assertThat(info.gamePort()).isZero();

    byte[] gameId = new Bytes().hex("ff ff ff ff 49").b(17).str("n").str("m").str("rust").str("Rust")
        .s16(252490 & 0xFFFF).b(0).b(24).b(0).b('d').b('l').b(0).b(1).str("2").b(0x01).s64(252490L).bytes();
    assertThat(((A2sInfo) A2sCodec.decodeReply(gameId)).serverInfo().getAppId()).isEqualTo(252490);
  }

  @Test
  void decodesTheShipExtraBytes() {
    byte[] p = new Bytes().hex("ff ff ff ff 49").b(7).str("Ship").str("batavier").str("ship").str("The Ship")
        .s16(2400).b(3).b(16).b(0).b('d').b('w').b(0).b(1).b(0).b(2).b(3).str("1.0.0.4").bytes();
    A2sInfo info = (A2sInfo) A2sCodec.decodeReply(p);
    assertThat(info.serverInfo().getVersion()).isEqualTo("1.0.0.4");
    assertThat(info.serverInfo().getAppId()).isEqualTo(2400);
  }

  @Test
  void decodesGoldSrcInfoWithAndWithoutMod() {
    byte[] plain = new Bytes().hex("ff ff ff ff 6d").str("77.111.194.110:27015").str("HLDM").str("crossfire")
        .str("valve").str("Half-Life").b(3).b(16).b(47).b('D').b('L').b(0).b(0).b(1).b(1).bytes();
    A2sInfo info = (A2sInfo) A2sCodec.decodeReply(plain);
    assertThat(info.format()).isEqualTo('m');
    assertThat(info.serverType()).isEqualTo('d');
    assertThat(info.serverInfo().getName()).isEqualTo("HLDM");
    assertThat(info.serverInfo().getPlayers()).isEqualTo(3);
    assertThat(info.serverInfo().getMaxPlayers()).isEqualTo(16);
    assertThat(info.serverInfo().getBots()).isEqualTo(1);
    assertThat(info.serverInfo().getSecure()).isTrue();
    assertThat(info.serverInfo().getVersion()).isEqualTo("47");

    byte[] mod = new Bytes().hex("ff ff ff ff 6d").str("1.2.3.4:27015").str("CS").str("de_aztec")
        .str("cstrike").str("Counter-Strike").b(0).b(20).b(48).b('d').b('w').b(1).b(1)
        .str("http://x").str("http://y").b(0).s32(1).s32(184000000).b(0).b(1).b(0).b(4).bytes();
    A2sInfo m = (A2sInfo) A2sCodec.decodeReply(mod);
    assertThat(m.serverInfo().getBots()).isEqualTo(4);
    assertThat(m.serverInfo().getPassword()).isTrue();
  }

  @Test
  void encodeInfoRoundTrips() {
    ServerInfo si = ServerInfo.newBuilder().setName("reed beacon eu-west").setMap("landmark").setGame("reed")
        .setGameDescription("REED landmark").setPlayers(3).setMaxPlayers(16).setBots(1).setPassword(false)
        .setSecure(true).setVersion("0.1.0").setAppId(252490).setGameType("beacon").build();
    byte[] reply = A2sCodec.encodeInfo(si, 27015);
    A2sInfo back = (A2sInfo) A2sCodec.decodeReply(reply);
    assertThat(back.serverInfo()).isEqualTo(si);
    assertThat(back.gamePort()).isEqualTo(27015);
    ServerInfo ship = ServerInfo.newBuilder().setName("s").setAppId(2400).setVersion("1").build();
    assertThat(((A2sInfo) A2sCodec.decodeReply(A2sCodec.encodeInfo(ship, 0))).serverInfo()).isEqualTo(ship);
  }

  @Test
  void encodeInfoRejectsOversizedInfo() {
    ServerInfo huge = ServerInfo.newBuilder().setName("x".repeat(2000)).build();
    assertThatThrownBy(() -> A2sCodec.encodeInfo(huge, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1400");
  }

  @Test
  void playersAndRulesRoundTrip() {
    List<A2sPlayer> players = List.of(new A2sPlayer(0, "alice", 10, 12.5f), new A2sPlayer(1, "bob", -2, 3f));
    assertThat(((A2sPlayers) A2sCodec.decodeReply(A2sCodec.encodePlayers(players))).players()).isEqualTo(players);
    Map<String, String> rules = new LinkedHashMap<>();
    rules.put("mp_timelimit", "30");
    rules.put("sv_gravity", "800");
    assertThat(((A2sRules) A2sCodec.decodeReply(A2sCodec.encodeRules(rules))).rules()).containsExactlyEntriesOf(rules);
    assertThat(HEX.formatHex(A2sCodec.encodePlayerRequest(-1))).isEqualTo("ff ff ff ff 55 ff ff ff ff");
    assertThat(HEX.formatHex(A2sCodec.encodeRulesRequest(0x04030201))).isEqualTo("ff ff ff ff 56 01 02 03 04");
  }

  @Test
  void decodesRequestsServerSide() {
    assertThat(A2sCodec.decodeRequest(ByteBuffer.wrap(A2sCodec.encodeInfoRequest())))
        .isEqualTo(new A2sRequest(A2sRequest.Type.INFO, false, 0));
    assertThat(A2sCodec.decodeRequest(ByteBuffer.wrap(A2sCodec.encodeInfoRequest(42))))
        .isEqualTo(new A2sRequest(A2sRequest.Type.INFO, true, 42));
    assertThat(A2sCodec.decodeRequest(ByteBuffer.wrap(A2sCodec.encodePlayerRequest(-1))))
        .isEqualTo(new A2sRequest(A2sRequest.Type.PLAYER, true, -1));
    assertThat(A2sCodec.decodeRequest(ByteBuffer.wrap(A2sCodec.encodeRulesRequest(7))))
        .isEqualTo(new A2sRequest(A2sRequest.Type.RULES, true, 7));
    assertThatThrownBy(() -> A2sCodec.decodeRequest(ByteBuffer.wrap(HEX.parseHex("ff ff ff ff 54 53 6f 75"))))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("truncated");
    byte[] wrongText = A2sCodec.encodeInfoRequest();
    wrongText[10] = 'X';
    assertThatThrownBy(() -> A2sCodec.decodeRequest(ByteBuffer.wrap(wrongText)))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("Source Engine Query");
    assertThatThrownBy(() -> A2sCodec.decodeRequest(ByteBuffer.wrap(new byte[1500])))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("oversized");
  }

  @Test
  void malformedRepliesGiveClearErrors() {
    assertThatThrownBy(() -> A2sCodec.decodeReply(new byte[0])).isInstanceOf(MalformedPacketException.class)
        .hasMessageContaining("truncated");
    assertThatThrownBy(() -> A2sCodec.decodeReply(HEX.parseHex("ff ff ff ff 41 01 02")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("challenge");
    assertThatThrownBy(() -> A2sCodec.decodeReply(HEX.parseHex("ff ff ff ff 7a 00")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("0x7A");
    assertThatThrownBy(() -> A2sCodec.decodeReply(HEX.parseHex("00 00 00 00 49 00")))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("header");
    byte[] good = A2sCodec.encodeInfo(ServerInfo.newBuilder().setName("n").setMap("m").build(), 0);
    for (int len = 0; len < good.length; len++) {
      byte[] cut = Arrays.copyOf(good, len);
      assertThatThrownBy(() -> A2sCodec.decodeReply(cut)).isInstanceOf(MalformedPacketException.class);
    }
    assertThatThrownBy(() -> A2sCodec.decodeReply(new byte[1401])).isInstanceOf(MalformedPacketException.class)
        .hasMessageContaining("oversized");
    byte[] trailing = Arrays.copyOf(good, good.length + 3);
    trailing[good.length] = 0x00; // EDF 0 then junk
    trailing[good.length + 1] = 0x55;
    assertThatThrownBy(() -> A2sCodec.decodeReply(trailing)).isInstanceOf(MalformedPacketException.class)
        .hasMessageContaining("trailing");
  }

  @Test
  void splitRepliesReassembleInAnyOrder() {
    Map<String, String> rules = new LinkedHashMap<>();
    for (int i = 0; i < 200; i++) {
      rules.put("rule_number_" + i, "value_" + i);
    }
    byte[] whole = A2sCodec.encodeRules(rules);
    List<byte[]> fragments = A2sCodec.encodeSplit(0x1234, whole, A2sCodec.DEFAULT_SPLIT_SIZE);
    assertThat(fragments.size()).isGreaterThan(1);
    byte[] first = fragments.getFirst();
    assertThat(HEX.formatHex(first, 0, 12)).isEqualTo("fe ff ff ff 34 12 00 00 " + String.format("%02x", fragments.size())
        + " 00 e0 04");
    SplitReassembler r = new SplitReassembler();
    byte[] result = null;
    for (int i = fragments.size() - 1; i >= 0; i--) {
      A2sSplitFragment f = (A2sSplitFragment) A2sCodec.decodeReply(fragments.get(i));
      result = r.offer(f);
      if (i > 0) {
        assertThat(result).isNull();
        assertThat(r.offer(f)).isNull(); // duplicate ignored
      }
    }
    assertThat(result).isEqualTo(whole);
    assertThat(((A2sRules) A2sCodec.decodeReassembled(result)).rules()).containsExactlyEntriesOf(rules);
  }

  @Test
  void bzip2SplitIsAClearUnsupportedError() {
    byte[] p = new Bytes().hex("fe ff ff ff").s32(0x8000_0001).b(2).b(0).s16(1248).s32(5000).s32(0xCAFE).hex("42 5a 68")
        .bytes();
    A2sSplitFragment f = (A2sSplitFragment) A2sCodec.decodeReply(p);
    assertThat(f.compressed()).isTrue();
    assertThatThrownBy(() -> new SplitReassembler().offer(f)).isInstanceOf(UnsupportedPacketException.class)
        .hasMessageContaining("bzip2");
  }

  @Test
  void inconsistentSplitsAreMalformed() {
    SplitReassembler r = new SplitReassembler();
    r.offer(new A2sSplitFragment(1, 3, 0, 1248, new byte[] {1}));
    assertThatThrownBy(() -> r.offer(new A2sSplitFragment(2, 3, 1, 1248, new byte[] {1})))
        .isInstanceOf(MalformedPacketException.class);
    assertThatThrownBy(() -> r.offer(new A2sSplitFragment(1, 4, 1, 1248, new byte[] {1})))
        .isInstanceOf(MalformedPacketException.class);
    assertThatThrownBy(() -> new SplitReassembler().offer(new A2sSplitFragment(1, 200, 1, 1248, new byte[0])))
        .isInstanceOf(MalformedPacketException.class).hasMessageContaining("fragments");
    assertThatThrownBy(() -> A2sCodec.decodeReply(new Bytes().hex("fe ff ff ff").s32(1).b(2).b(2).s16(1248).bytes()))
        .isInstanceOf(MalformedPacketException.class);
    byte[] nested = new Bytes().hex("fe ff ff ff").s32(1).b(1).b(0).s16(1248).bytes();
    assertThatThrownBy(() -> A2sCodec.decodeReassembled(nested)).isInstanceOf(MalformedPacketException.class)
        .hasMessageContaining("nested");
  }

  @Test
  void decoderDoesNotDisturbTheCallersBuffer() {
    ByteBuffer buf = ByteBuffer.wrap(A2sCodec.encodeChallenge(5)).order(ByteOrder.BIG_ENDIAN);
    A2sCodec.decodeReply(buf);
    assertThat(buf.position()).isZero();
    assertThat(buf.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
  }
}
