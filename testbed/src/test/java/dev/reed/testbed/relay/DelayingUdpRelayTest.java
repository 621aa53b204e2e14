package dev.reed.testbed.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.testbed.openarena.OpenArenaServer;
import dev.reed.testbed.qstat.QStat;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
@Tag("integration")
class DelayingUdpRelayTest {
  /** Never early; late only by scheduling on the shared machine. */
  private static final double SLACK_MS = 20;
  private Thread echoThread;
  private DatagramSocket echo;

  /** A plain UDP echo server that prefixes each reply with the sender's address. */
  @BeforeEach
  void startEcho() throws Exception {
    echo = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.4.1"), 0));
    echoThread = new Thread(() -> {
      byte[] buf = new byte[2048];
      while (!echo.isClosed()) {
        try {
          DatagramPacket p = new DatagramPacket(buf, buf.length);
          echo.receive(p);
          byte[] reply = (p.getAddress().getHostAddress() + "|" + new String(p.getData(), 0, p.getLength(),
              StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
          echo.send(new DatagramPacket(reply, reply.length, p.getSocketAddress()));
        } catch (Exception closed) {
          return;
        }
      }
    }, "echo");
    echoThread.start();
  }

  @AfterEach
  void stopEcho() throws Exception {
    echo.close();
    echoThread.join(2000);
  }

  private InetSocketAddress echoAddress() {
    return (InetSocketAddress) echo.getLocalSocketAddress();
  }

  private static InetSocketAddress listen() throws Exception {
    return new InetSocketAddress(InetAddress.getByName("127.0.4.2"), 0);
  }

  /** Sends one datagram from {@code client} and returns the reply text and the RTT in ms. */
  private static String roundTrip(DatagramSocket client, InetSocketAddress to, String text, double[] rttMs)
      throws Exception {
    byte[] out = text.getBytes(StandardCharsets.UTF_8);
    long t0 = System.nanoTime();
    client.send(new DatagramPacket(out, out.length, to));
    byte[] buf = new byte[2048];
    DatagramPacket p = new DatagramPacket(buf, buf.length);
    client.receive(p);
    rttMs[0] = (System.nanoTime() - t0) / 1e6;
    return new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8);
  }

  @Test
  void delaysEachDirectionPerClientAndKeepsTheClientsAddress() throws Exception {
    InetAddress near = InetAddress.getByName("127.0.5.1");
    InetAddress far = InetAddress.getByName("127.0.5.2");
    PathDelay delay = c -> c.getAddress().equals(near) ? Duration.ofMillis(5) : Duration.ofMillis(30);
    try (DelayingUdpRelay relay = DelayingUdpRelay.start(listen(), echoAddress(), delay);
        DatagramSocket a = new DatagramSocket(new InetSocketAddress(near, 0));
        DatagramSocket b = new DatagramSocket(new InetSocketAddress(far, 0))) {
      a.setSoTimeout(2000);
      b.setSoTimeout(2000);
      List<Double> nearRtts = new ArrayList<>();
      List<Double> farRtts = new ArrayList<>();
      double[] rtt = new double[1];
      for (int i = 0; i < 10; i++) {
        assertThat(roundTrip(a, relay.address(), "a" + i, rtt)).isEqualTo("127.0.5.1|a" + i);
        nearRtts.add(rtt[0]);
        assertThat(roundTrip(b, relay.address(), "b" + i, rtt)).isEqualTo("127.0.5.2|b" + i);
        farRtts.add(rtt[0]);
      }
      Collections.sort(nearRtts);
      Collections.sort(farRtts);
      assertThat(nearRtts.get(0)).isGreaterThanOrEqualTo(10.0);
      assertThat(nearRtts.get(5)).isLessThan(10.0 + SLACK_MS);
      assertThat(farRtts.get(0)).isGreaterThanOrEqualTo(60.0);
      assertThat(farRtts.get(5)).isLessThan(60.0 + SLACK_MS);
      var c = relay.counters();
      assertThat(c.fromClients()).isEqualTo(20);
      assertThat(c.fromUpstream()).isEqualTo(20);
      await().atMost(Duration.ofSeconds(10)).until(() -> relay.counters().sent() == 40);
      assertThat(c.sessionsOpened()).isEqualTo(2);
      assertThat(c.dropped()).isZero();
    }
  }

  @Test
  void boundsItsSessionsByEvictingTheLeastRecentlyActiveClient() throws Exception {
    var options = new DelayingUdpRelay.Options(2, Duration.ofSeconds(60), 1024, true);
    try (DelayingUdpRelay relay = DelayingUdpRelay.start(listen(), echoAddress(), PathDelay.NONE, options)) {
      double[] rtt = new double[1];
      for (int i = 1; i <= 3; i++) {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.6." + i), 0))) {
          s.setSoTimeout(2000);
          assertThat(roundTrip(s, relay.address(), "x", rtt)).isEqualTo("127.0.6." + i + "|x");
        }
      }
      var c = relay.counters();
      assertThat(c.sessionsOpened()).isEqualTo(3);
      assertThat(c.sessionsEvicted()).isEqualTo(1);
      assertThat(c.activeSessions()).isEqualTo(2);
    }
  }

  @Test
  void aFailingPathDelayDropsThatDatagramAndCountsItWhileOthersPass() throws Exception {
    InetAddress bad = InetAddress.getByName("127.0.7.1");
    PathDelay delay = c -> {
      if (c.getAddress().equals(bad)) {
        throw new IllegalStateException("no such host in the world");
      }
      return Duration.ofMillis(1);
    };
    try (DelayingUdpRelay relay = DelayingUdpRelay.start(listen(), echoAddress(), delay);
        DatagramSocket badClient = new DatagramSocket(new InetSocketAddress(bad, 0));
        DatagramSocket good = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.7.2"), 0))) {
      badClient.setSoTimeout(300);
      good.setSoTimeout(2000);
      double[] rtt = new double[1];
      try {
        roundTrip(badClient, relay.address(), "lost", rtt);
        throw new AssertionError("a datagram with a failing delay was forwarded");
      } catch (SocketTimeoutException expected) {
        // dropped
      }
      assertThat(roundTrip(good, relay.address(), "ok", rtt)).isEqualTo("127.0.7.2|ok");
      assertThat(relay.counters().dropped()).isEqualTo(1);
    }
  }

  @Test
  void putsARealOpenArenaServer80msFurtherAwayForQuakestat() throws Exception {
    assumeTrue(OpenArenaServer.isInstalled(), "openarena-server is not installed (apt-get install openarena-server)");
    assumeTrue(QStat.isInstalled(), "quakestat is not installed (apt-get install qstat)");
    InetAddress client = InetAddress.getByName("127.0.8.1");
    try (OpenArenaServer server = OpenArenaServer.start(OpenArenaServer.Options.defaults()
            .withBindIp(InetAddress.getByName("127.0.8.2")).withHostname("relayed"));
        DelayingUdpRelay relay = DelayingUdpRelay.start(listen(), server.address(), PathDelay.fixed(Duration.ofMillis(40)))) {
      QStat.Reply direct = QStat.q3s(server.address(), client);
      QStat.Reply relayed = QStat.q3s(relay.address(), client);
      assertThat(direct.up()).as("direct %s", direct).isTrue();
      assertThat(relayed.up()).as("relayed %s", relayed).isTrue();
      assertThat(relayed.name()).isEqualTo("relayed");
      assertThat(relayed.map()).isEqualTo("oa_dm1");
      // quakestat reports whole ms (seen up to 2 ms under the true RTT)
      assertThat(relayed.pingMs()).isBetween(80 - 5, direct.pingMs() + 80 + (int) SLACK_MS);
      assertThat(relay.counters().sessionsOpened()).isEqualTo(1);
    }
  }
}
