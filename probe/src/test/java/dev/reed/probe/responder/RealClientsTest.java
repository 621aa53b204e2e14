package dev.reed.probe.responder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.proto.v1.ServerInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The responder as real server browsers see it: qstat (Debian's {@code quakestat}) and gamedig
 * (npm) must report what it was given. Skips, saying which, when a tool is not installed.
 */
@Tag("integration")
class RealClientsTest {
  private static final ServerInfo INFO = ServerInfo.newBuilder().setName("reed beacon test").setMap("landmark_dm")
      .setGame("reed").setGameDescription("REED landmark beacon").setPlayers(5).setMaxPlayers(24).setBots(2)
      .setVersion("71").setGameType("0").setAppId(0).build();

  private GameQueryResponder responder;

  @BeforeEach
  void start() throws IOException {
    responder = GameQueryResponder.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), () -> INFO,
        ReplyDelay.NONE);
  }

  @AfterEach
  void stop() {
    responder.close();
  }

  static Path onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir, tool);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  static String run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out: " + command);
      }
      return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      p.destroyForcibly();
    }
  }

  private String addr() {
    return "127.0.0.1:" + responder.localAddress().getPort();
  }

  @Test
  void quakestatA2sSeesNameMapAndPlayers() throws Exception {
    Path qstat = onPath("quakestat");
    assumeTrue(qstat != null, "quakestat (Debian package qstat) is not installed");
    String out = run(List.of(qstat.toString(), "-a2s", addr(), "-raw", ",")).strip();
    // A2S,addr,name,map,max,players,ping,retries (qstat counts bots separately from players)
    assertThat(out).startsWith("A2S," + addr() + ",reed beacon test,landmark_dm,24,");
    String[] f = out.split(",");
    assertThat(Integer.parseInt(f[5])).isIn(3, 5);
    assertThat(responder.counters().challengesIssued()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void quakestatQ3sSeesNameMapAndPlayers() throws Exception {
    Path qstat = onPath("quakestat");
    assumeTrue(qstat != null, "quakestat (Debian package qstat) is not installed");
    String out = run(List.of(qstat.toString(), "-q3s", addr(), "-raw", ",")).strip();
    assertThat(out).startsWith("Q3S," + addr() + ",reed beacon test,landmark_dm,24,5,");
  }

  @Test
  void gamedigProtocolValveSeesNameMapAndPlayers() throws Exception {
    Path gamedig = onPath("gamedig");
    assumeTrue(gamedig != null, "gamedig is not installed (npm install -g gamedig@5.3.3)");
    String out = run(List.of(gamedig.toString(), "--type", "protocol-valve", "--givenPortOnly", addr()));
    assertThat(out).contains("\"name\":\"reed beacon test\"").contains("\"map\":\"landmark_dm\"")
        .contains("\"maxplayers\":24").contains("\"numplayers\":5");
  }

  @Test
  void gamedigQuake3SeesNameAndMap() throws Exception {
    Path gamedig = onPath("gamedig");
    assumeTrue(gamedig != null, "gamedig is not installed (npm install -g gamedig@5.3.3)");
    String out = run(List.of(gamedig.toString(), "--type", "protocol-quake3", "--givenPortOnly", addr()));
    // gamedig's quake3 protocol reports maxplayers as the cvar string
    assertThat(out).contains("\"name\":\"reed beacon test\"").contains("\"map\":\"landmark_dm\"")
        .contains("\"maxplayers\":\"24\"").contains("\"numplayers\":5");
  }
}
