package dev.reed.testbed.emulated;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.world.Host;
import dev.reed.testbed.world.Region;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ServerInfoGeneratorTest {
  private static final Host FRANKFURT = new Host(0, "s", Region.EU, "Frankfurt", 50.1, 8.7);

  @Test
  void sameSeedSameServersAndARealisticMix() {
    ServerInfoGenerator g = new ServerInfoGenerator(5);
    assertThat(g.generate(17, GameProtocol.GAME_PROTOCOL_A2S, FRANKFURT))
        .isEqualTo(new ServerInfoGenerator(5).generate(17, GameProtocol.GAME_PROTOCOL_A2S, FRANKFURT))
        .isNotEqualTo(new ServerInfoGenerator(6).generate(17, GameProtocol.GAME_PROTOCOL_A2S, FRANKFURT));
    List<ServerInfo> css = IntStream.range(0, 10_000).mapToObj(i -> g.generate(i, GameProtocol.GAME_PROTOCOL_A2S, FRANKFURT)).toList();
    double n = css.size();
    assertThat(css.stream().filter(s -> s.getPlayers() == 0).count() / n).isBetween(0.42, 0.48);
    assertThat(css.stream().filter(s -> s.getPlayers() == s.getMaxPlayers()).count() / n).isBetween(0.08, 0.12);
    assertThat(css.stream().filter(ServerInfo::getPassword).count() / n).isBetween(0.06, 0.10);
    assertThat(css).allSatisfy(s -> {
      assertThat(s.getGame()).isEqualTo("cstrike");
      assertThat(s.getAppId()).isEqualTo(240);
      assertThat(ServerInfoGenerator.CSS_MAPS).contains(s.getMap());
      assertThat(s.getPlayers()).isBetween(0, s.getMaxPlayers());
      assertThat(s.getBots()).isBetween(0, s.getPlayers());
      assertThat(s.getName()).startsWith("[EU] ").contains("Frankfurt");
    });
    ServerInfo oa = g.generate(3, GameProtocol.GAME_PROTOCOL_QUAKE3, FRANKFURT);
    assertThat(oa.getGame()).isEqualTo("Quake3Arena");
    assertThat(oa.getVersion()).isEqualTo("71");
    assertThat(ServerInfoGenerator.OA_MAPS).contains(oa.getMap());
    assertThatThrownBy(() -> g.generate(1, GameProtocol.GAME_PROTOCOL_UNSPECIFIED, FRANKFURT))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
