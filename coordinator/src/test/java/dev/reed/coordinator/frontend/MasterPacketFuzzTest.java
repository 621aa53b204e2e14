package dev.reed.coordinator.frontend;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Coverage-guided fuzzing of what the Valve master front end answers (Jazzer; in a plain test run
 * only the seed inputs run, {@code JAZZER_FUZZ=1} fuzzes): no input may throw, and every reply is
 * a well-formed page. The codecs and the filter are fuzzed in probe ({@code MasterCodecFuzzTest}).
 */
class MasterPacketFuzzTest {
  private static final List<ListedServer> SERVERS = List.of(
      new ListedServer(new InetSocketAddress("10.0.0.1", 27015), ServerInfo.newBuilder().setGame("cstrike").setPlayers(1).build()),
      new ListedServer(new InetSocketAddress("10.0.0.2", 27016), null));

  @FuzzTest(maxDuration = "20s")
  void valveMasterRequest(byte[] data) {
    byte[] reply = ValveMasterFrontEnd.answer(data, data.length, p -> p == GameProtocol.GAME_PROTOCOL_A2S ? SERVERS : List.of());
    if (reply != null) {
      assertThat(reply.length).isGreaterThanOrEqualTo(6);
      assertThat((reply.length - 6) % 6).isZero();
    }
  }
}
