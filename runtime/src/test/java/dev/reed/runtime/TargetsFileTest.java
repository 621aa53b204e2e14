package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Target;
import dev.reed.proto.v1.TargetSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetsFileTest {
  @Test
  void readsProtocolsCommentsAndIpv6(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("targets.txt");
    Files.writeString(f, """
        # static list
        q3 127.0.0.1:27960
          a2s   127.0.0.2:27015   # trailing comment
        quake3 [::1]:27961

        q3 127.0.0.1:27960
        a2s localhost:27016
        """);
    List<Target> t = TargetsFile.read(f);
    assertThat(t).extracting(x -> Endpoints.key(x.getEndpoint()))
        .containsExactly("127.0.0.1:27960", "127.0.0.2:27015", "[0:0:0:0:0:0:0:1]:27961", "127.0.0.1:27016");
    assertThat(t).extracting(Target::getProtocol).containsExactly(GameProtocol.GAME_PROTOCOL_QUAKE3,
        GameProtocol.GAME_PROTOCOL_A2S, GameProtocol.GAME_PROTOCOL_QUAKE3, GameProtocol.GAME_PROTOCOL_A2S);
  }

  @Test
  void errorsNameTheLine() {
    assertThatThrownBy(() -> TargetsFile.parse("t.txt", List.of("# x", "q4 1.2.3.4:5")))
        .hasMessage("t.txt:2: unknown protocol 'q4' (expected q3 or a2s)");
    assertThatThrownBy(() -> TargetsFile.parse("t.txt", List.of("q3 1.2.3.4")))
        .hasMessage("t.txt:1: expected HOST:PORT, got '1.2.3.4'");
    assertThatThrownBy(() -> TargetsFile.parse("t.txt", List.of("q3 1.2.3.4:70000")))
        .hasMessageContaining("t.txt:1: port out of range");
    assertThatThrownBy(() -> TargetsFile.parse("t.txt", List.of("q3", "a2s 1.2.3.4:x", "q3 1.2.3.4:1 extra")))
        .hasMessageContaining("3 bad lines").hasMessageContaining("t.txt:1:").hasMessageContaining("t.txt:2: bad port")
        .hasMessageContaining("t.txt:3:");
  }

  @Test
  void readNamesTheFileAndResolvesNamesOnce(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("t.txt");
    Files.writeString(f, "q3 127.0.0.1:27960\nquake3 localhost:27961\n");
    List<Target> t = TargetsFile.read(f);
    assertThat(t.get(1).getEndpoint().getIp()).isEqualTo("127.0.0.1");
    assertThat(t).extracting(Target::getSource).containsOnly(TargetSource.TARGET_SOURCE_STATIC);
    Files.writeString(f, "q3 127.0.0.1:27960\nhl 1.2.3.4:5\n");
    assertThatThrownBy(() -> TargetsFile.read(f)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(f + ":2: unknown protocol 'hl' (expected q3 or a2s)");
    Files.writeString(f, "a2s 127.0.0.1:99999\n");
    assertThatThrownBy(() -> TargetsFile.read(f)).hasMessageContaining(f + ":1: port out of range");
  }

  @Test
  void endpointParsesLiteralsWithoutDnsAndRejectsGarbage() {
    assertThat(Endpoints.key(TargetsFile.endpoint("[::1]:27950"))).isEqualTo("[0:0:0:0:0:0:0:1]:27950");
    assertThat(Endpoints.key(TargetsFile.endpoint("203.0.113.7:27960"))).isEqualTo("203.0.113.7:27960");
    assertThatThrownBy(() -> TargetsFile.endpoint("203.0.113.7:")).hasMessage("expected HOST:PORT, got '203.0.113.7:'");
    assertThatThrownBy(() -> TargetsFile.endpoint("no-such-host.invalid:27960"))
        .hasMessage("cannot resolve host 'no-such-host.invalid'");
  }
}
