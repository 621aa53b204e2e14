package dev.reed.coordinator.frontend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Both master front ends against the real qstat client and real UDP sockets. */
@Tag("integration")
class MasterQuakestatTest {

  static boolean quakestatInstalled() {
    return Files.isExecutable(Path.of("/usr/bin/quakestat"));
  }

  static List<String> quakestat(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/quakestat"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("quakestat finished").isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
  }

  static ListedServer server(String ip, int port, ServerInfo info) throws IOException {
    return new ListedServer(new InetSocketAddress(InetAddress.getByName(ip), port), info);
  }

  @Test
  void valveMasterPagesThroughMoreThanOnePacketWithQuakestat() throws Exception {
    assumeTrue(quakestatInstalled(), "quakestat (Debian package qstat) is not installed");
    List<ListedServer> servers = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      servers.add(server("127.77." + (i / 200) + "." + (i % 200 + 1), 27015,
          ServerInfo.newBuilder().setGame(i % 2 == 0 ? "cstrike" : "tf").setPlayers(i % 3).setMaxPlayers(16).build()));
    }
    try (ValveMasterFrontEnd m = ValveMasterFrontEnd.start(new InetSocketAddress("127.0.0.1", 0),
        p -> p == GameProtocol.GAME_PROTOCOL_A2S ? servers : List.of())) {
      // quakestat's default timeouts, not -timeout 1: on a loaded CI machine one second is too short
      List<String> out = quakestat("-stm", "127.0.0.1:" + m.localAddress().getPort(), "-raw", ",", "-mi", "0.2");
      assertThat(out).as("quakestat printed nothing (master requests seen: %d)", m.counters().requests()).isNotEmpty();
      String header = out.getFirst();
      assertThat(header).as(String.join("\n", out)).contains(",500");
      assertThat(m.counters().requests()).isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void valveMasterFiltersAndPagesWithCursor() throws Exception {
    List<ListedServer> servers = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      servers.add(server("10.2.0." + 0 + "", 1000 + i,
          ServerInfo.newBuilder().setGame(i % 2 == 0 ? "cstrike" : "tf").setMap("de_dust2").setPlayers(i % 3).setMaxPlayers(2).build()));
    }
    try (ValveMasterFrontEnd m = ValveMasterFrontEnd.start(new InetSocketAddress("127.0.0.1", 0), p -> servers);
        DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
      client.setSoTimeout(2000);
      String seed = "0.0.0.0:0";
      int total = 0;
      for (int page = 0; page < 10; page++) {
        byte[] req = ("1\u00ff" + seed + "\0\\gamedir\\cstrike\\empty\\1\\full\\1\0").getBytes(StandardCharsets.ISO_8859_1);
        req[0] = 0x31;
        client.send(new DatagramPacket(req, req.length, m.localAddress()));
        byte[] buf = new byte[2000];
        DatagramPacket r = new DatagramPacket(buf, buf.length);
        client.receive(r);
        assertThat(buf[4]).isEqualTo((byte) 0x66);
        boolean end = false;
        for (int off = 6; off + 6 <= r.getLength(); off += 6) {
          int port = ((buf[off + 4] & 0xff) << 8) | (buf[off + 5] & 0xff);
          if (port == 0 && buf[off] == 0) {
            end = true;
            break;
          }
          int i = port - 1000;
          assertThat(i % 2).isZero(); // cstrike
          assertThat(i % 3).isEqualTo(1); // not empty (0 players) and not full (2 of 2)
          total++;
          seed = "10.2.0.0:" + port;
        }
        if (end) break;
      }
      assertThat(total).isEqualTo(50); // i even and i % 3 == 1: i = 4, 10, ..., 298
      // garbage never kills the front end
      client.send(new DatagramPacket(new byte[] {0x31}, 1, m.localAddress()));
      client.send(new DatagramPacket(new byte[] {0x31, 0x00, 'x'}, 3, m.localAddress()));
      byte[] ok = "1\u00ff0.0.0.0:0\0\0".getBytes(StandardCharsets.ISO_8859_1);
      ok[0] = 0x31;
      client.send(new DatagramPacket(ok, ok.length, m.localAddress()));
      DatagramPacket r = new DatagramPacket(new byte[2000], 2000);
      client.receive(r);
      assertThat(m.counters().malformed()).isEqualTo(2);
    }
  }

  /** A fake game server that answers getinfo with the challenge it was given (or a wrong one). */
  static Thread fakeQuake3Server(DatagramSocket s, boolean echoChallenge) {
    return Thread.ofPlatform().daemon().start(() -> {
      byte[] buf = new byte[1500];
      try {
        while (!s.isClosed()) {
          DatagramPacket p = new DatagramPacket(buf, buf.length);
          s.receive(p);
          String cmd = new String(buf, 4, p.getLength() - 4, StandardCharsets.ISO_8859_1);
          if (!cmd.startsWith("getinfo ")) continue;
          String challenge = echoChallenge ? cmd.substring(8).strip() : "forged";
          byte[] reply = ("\u00ff\u00ff\u00ff\u00ffinfoResponse\n\\challenge\\" + challenge
              + "\\gamename\\baseoa\\protocol\\71\\hostname\\fake\\mapname\\oa_dm1\\clients\\0\\sv_maxclients\\12")
              .getBytes(StandardCharsets.ISO_8859_1);
          s.send(new DatagramPacket(reply, reply.length, p.getSocketAddress()));
        }
      } catch (IOException e) {
        // socket closed: test over
      }
    });
  }

  @Test
  void quake3MasterVerifiesHeartbeatsAndQuakestatListsThem() throws Exception {
    assumeTrue(quakestatInstalled(), "quakestat (Debian package qstat) is not installed");
    List<InetSocketAddress> registered = new CopyOnWriteArrayList<>();
    try (Quake3MasterFrontEnd m = Quake3MasterFrontEnd.start(new InetSocketAddress("127.0.0.1", 0), p -> List.of(),
            (a, i) -> registered.add(a), Clock.systemUTC());
        DatagramSocket honest = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        DatagramSocket liar = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
      fakeQuake3Server(honest, true);
      fakeQuake3Server(liar, false);
      byte[] hb = "\u00ff\u00ff\u00ff\u00ffheartbeat QuakeArena-1\n".getBytes(StandardCharsets.ISO_8859_1);
      honest.send(new DatagramPacket(hb, hb.length, m.localAddress()));
      liar.send(new DatagramPacket(hb, hb.length, m.localAddress()));
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
          .until(() -> m.counters().registered() == 1 && m.counters().rejected() == 1);
      assertThat(registered).containsExactly((InetSocketAddress) honest.getLocalSocketAddress());
      List<String> out = quakestat("-q3m", "127.0.0.1:" + m.localAddress().getPort(), "-mi", "0.2", "-raw", ",");
      assertThat(String.join("\n", out)).contains(",1").contains("127.0.0.1:" + honest.getLocalPort());
      assertThat(String.join("\n", out)).doesNotContain("127.0.0.1:" + liar.getLocalPort());
      List<String> oa = quakestat("-openarenam", "127.0.0.1:" + m.localAddress().getPort(), "-mi", "0.2", "-raw", ",");
      assertThat(String.join("\n", oa)).contains("127.0.0.1:" + honest.getLocalPort());
      // malformed packets are counted and dropped; the master keeps answering
      try (DatagramSocket junk = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
        byte[][] bad = {{1, 2, 3}, {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff},
            "\u00ff\u00ff\u00ff\u00ffrcon secret status".getBytes(StandardCharsets.ISO_8859_1),
            "\u00ff\u00ff\u00ff\u00ffinfoResponse\n\\challenge\\guess".getBytes(StandardCharsets.ISO_8859_1),
            "\u00ff\u00ff\u00ff\u00ffgetservers".getBytes(StandardCharsets.ISO_8859_1)};
        for (byte[] b : bad) junk.send(new DatagramPacket(b, b.length, m.localAddress()));
      }
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5))
          .until(() -> m.counters().malformed() >= 3 && m.counters().rejected() == 2);
      assertThat(m.counters().registered()).isEqualTo(1);
      assertThat(String.join("\n", quakestat("-q3m", "127.0.0.1:" + m.localAddress().getPort(), "-mi", "0.2", "-raw", ",")))
          .contains("127.0.0.1:" + honest.getLocalPort());
    }
  }
}
