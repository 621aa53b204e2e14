package dev.reed.agent.targets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Target;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Decoding the catalog: unchanged records keep the target decoded before, changed and bad ones do not. */
class RoundTargetsTest {

  private static byte[] target(String ip, int port, GameProtocol protocol) {
    return Target.newBuilder().setEndpoint(Endpoint.newBuilder().setIp(ip).setPort(port)).setProtocol(protocol).build()
        .toByteArray();
  }

  @Test
  void anUnchangedRecordGivesTheSameTargetAChangedOneANewOneAndBadOnesAreListed() {
    RoundTargets catalog = new RoundTargets(List.of(), null, null);
    Map<String, byte[]> first = new LinkedHashMap<>();
    first.put("10.0.0.1:27015", target("10.0.0.1", 27015, GameProtocol.GAME_PROTOCOL_A2S));
    first.put("10.0.0.2:27960", target("10.0.0.2", 27960, GameProtocol.GAME_PROTOCOL_QUAKE3));
    first.put("garbage", "not a protobuf".getBytes(StandardCharsets.UTF_8));
    first.put("10.0.0.3:1", target("10.0.0.3", 1, GameProtocol.GAME_PROTOCOL_UNSPECIFIED));
    RoundTargets.Parsed a = catalog.parse(first);
    assertThat(a.targets()).extracting(t -> t.getEndpoint().getIp()).containsExactly("10.0.0.1", "10.0.0.2");
    assertThat(a.invalid()).hasSize(2).anyMatch(s -> s.startsWith("garbage")).anyMatch(s -> s.contains("unsupported protocol"));

    Map<String, byte[]> second = new LinkedHashMap<>();
    second.put("10.0.0.1:27015", target("10.0.0.1", 27015, GameProtocol.GAME_PROTOCOL_A2S)); // equal bytes, a new array
    second.put("10.0.0.2:27960", target("10.0.0.2", 27960, GameProtocol.GAME_PROTOCOL_A2S)); // changed
    second.put("garbage", "not a protobuf".getBytes(StandardCharsets.UTF_8));
    RoundTargets.Parsed b = catalog.parse(second);
    assertThat(b.targets().get(0)).isSameAs(a.targets().get(0));
    assertThat(b.targets().get(1)).isNotSameAs(a.targets().get(1));
    assertThat(b.targets().get(1).getProtocol()).isEqualTo(GameProtocol.GAME_PROTOCOL_A2S);
    assertThat(b.invalid()).hasSize(1); // still bad: a bad record is never kept as decoded

    // a record that left the topic is forgotten: coming back, it is decoded again
    RoundTargets.Parsed c = catalog.parse(Map.of("10.0.0.2:27960", target("10.0.0.2", 27960, GameProtocol.GAME_PROTOCOL_A2S)));
    assertThat(c.targets()).containsExactly(b.targets().get(1));
    RoundTargets.Parsed d = catalog.parse(Map.of("10.0.0.1:27015", target("10.0.0.1", 27015, GameProtocol.GAME_PROTOCOL_A2S)));
    assertThat(d.targets().getFirst()).isNotSameAs(a.targets().get(0)).isEqualTo(a.targets().get(0));
  }
}
