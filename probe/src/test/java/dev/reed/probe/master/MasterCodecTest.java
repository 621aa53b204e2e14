package dev.reed.probe.master;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.v1.ServerInfo;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MasterCodecTest {
  private static final InetSocketAddress A = new InetSocketAddress("10.0.0.1", 27015);
  private static final InetSocketAddress B = new InetSocketAddress("10.0.0.2", 27016);

  @Test
  void valveRequestRoundTripsAndQstatsStrayByteIsTolerated() {
    byte[] req = ValveMasterCodec.encodeRequest(B, "\\gamedir\\cstrike");
    assertThat(new String(req, StandardCharsets.ISO_8859_1)).isEqualTo("1\u00ff10.0.0.2:27016\0\\gamedir\\cstrike\0");
    assertThat(ValveMasterCodec.decodeRequest(req, req.length)).isEqualTo(new ValveMasterCodec.Request(B, "\\gamedir\\cstrike"));
    byte[] qstat = "1\u00ff10.0.0.2:27016x\0".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(ValveMasterCodec.decodeRequest(qstat, qstat.length)).isEqualTo(new ValveMasterCodec.Request(B, ""));
    byte[] first = ValveMasterCodec.encodeRequest(ValveMasterCodec.FIRST_SEED, null);
    assertThat(ValveMasterCodec.decodeRequest(first, first.length).firstPage()).isTrue();
    byte[] bad = "1\u00ff300.0.0.1:5\0".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(ValveMasterCodec.decodeRequest(bad, bad.length)).isNull();
  }

  @Test
  void valveReplyNamesTheNextSeedUntilTheTerminator() {
    ValveMasterCodec.Page more = ValveMasterCodec.decodeReply(ByteBuffer.wrap(ValveMasterCodec.encodeReply(List.of(A, B), false)));
    assertThat(more.servers()).containsExactly(A, B);
    assertThat(more.nextSeed()).isEqualTo(B);
    ValveMasterCodec.Page last = ValveMasterCodec.decodeReply(ByteBuffer.wrap(ValveMasterCodec.encodeReply(List.of(A), true)));
    assertThat(last.servers()).containsExactly(A);
    assertThat(last.nextSeed()).isNull();
    assertThat(ValveMasterCodec.decodeReply(ByteBuffer.wrap(new byte[] {-1, -1, -1, -1, 0x49, 0x0a}))).isNull();
  }

  @Test
  void quake3ResponsesSplitIntoPacketsAndOnlyTheLastEndsWithEot() {
    List<InetSocketAddress> servers = new ArrayList<>();
    for (int i = 0; i < 500; i++) servers.add(new InetSocketAddress("10.1." + (i / 250) + "." + (i % 250 + 1), 27960));
    List<byte[]> packets = Quake3MasterCodec.encodeResponses(servers, 1400);
    assertThat(packets).hasSizeGreaterThan(1).allMatch(p -> p.length <= 1400);
    List<InetSocketAddress> decoded = new ArrayList<>();
    for (int i = 0; i < packets.size(); i++) {
      Quake3MasterCodec.Response r = Quake3MasterCodec.decodeResponse(ByteBuffer.wrap(packets.get(i)));
      assertThat(r.last()).isEqualTo(i == packets.size() - 1);
      decoded.addAll(r.servers());
    }
    assertThat(decoded).isEqualTo(servers);
    assertThat(Quake3MasterCodec.decodeResponse(ByteBuffer.wrap(Quake3MasterCodec.encodeResponses(List.of(), 1400).getFirst())))
        .isEqualTo(new Quake3MasterCodec.Response(List.of(), true));
  }

  @Test
  void quake3GetServersBothForms() {
    assertThat(new String(Quake3MasterCodec.encodeGetServers(71), StandardCharsets.ISO_8859_1))
        .isEqualTo("\u00ff\u00ff\u00ff\u00ffgetservers 71 empty full");
    assertThat(Quake3MasterCodec.decodeGetServers("getservers 68 empty"))
        .isEqualTo(new Quake3MasterCodec.GetServers(null, "68", true, false));
    assertThat(Quake3MasterCodec.decodeGetServers("getservers Nexuiz 3 full ipv4"))
        .isEqualTo(new Quake3MasterCodec.GetServers("Nexuiz", "3", false, true));
    assertThat(Quake3MasterCodec.decodeGetServers("heartbeat QuakeArena-1")).isNull();
  }

  @Test
  void valveFilterGroupsAndGlobs() {
    ServerInfo s = ServerInfo.newBuilder().setGame("cstrike").setMap("de_dust2").setName("Best Server EU").setPlayers(3)
        .setMaxPlayers(10).setAppId(10).setGameType("alltalk,friendlyfire").build();
    assertThat(ValveFilter.parse("\\gamedir\\cstrike\\map\\DE_DUST2").test(s)).isTrue();
    assertThat(ValveFilter.parse("\\gamedir\\tf").test(s)).isFalse();
    assertThat(ValveFilter.parse("\\name_match\\*EU").test(s)).isTrue();
    assertThat(ValveFilter.parse("\\nor\\1\\map\\de_dust2").test(s)).isFalse();
    assertThat(ValveFilter.parse("\\nand\\2\\map\\de_dust2\\appid\\11").test(s)).isTrue();
    assertThat(ValveFilter.parse("\\gametype\\alltalk").test(s)).isTrue();
    assertThat(ValveFilter.parse("\\gametype\\alltalk,hardcore").test(s)).isFalse();
    assertThat(ValveFilter.parse("\\noplayers\\1").test(s)).isFalse();
    assertThat(ValveFilter.parse("\\unknown\\x\\dangling").test(s)).isTrue();
  }
}
