package dev.reed.coordinator.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Coverage-guided fuzzing of what the master front ends parse from the network (Jazzer; in a
 * plain test run only the seed inputs run, {@code JAZZER_FUZZ=1} fuzzes): no input may throw,
 * and every Valve reply is a well-formed page.
 */
class MasterPacketFuzzTest {
  private static final List<ListedServer> SERVERS = List.of(
      new ListedServer(new InetSocketAddress("10.0.0.1", 27015), ServerInfo.newBuilder().setGame("cstrike").setPlayers(1).build()),
      new ListedServer(new InetSocketAddress("10.0.0.2", 27016), null));

  @FuzzTest(maxDuration = "20s")
  void valveMasterRequest(byte[] data) {
    byte[] reply = ValveMasterServer.answer(data, data.length, p -> p == GameProtocol.GAME_PROTOCOL_A2S ? SERVERS : List.of());
    if (reply != null) {
      assertThat(reply.length).isGreaterThanOrEqualTo(6);
      assertThat((reply.length - 6) % 6).isZero();
    }
  }

  @FuzzTest(maxDuration = "10s")
  void valveFilter(byte[] data) {
    ValveFilter f = ValveFilter.parse(new String(data, java.nio.charset.StandardCharsets.ISO_8859_1));
    f.test(ServerInfo.getDefaultInstance());
    f.test(SERVERS.getFirst().info());
  }

  @FuzzTest(maxDuration = "10s")
  void quake3InfoString(byte[] data) {
    Quake3MasterServer.toServerInfo(InfoString.parse(new String(data, java.nio.charset.StandardCharsets.ISO_8859_1)));
  }
}
