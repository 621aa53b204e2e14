package dev.reed.testbed.openarena;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.testbed.qstat.QStat;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
@Tag("integration")
class OpenArenaServerTest {

  @BeforeEach
  void needsOpenArenaAndQstat() {
    assumeTrue(OpenArenaServer.isInstalled(), "openarena-server is not installed (apt-get install openarena-server)");
    assumeTrue(QStat.isInstalled(), "quakestat is not installed (apt-get install qstat)");
  }

  @Test
  void startsOnAnEmulatedHostAddressAndAnswersQuakestat(@TempDir Path home) throws Exception {
    InetAddress ip = InetAddress.getByName("127.0.3.7");
    var options = OpenArenaServer.Options.defaults().withBindIp(ip).withHostname("reed oa test")
        .withHomeDir(home).withCvar("sv_maxclients", "12");
    OpenArenaServer server = OpenArenaServer.start(options);
    try (server) {
      assertThat(server.address().getAddress()).isEqualTo(ip);
      QStat.Reply reply = QStat.q3s(server.address(), null);
      assertThat(reply.up()).as("quakestat reply %s; console:%n%s", reply, server.consoleTail()).isTrue();
      assertThat(reply.name()).isEqualTo("reed oa test");
      assertThat(reply.map()).isEqualTo("oa_dm1");
      assertThat(reply.maxPlayers()).isEqualTo(12);
      assertThat(reply.pingMs()).isLessThan(20);
      assertThat(Files.exists(home.resolve("baseoa"))).isTrue();
    }
    assertThat(server.isAlive()).isFalse();
  }

  @Test
  void reportsThePortItReallyBoundWhenTheRequestedOneIsTaken() throws Exception {
    InetAddress ip = InetAddress.getByName("127.0.3.8");
    try (DatagramSocket squatter = new DatagramSocket(new InetSocketAddress(ip, 0))) {
      int taken = squatter.getLocalPort();
      try (OpenArenaServer server = OpenArenaServer.start(OpenArenaServer.Options.defaults().withBindIp(ip).withPort(taken))) {
        assertThat(server.address().getPort()).isBetween(taken + 1, taken + 9);
        assertThat(QStat.q3s(server.address(), null).up()).isTrue();
      }
    }
  }

  @Test
  void temporaryHomeIsDeletedOnClose() throws Exception {
    Path home;
    try (OpenArenaServer server = OpenArenaServer.start(OpenArenaServer.Options.defaults())) {
      home = server.homeDir();
      assertThat(Files.isDirectory(home.resolve("baseoa"))).isTrue();
    }
    assertThat(Files.exists(home)).isFalse();
  }

  @Test
  void failsWithAClearErrorWhenTheServerNeverBecomesReady() {
    var options = OpenArenaServer.Options.defaults().withMap("no_such_map_reed").withStartTimeout(Duration.ofSeconds(3));
    assertThatThrownBy(() -> OpenArenaServer.start(options))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("OpenArena server did not start")
        .hasMessageContaining("console:");
  }

  @Test
  void rejectsNonLoopbackAddressesAndHeartbeatsWithoutAMaster() throws Exception {
    InetAddress outside = InetAddress.getByName("192.0.2.1");
    assertThatThrownBy(() -> OpenArenaServer.Options.defaults().withBindIp(outside))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("loopback");
    assertThatThrownBy(() -> new OpenArenaServer.Options(InetAddress.getLoopbackAddress(), 0, "h", "oa_dm1", 2, null,
        null, null, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("master");
    assertThat(OpenArenaServer.command(OpenArenaServer.Options.defaults().withMaster("127.0.0.1:27950"), Path.of("/h"), 27960))
        .containsSequence("+set", "dedicated", "2")
        .containsSequence("+set", "sv_master1", "127.0.0.1:27950")
        .containsSequence("+set", "sv_master2", "")
        .containsSequence("+set", "net_port", "27960")
        .endsWith("+map", "oa_dm1");
  }
}
