package dev.reed.testbed.emulated;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.probe.a2s.A2sChallenge;
import dev.reed.probe.a2s.A2sCodec;
import dev.reed.probe.a2s.A2sInfo;
import dev.reed.probe.a2s.A2sPlayers;
import dev.reed.probe.a2s.A2sReply;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Reply;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.testbed.qstat.QStat;
import dev.reed.testbed.world.MatrixModel;
import dev.reed.testbed.world.Noise;
import dev.reed.testbed.world.Region;
import dev.reed.testbed.world.SyntheticWorldModel;
import dev.reed.testbed.world.World;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
@Tag("integration")
class EmulatedGameServersTest {
  private static final int SERVERS = 40;
  /** Never early; late only by scheduling on the shared machine (accuracy is measured by DelayAccuracyBenchmark). */
  private static final double SLACK_MS = 30;
  /** quakestat reports whole ms from its own timestamps; on the loaded machine it was seen 2 ms under. */
  private static final double QSTAT_UNDER_MS = 5;
  private World world;
  private int landmark;
  private EmulatedGameServers farm;

  @BeforeEach
  void start() throws Exception {
    var b = SyntheticWorldModel.builder(11);
    b.addGameServers(SERVERS);
    landmark = b.addLandmark("lm-eu", Region.EU);
    world = World.of(b.build());
    farm = EmulatedGameServers.start(world, IntStream.range(0, SERVERS).toArray(), EmulatedGameServers.Options.defaults());
  }

  @AfterEach
  void stop() {
    farm.close();
  }

  private EmulatedServer first(GameProtocol p) {
    return farm.servers().stream().filter(s -> s.protocol() == p).findFirst().orElseThrow();
  }

  /** Sends one datagram from {@code ch}, returns the reply and writes the RTT in ms to rtt[0]. */
  private static byte[] exchange(DatagramChannel ch, InetSocketAddress to, byte[] request, double[] rtt, long timeoutMs)
      throws Exception {
    var socket = ch.socket();
    socket.setSoTimeout((int) timeoutMs);
    byte[] buf = new byte[2048];
    var packet = new java.net.DatagramPacket(buf, buf.length);
    long t0 = System.nanoTime();
    socket.send(new java.net.DatagramPacket(request, request.length, to));
    socket.receive(packet);
    rtt[0] = (System.nanoTime() - t0) / 1e6;
    return java.util.Arrays.copyOf(buf, packet.getLength());
  }

  /**
   * Repeats an exchange and keeps the smallest RTT in rtt[0], the way REED's landmarks filter
   * scheduling noise (paper 5.1.1): one starved thread on the shared machine must not fail a test.
   */
  private static byte[] minOf3(DatagramChannel ch, InetSocketAddress to, byte[] request, double[] rtt) throws Exception {
    double best = Double.MAX_VALUE;
    byte[] reply = null;
    for (int i = 0; i < 3; i++) {
      reply = exchange(ch, to, request, rtt, 3000);
      best = Math.min(best, rtt[0]);
    }
    rtt[0] = best;
    return reply;
  }

  private DatagramChannel bindAt(InetAddress a) throws Exception {
    return DatagramChannel.open().bind(new InetSocketAddress(a, 0));
  }

  @Test
  void a2sServersIssueTheChallengeAndAnswerAfterTheWorldsRtt() throws Exception {
    EmulatedServer s = first(GameProtocol.GAME_PROTOCOL_A2S);
    double expected = world.rttMs(landmark, s.host());
    double[] rtt = new double[1];
    try (DatagramChannel ch = bindAt(world.address(landmark))) {
      A2sReply first = A2sCodec.decodeReply(minOf3(ch, s.address(), A2sCodec.encodeInfoRequest(), rtt));
      assertThat(first).isInstanceOf(A2sChallenge.class);
      assertThat(rtt[0]).isBetween(expected, expected + SLACK_MS);
      int challenge = ((A2sChallenge) first).challenge();
      A2sReply info = A2sCodec.decodeReply(minOf3(ch, s.address(), A2sCodec.encodeInfoRequest(challenge), rtt));
      assertThat(info).isInstanceOf(A2sInfo.class);
      assertThat(((A2sInfo) info).serverInfo().getName()).isEqualTo(s.info().getName());
      assertThat(((A2sInfo) info).serverInfo().getMap()).isEqualTo(s.info().getMap());
      assertThat(rtt[0]).isBetween(expected, expected + SLACK_MS);
      // a wrong challenge gets a fresh challenge, as Source servers do
      A2sReply again = A2sCodec.decodeReply(exchange(ch, s.address(), A2sCodec.encodeInfoRequest(challenge + 1), rtt, 3000));
      assertThat(again).isEqualTo(new A2sChallenge(challenge));
      A2sReply players = A2sCodec.decodeReply(exchange(ch, s.address(), A2sCodec.encodePlayerRequest(challenge), rtt, 3000));
      assertThat(((A2sPlayers) players).players()).hasSize(s.info().getPlayers());
    }
    var c = farm.counters();
    assertThat(c.challenges()).isEqualTo(4);
    assertThat(c.badChallenges()).isEqualTo(1);
    assertThat(c.unknownSource()).isZero();
  }

  @Test
  void quake3ServersEchoTheChallengeAfterTheWorldsRtt() throws Exception {
    EmulatedServer s = first(GameProtocol.GAME_PROTOCOL_QUAKE3);
    double expected = world.rttMs(landmark, s.host());
    double[] rtt = new double[1];
    try (DatagramChannel ch = bindAt(world.address(landmark))) {
      Quake3Reply r = Quake3Codec.decodeReply(minOf3(ch, s.address(), Quake3Codec.encodeGetInfo("xyz123"), rtt));
      assertThat(r.type()).isEqualTo(Quake3Reply.Type.INFO);
      assertThat(r.challenge()).isEqualTo("xyz123");
      assertThat(r.serverInfo().getName()).isEqualTo(s.info().getName());
      assertThat(r.serverInfo().getGame()).isEqualTo("Quake3Arena");
      assertThat(rtt[0]).isBetween(expected, expected + SLACK_MS);
      Quake3Reply status = Quake3Codec.decodeReply(exchange(ch, s.address(), Quake3Codec.encodeGetStatus("s1"), rtt, 3000));
      assertThat(status.players()).hasSize(s.info().getPlayers());
    }
  }

  @Test
  void malformedAndWrongProtocolQueriesAreDroppedAndCounted() throws Exception {
    EmulatedServer a2s = first(GameProtocol.GAME_PROTOCOL_A2S);
    EmulatedServer q3 = first(GameProtocol.GAME_PROTOCOL_QUAKE3);
    double[] rtt = new double[1];
    try (DatagramChannel ch = bindAt(world.address(landmark))) {
      for (byte[] junk : List.of(new byte[0], new byte[] {1, 2, 3}, new byte[1500], Quake3Codec.encodeGetInfo("x"))) {
        ch.send(ByteBuffer.wrap(junk), a2s.address());
      }
      ch.send(ByteBuffer.wrap(A2sCodec.encodeInfoRequest()), q3.address());
      ch.send(ByteBuffer.wrap(("\u00ff\u00ff\u00ff\u00ffgetinfo " + "x".repeat(200)).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)),
          q3.address());
      await().atMost(Duration.ofSeconds(10)).until(() -> farm.counters().malformed() == 6);
      // still answering afterwards
      assertThat(Quake3Codec.decodeReply(exchange(ch, q3.address(), Quake3Codec.encodeGetInfo("ok"), rtt, 3000)).challenge())
          .isEqualTo("ok");
    }
    assertThat(farm.counters().replies()).isEqualTo(1);
  }

  @Test
  void probesFromOutsideTheWorldAreAnsweredWithoutDelay() throws Exception {
    EmulatedServer q3 = first(GameProtocol.GAME_PROTOCOL_QUAKE3);
    double[] rtt = new double[1];
    try (DatagramChannel ch = bindAt(InetAddress.getByName("127.0.0.1"))) {
      exchange(ch, q3.address(), Quake3Codec.encodeGetInfo("a"), rtt, 3000);
    }
    assertThat(rtt[0]).isLessThan(world.rttMs(landmark, q3.host()));
    assertThat(farm.counters().unknownSource()).isEqualTo(1);
  }

  @Test
  void worldNoiseLosesRepliesAndUnreachablePairsNeverAnswer() throws Exception {
    World lossy = World.of(MatrixModel.of(new double[][] {{0, 5, Double.NaN}, {5, 0, 5}, {Double.NaN, 5, 0}}, null))
        .withNoise(new Noise(0, 0.5));
    try (var small = EmulatedGameServers.start(lossy, new int[] {0}, EmulatedGameServers.Options.defaults().withA2sShare(0));
        DatagramChannel near = bindAt(lossy.address(1));
        DatagramChannel unreachable = bindAt(lossy.address(2))) {
      InetSocketAddress server = small.servers().get(0).address();
      for (int i = 0; i < 200; i++) {
        near.send(ByteBuffer.wrap(Quake3Codec.encodeGetInfo("n" + i)), server);
      }
      unreachable.send(ByteBuffer.wrap(Quake3Codec.encodeGetInfo("u")), server);
      await().atMost(Duration.ofSeconds(10)).until(() -> small.counters().received() == 201);
      var c = small.counters();
      assertThat(c.lost()).isBetween(60L, 140L);
      assertThat(c.replies() + c.lost()).isEqualTo(201);
      unreachable.socket().setSoTimeout(300);
      try {
        unreachable.socket().receive(new java.net.DatagramPacket(new byte[2048], 2048));
        throw new AssertionError("an unreachable pair got a reply");
      } catch (SocketTimeoutException expected) {
        // no path
      }
    }
  }

  @Test
  void theRealQuakestatClientSeesTheServersAndTheWorldsLatency() throws Exception {
    assumeTrue(QStat.isInstalled(), "quakestat is not installed (apt-get install qstat)");
    InetAddress lm = world.address(landmark);
    for (GameProtocol p : List.of(GameProtocol.GAME_PROTOCOL_A2S, GameProtocol.GAME_PROTOCOL_QUAKE3)) {
      EmulatedServer s = first(p);
      QStat.Reply r = null;
      int minPing = Integer.MAX_VALUE;
      for (int i = 0; i < 3; i++) {  // smallest of three, as REED's landmarks do
        r = p == GameProtocol.GAME_PROTOCOL_A2S ? QStat.a2s(s.address(), lm) : QStat.q3s(s.address(), lm);
        assertThat(r.up()).as("%s %s", p, r).isTrue();
        minPing = Math.min(minPing, r.pingMs());
      }
      assertThat(r.name()).isEqualTo(s.info().getName());
      assertThat(r.map()).isEqualTo(s.info().getMap());
      assertThat(r.maxPlayers()).isEqualTo(s.info().getMaxPlayers());
      double model = world.rttMs(landmark, s.host());
      assertThat((double) minPing).as("%s ping vs model", p).isBetween(model - QSTAT_UNDER_MS, model + SLACK_MS);
    }
  }
}
