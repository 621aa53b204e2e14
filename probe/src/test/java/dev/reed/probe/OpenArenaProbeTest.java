package dev.reed.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Reply;
import dev.reed.proto.v1.ServerInfo;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Quake3 codec and the engine against the real OpenArena dedicated server (Debian's
 * ioquake3-based {@code openarena-server}), and against qstat's view of the same server.
 */
@Tag("integration")
class OpenArenaProbeTest {
  private static final Path SERVER = Path.of("/usr/games/openarena-server");
  private static final Pattern OPENING = Pattern.compile("Opening IP socket: 127\\.0\\.0\\.1:(\\d+)");
  private static Process server;
  private static Path home;
  private static InetSocketAddress address;

  @BeforeAll
  static void startServer() throws Exception {
    assumeTrue(Files.isExecutable(SERVER), "openarena-server is not installed (apt-get install openarena-server)");
    home = Files.createTempDirectory("reed-oa");
    int port;
    try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    server = new ProcessBuilder(SERVER.toString(), "+set", "fs_homepath", home.toString(), "+set", "dedicated", "1",
        "+set", "net_ip", "127.0.0.1", "+set", "net_port", Integer.toString(port), "+set", "net_enabled", "1",
        "+set", "sv_master1", "", "+set", "sv_master2", "", "+set", "sv_master3", "", "+set", "sv_master4", "",
        "+set", "sv_master5", "", "+set", "sv_hostname", "reed probe test", "+set", "sv_maxclients", "12",
        "+map", "oa_dm1")
        .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    CompletableFuture<Integer> opened = new CompletableFuture<>();
    Thread reader = Thread.ofPlatform().daemon().name("openarena-output").start(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          Matcher m = OPENING.matcher(line);
          if (m.find()) {
            opened.complete(Integer.parseInt(m.group(1)));
          }
        }
        opened.completeExceptionally(new IOException("openarena-server exited before opening its socket"));
      } catch (IOException e) {
        opened.completeExceptionally(e);
      }
    });
    address = new InetSocketAddress(InetAddress.getLoopbackAddress(), opened.get(20, TimeUnit.SECONDS));
    assertThat(reader.isAlive()).isTrue();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    }
    if (home != null) {
      try (Stream<Path> files = Files.walk(home)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static ServerInfo probeOnce() throws Exception {
    try (ProbeEngine engine = ProbeEngine.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .timeout(Duration.ofSeconds(2)).build()) {
      ProbeResult r = null;
      // the map may still be loading right after "Opening IP socket": retry a few times, spaced
      for (int i = 0; i < 5; i++) {
        r = engine.probe(ProbeTarget.quake3(address)).get(10, TimeUnit.SECONDS);
        if (r.ok()) {
          break;
        }
      }
      assertThat(r.ok()).as("probe result %s", r).isTrue();
      assertThat(r.rttNanos()).isPositive();
      return r.serverInfo();
    }
  }

  @Test
  void engineDecodesTheRealInfoResponse() throws Exception {
    ServerInfo info = probeOnce();
    assertThat(info.getName()).isEqualTo("reed probe test");
    assertThat(info.getMap()).isEqualTo("oa_dm1");
    assertThat(info.getMaxPlayers()).isEqualTo(12);
    assertThat(info.getPlayers()).isZero();
    assertThat(info.getVersion()).isEqualTo("71");
    assertThat(info.getGame()).isNotEmpty();
  }

  @Test
  void codecDecodesTheRealStatusResponse() throws Exception {
    try (UdpPeer client = new UdpPeer()) {
      Quake3Reply status = null;
      for (int i = 0; i < 5 && status == null; i++) {
        client.send(Quake3Codec.encodeGetStatus("st4tus"), address);
        UdpPeer.Datagram d = client.receive(2000);
        if (d != null) {
          status = Quake3Codec.decodeReply(d.data());
        }
      }
      assertThat(status).isNotNull();
      assertThat(status.type()).isEqualTo(Quake3Reply.Type.STATUS);
      assertThat(status.challenge()).isEqualTo("st4tus");
      assertThat(status.serverInfo().getName()).isEqualTo("reed probe test");
      assertThat(status.serverInfo().getMaxPlayers()).isEqualTo(12);
      assertThat(status.serverInfo().getVersion()).isEqualTo("71");
      assertThat(status.players()).isEmpty();
    }
  }

  @Test
  void engineAgreesWithQstat() throws Exception {
    Path qstat = Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).map(d -> Path.of(d, "quakestat"))
        .filter(Files::isExecutable).findFirst().orElse(null);
    assumeTrue(qstat != null, "quakestat (Debian package qstat) is not installed");
    ServerInfo ours = probeOnce();
    Process p = new ProcessBuilder(qstat.toString(), "-q3s", "127.0.0.1:" + address.getPort(), "-raw", ",")
        .redirectErrorStream(true).start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    // Q3S,addr,name,map,max,players,ping,retries
    List<String> f = List.of(out.split(","));
    assertThat(f).as(out).hasSizeGreaterThanOrEqualTo(6);
    assertThat(f.get(2)).isEqualTo(ours.getName());
    assertThat(f.get(3)).isEqualTo(ours.getMap());
    assertThat(Integer.parseInt(f.get(4))).isEqualTo(ours.getMaxPlayers());
    assertThat(Integer.parseInt(f.get(5))).isEqualTo(ours.getPlayers());
  }
}
