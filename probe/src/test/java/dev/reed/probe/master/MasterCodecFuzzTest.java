package dev.reed.probe.master;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.reed.proto.v1.ServerInfo;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of the master-list parsers (Jazzer; in a plain test run only the seed
 * inputs run, {@code JAZZER_FUZZ=1} fuzzes). They see untrusted packets and may only return null
 * for what is not theirs, never throw.
 */
class MasterCodecFuzzTest {
  @FuzzTest(maxDuration = "10s")
  void valveRequest(byte[] data) {
    ValveMasterCodec.decodeRequest(data, data.length);
  }

  @FuzzTest(maxDuration = "10s")
  void valveReply(byte[] data) {
    ValveMasterCodec.decodeReply(ByteBuffer.wrap(data));
  }

  @FuzzTest(maxDuration = "10s")
  void quake3Response(byte[] data) {
    Quake3MasterCodec.decodeResponse(ByteBuffer.wrap(data));
    Quake3MasterCodec.decodeGetServers(new String(data, StandardCharsets.ISO_8859_1));
  }

  @FuzzTest(maxDuration = "10s")
  void valveFilter(byte[] data) {
    ValveFilter f = ValveFilter.parse(new String(data, StandardCharsets.ISO_8859_1));
    f.test(ServerInfo.getDefaultInstance());
    f.test(ServerInfo.newBuilder().setGame("cstrike").setPlayers(1).build());
  }
}
