package dev.reed.probe;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.probe.a2s.A2sCodec;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Request;
import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.probe.responder.ReplyDelay;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.ServerInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine against real UDP sockets on loopback: responders, scripted servers, silent targets. */
class ProbeEngineTest {
  static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  static final ServerInfo INFO = ServerInfo.newBuilder().setName("engine test").setMap("oa_dm1").setGame("baseoa")
      .setGameDescription("test").setPlayers(2).setMaxPlayers(8).setVersion("71").setGameType("0").build();

  /**
   * Upper slack on measured RTTs in these functional tests: the machine is shared and loaded, so
   * only the benchmark (probe/README.md) makes accuracy claims; a measured RTT can never be below
   * the injected delay.
   */
  static final long SLACK_NANOS = 250_000_000L;

  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : closeables.reversed()) {
      c.close();
    }
  }

  private <T extends AutoCloseable> T track(T c) {
    closeables.add(c);
    return c;
  }

  private ProbeEngine.Builder engine() {
    return ProbeEngine.builder().bind(LOOPBACK).rate(1000).timeout(Duration.ofMillis(500))
        .perTargetSpacing(Duration.ZERO);
  }

  private static ProbeResult get(CompletableFuture<ProbeResult> f) throws Exception {
    return f.get(10, TimeUnit.SECONDS);
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("condition not met within 5 s");
      }
      Thread.sleep(5);
    }
  }

  @Test
  void measuresTheInjectedDelayForBothProtocols() throws Exception {
    Duration delay = Duration.ofMillis(40);
    GameQueryResponder responder = track(GameQueryResponder.start(LOOPBACK, () -> INFO, f -> delay));
    ProbeEngine engine = track(engine().build());

    ProbeResult a2s = get(engine.probe(ProbeTarget.a2s(responder.localAddress())));
    assertThat(a2s.status()).isEqualTo(ProbeStatus.PROBE_STATUS_OK);
    assertThat(a2s.ok()).isTrue();
    assertThat(a2s.serverInfo()).isEqualTo(INFO);
    assertThat(a2s.rttNanos()).isBetween(delay.toNanos(), delay.toNanos() + SLACK_NANOS);
    assertThat(a2s.challengeRttNanos()).isBetween(delay.toNanos(), delay.toNanos() + SLACK_NANOS);
    assertThat(a2s.sendTime()).isBefore(Instant.now().plusSeconds(1));
    assertThat(a2s.errorDetail()).isNull();

    ProbeResult q3 = get(engine.probe(ProbeTarget.quake3(responder.localAddress())));
    assertThat(q3.ok()).isTrue();
    assertThat(q3.serverInfo().getName()).isEqualTo("engine test");
    assertThat(q3.rttNanos()).isBetween(delay.toNanos(), delay.toNanos() + SLACK_NANOS);
    assertThat(q3.challengeRttNanos()).isZero();

    ProbeCounters c = engine.counters();
    assertThat(c.sent()).isEqualTo(2);
    assertThat(c.replies()).isEqualTo(2);
    assertThat(c.outstanding()).isZero();
  }

  @Test
  void rttIsTheTickerDifferenceAroundSendAndReceive() throws Exception {
    java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong(1_000_000_000L);
    UdpPeer server = track(new UdpPeer());
    ProbeEngine engine = track(engine().ticker(nanos::get).build());
    CompletableFuture<ProbeResult> f = engine.probe(ProbeTarget.quake3(server.address()));
    UdpPeer.Datagram q = server.receive(5000);
    String challenge = Quake3Codec.decodeRequest(ByteBuffer.wrap(q.data())).challenge();
    nanos.addAndGet(7_654_321L); // the frozen clock moves only here, between send and receive
    server.send(Quake3Codec.encodeInfoResponse(INFO, challenge), q.from());
    ProbeResult r = get(f);
    assertThat(r.ok()).isTrue();
    assertThat(r.rttNanos()).isEqualTo(7_654_321L);
  }

  /**
   * A caller's thread that stalls inside the engine (preempted on a loaded host; here its ticker
   * read parks while {@code probe} holds the engine's lock) must not delay the receive stamps of
   * replies that arrive meanwhile.
   */
  @Test
  void repliesAreStampedWhenReadEvenWhileACallerStallsInsideTheEngine() throws Exception {
    long stallNanos = 1_200_000_000L;
    java.util.concurrent.atomic.AtomicReference<Thread> staller = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.CountDownLatch stalling = new java.util.concurrent.CountDownLatch(1);
    NanoTicker ticker = () -> {
      if (Thread.currentThread() == staller.get() && stalling.getCount() > 0) {
        stalling.countDown();
        java.util.concurrent.locks.LockSupport.parkNanos(stallNanos);
      }
      return System.nanoTime();
    };
    UdpPeer a = track(new UdpPeer());
    UdpPeer b = track(new UdpPeer());
    UdpPeer c = track(new UdpPeer());
    ProbeEngine engine = track(engine().timeout(Duration.ofSeconds(5)).ticker(ticker).build());
    CompletableFuture<ProbeResult> first = engine.probe(ProbeTarget.quake3(a.address()));
    UdpPeer.Datagram qa = a.receive(5000);
    long secondProbed = System.nanoTime();
    CompletableFuture<ProbeResult> second = engine.probe(ProbeTarget.quake3(b.address()));
    UdpPeer.Datagram qb = b.receive(5000);

    Thread t = Thread.ofPlatform().unstarted(() -> engine.probe(ProbeTarget.quake3(c.address())));
    staller.set(t);
    t.start();
    assertThat(stalling.await(5, TimeUnit.SECONDS)).isTrue(); // t holds the engine from now on, for 1.2 s
    a.send(Quake3Codec.encodeInfoResponse(INFO, Quake3Codec.decodeRequest(ByteBuffer.wrap(qa.data())).challenge()), qa.from());
    Thread.sleep(100); // the receiver has read the first reply and waits to match it
    b.send(Quake3Codec.encodeInfoResponse(INFO, Quake3Codec.decodeRequest(ByteBuffer.wrap(qb.data())).challenge()), qb.from());
    long secondAnswered = System.nanoTime();

    assertThat(get(first).ok()).isTrue();
    ProbeResult r = get(second);
    assertThat(r.ok()).isTrue();
    assertThat(r.rttNanos()).as("stamped when read (the stall ends ~1.1 s after the reply was sent)")
        .isLessThan(secondAnswered - secondProbed + 300_000_000L);
    t.join(5000);
  }

  /**
   * The completion thread exists once the engine does, created by the caller's thread: made later by
   * the receiver it would inherit the receiver's scheduling (real-time in the demo).
   */
  @Test
  void theCompletionThreadIsStartedWithTheEngineNotByTheReceiver() throws Exception {
    ProbeEngine engine = track(engine().build());
    String name = "reed-probe-complete-" + engine.localAddress().getPort();
    assertThat(Thread.getAllStackTraces().keySet()).anyMatch(t -> t.getName().equals(name));
  }

  @Test
  void silentTargetTimesOut() throws Exception {
    UdpPeer silent = track(new UdpPeer());
    ProbeEngine engine = track(engine().timeout(Duration.ofMillis(200)).build());
    long t0 = System.nanoTime();
    ProbeResult r = get(engine.probe(ProbeTarget.quake3(silent.address())));
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(200_000_000L);
    assertThat(r.status()).isEqualTo(ProbeStatus.PROBE_STATUS_TIMEOUT);
    assertThat(r.rttNanos()).isZero();
    assertThat(r.serverInfo()).isNull();
    assertThat(silent.receive(1000)).isNotNull(); // the probe did go out
    assertThat(engine.counters().timeouts()).isEqualTo(1);
  }

  @Test
  void quake3SpoofedWrongChallengeMalformedTruncatedOversizedAreCountedAndIgnored() throws Exception {
    UdpPeer server = track(new UdpPeer());
    UdpPeer spoofer = track(new UdpPeer());
    ProbeEngine engine = track(engine().timeout(Duration.ofSeconds(3)).build());
    CompletableFuture<ProbeResult> f = engine.probe(ProbeTarget.quake3(server.address()));
    UdpPeer.Datagram query = server.receive(5000);
    Quake3Request req = Quake3Codec.decodeRequest(ByteBuffer.wrap(query.data()));
    assertThat(req.type()).isEqualTo(Quake3Request.Type.GETINFO);
    assertThat(req.challenge()).matches("[A-Za-z0-9]{12}");
    byte[] good = Quake3Codec.encodeInfoResponse(INFO, req.challenge());

    spoofer.send(good, query.from()); // right challenge, wrong source
    server.send(Quake3Codec.encodeInfoResponse(INFO, "notTheChallenge"), query.from());
    server.send("\377\377\377\377garbage".getBytes(ISO_8859_1), query.from());
    server.send(Arrays.copyOf(good, 10), query.from());
    byte[] oversized = new byte[17_000];
    Arrays.fill(oversized, (byte) 'x');
    System.arraycopy(good, 0, oversized, 0, good.length);
    server.send(oversized, query.from());
    await(() -> engine.counters().malformed() == 3 && engine.counters().unexpected() == 2);
    assertThat(f).isNotDone();

    server.send(good, query.from());
    ProbeResult r = get(f);
    assertThat(r.ok()).isTrue();
    assertThat(r.serverInfo()).isEqualTo(INFO.toBuilder().setGameDescription("").build());

    server.send(good, query.from()); // a late duplicate
    await(() -> engine.counters().unexpected() == 3);
    ProbeCounters c = engine.counters();
    assertThat(c.replies()).isEqualTo(1);
    assertThat(c.malformed()).isEqualTo(3);
    assertThat(c.errors()).isZero();
  }

  @Test
  void a2sChallengeExchangeIsOneProbeAndSurvivesGarbage() throws Exception {
    UdpPeer server = track(new UdpPeer());
    UdpPeer spoofer = track(new UdpPeer());
    ProbeEngine engine = track(engine().timeout(Duration.ofSeconds(3)).build());
    CompletableFuture<ProbeResult> f = engine.probe(ProbeTarget.a2s(server.address()));
    UdpPeer.Datagram q1 = server.receive(5000);
    assertThat(q1.data()).isEqualTo(A2sCodec.encodeInfoRequest());
    Thread.sleep(30);
    server.send(A2sCodec.encodeChallenge(0x11223344), q1.from());
    UdpPeer.Datagram q2 = server.receive(5000);
    assertThat(q2.data()).isEqualTo(A2sCodec.encodeInfoRequest(0x11223344));
    spoofer.send(A2sCodec.encodeInfo(INFO, 0), q2.from());
    server.send(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x49, 17, 'x'}, q2.from());
    server.send(new byte[1500], q2.from());
    await(() -> engine.counters().malformed() == 2 && engine.counters().unexpected() == 1);
    server.send(A2sCodec.encodeInfo(INFO, 0), q2.from());
    ProbeResult r = get(f);
    assertThat(r.ok()).isTrue();
    assertThat(r.serverInfo()).isEqualTo(INFO);
    assertThat(r.challengeRttNanos()).isGreaterThanOrEqualTo(30_000_000L);
    assertThat(r.rttNanos()).isLessThan(r.challengeRttNanos() + 2_000_000_000L);
    assertThat(engine.counters().sent()).isEqualTo(1);
  }

  @Test
  void splitInfoReplyIsReassembled() throws Exception {
    UdpPeer server = track(new UdpPeer());
    ProbeEngine engine = track(engine().build());
    CompletableFuture<ProbeResult> f = engine.probe(ProbeTarget.a2s(server.address()));
    UdpPeer.Datagram q = server.receive(5000);
    byte[] whole = A2sCodec.encodeInfo(INFO, 27015);
    int half = whole.length / 2;
    server.send(fragment(7, 2, 1, Arrays.copyOfRange(whole, half, whole.length)), q.from());
    server.send(fragment(7, 2, 0, Arrays.copyOf(whole, half)), q.from());
    ProbeResult r = get(f);
    assertThat(r.ok()).isTrue();
    assertThat(r.serverInfo()).isEqualTo(INFO);
  }

  @Test
  void bzip2SplitReplyFailsTheProbeWithAClearError() throws Exception {
    UdpPeer server = track(new UdpPeer());
    ProbeEngine engine = track(engine().build());
    CompletableFuture<ProbeResult> f = engine.probe(ProbeTarget.a2s(server.address()));
    UdpPeer.Datagram q = server.receive(5000);
    server.send(fragment(0x8000_0007, 2, 0, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 'B', 'Z', 'h'}), q.from());
    ProbeResult r = get(f);
    assertThat(r.status()).isEqualTo(ProbeStatus.PROBE_STATUS_ERROR);
    assertThat(r.errorDetail()).contains("bzip2");
    assertThat(engine.counters().errors()).isEqualTo(1);
  }

  @Test
  void onlyMalformedRepliesEndInAnError() throws Exception {
    UdpPeer server = track(new UdpPeer());
    ProbeEngine engine = track(engine().timeout(Duration.ofMillis(300)).build());
    CompletableFuture<ProbeResult> f = engine.probe(ProbeTarget.quake3(server.address()));
    UdpPeer.Datagram q = server.receive(5000);
    server.send("\377\377\377\377infoResponse\n\\clients\\lots".getBytes(ISO_8859_1), q.from());
    ProbeResult r = get(f);
    assertThat(r.status()).isEqualTo(ProbeStatus.PROBE_STATUS_ERROR);
    assertThat(r.errorDetail()).contains("malformed").contains("clients");
  }

  static byte[] fragment(int id, int total, int number, byte[] payload) {
    ByteBuffer b = ByteBuffer.allocate(12 + payload.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.putInt(0xFFFF_FFFE).putInt(id).put((byte) total).put((byte) number).putShort((short) 1248).put(payload);
    return b.array();
  }

  @Test
  void globalRateIsRespected() throws Exception {
    int n = 150;
    double rate = 100;
    List<ProbeTarget> targets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      targets.add(ProbeTarget.quake3(track(new UdpPeer()).address()));
    }
    ProbeEngine engine = track(engine().rate(rate).timeout(Duration.ofMillis(100)).build());
    List<CompletableFuture<ProbeResult>> futures = targets.stream().map(engine::probe).toList();
    List<Instant> sends = new ArrayList<>();
    for (CompletableFuture<ProbeResult> f : futures) {
      sends.add(get(f).sendTime());
    }
    sends.sort(null);
    // the bucket holds one token at this rate: n probes need at least (n - 1) / rate seconds
    assertThat(Duration.between(sends.getFirst(), sends.getLast())).isGreaterThanOrEqualTo(Duration.ofMillis(1450));
    for (int i = 0; i < n; i++) {
      int j = i;
      while (j + 1 < n && sends.get(j + 1).isBefore(sends.get(i).plusSeconds(1))) {
        j++;
      }
      assertThat(j - i + 1).as("sends in the second after send %d", i).isLessThanOrEqualTo((int) rate + 2);
    }
  }

  @Test
  void perTargetSpacingHoldsButBurstsBypassIt() throws Exception {
    GameQueryResponder responder = track(GameQueryResponder.start(LOOPBACK, () -> INFO, ReplyDelay.NONE));
    ProbeEngine engine = track(engine().perTargetSpacing(Duration.ofMillis(300)).build());
    ProbeTarget t = ProbeTarget.quake3(responder.localAddress());
    List<CompletableFuture<ProbeResult>> three = List.of(engine.probe(t), engine.probe(t), engine.probe(t));
    List<Instant> sends = new ArrayList<>();
    for (CompletableFuture<ProbeResult> f : three) {
      ProbeResult r = get(f);
      assertThat(r.ok()).isTrue();
      sends.add(r.sendTime());
    }
    // spacing is kept on the monotonic ticker; sendTime is wall-clock, read a moment later
    assertThat(Duration.between(sends.get(0), sends.get(1))).isGreaterThanOrEqualTo(Duration.ofMillis(295));
    assertThat(Duration.between(sends.get(1), sends.get(2))).isGreaterThanOrEqualTo(Duration.ofMillis(295));

    List<ProbeResult> burst = engine.probeBurst(t, 4).get(10, TimeUnit.SECONDS);
    assertThat(burst).hasSize(4).allMatch(ProbeResult::ok);
    // sent together: the four sends within one spacing, where the spacing would put 900 ms between the
    // first and the last (the sends alone, not the replies' round trips, which a loaded machine stretches)
    List<Instant> burstSends = burst.stream().map(ProbeResult::sendTime).sorted().toList();
    assertThat(Duration.between(burstSends.getFirst(), burstSends.getLast())).isLessThan(Duration.ofMillis(295));
    assertThatThrownBy(() -> engine.probeBurst(t, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void outstandingProbesAreBoundedAndCallersWait() throws Exception {
    List<ProbeTarget> targets = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      targets.add(ProbeTarget.quake3(track(new UdpPeer()).address()));
    }
    ProbeEngine engine = track(engine().maxOutstanding(2).timeout(Duration.ofMillis(300)).build());
    long t0 = System.nanoTime();
    engine.probe(targets.get(0));
    engine.probe(targets.get(1));
    assertThat(engine.counters().outstanding()).isEqualTo(2);
    CompletableFuture<ProbeResult> third = engine.probe(targets.get(2)); // blocks until a slot frees
    long waitedMillis = (System.nanoTime() - t0) / 1_000_000;
    assertThat(waitedMillis).isGreaterThanOrEqualTo(280);
    assertThat(engine.counters().outstanding()).isLessThanOrEqualTo(2);
    assertThat(get(third).status()).isEqualTo(ProbeStatus.PROBE_STATUS_TIMEOUT);
  }

  @Test
  void closeCompletesPendingProbes() throws Exception {
    UdpPeer silent = track(new UdpPeer());
    ProbeEngine engine = engine().timeout(Duration.ofSeconds(30)).perTargetSpacing(Duration.ofSeconds(30)).build();
    ProbeTarget t = ProbeTarget.quake3(silent.address());
    CompletableFuture<ProbeResult> inFlight = engine.probe(t);
    CompletableFuture<ProbeResult> waiting = engine.probe(t);
    assertThat(silent.receive(5000)).isNotNull();
    engine.close();
    for (CompletableFuture<ProbeResult> f : List.of(inFlight, waiting, engine.probe(t))) {
      ProbeResult r = f.getNow(null);
      assertThat(r).isNotNull();
      assertThat(r.status()).isEqualTo(ProbeStatus.PROBE_STATUS_ERROR);
      assertThat(r.errorDetail()).isEqualTo("engine closed");
      assertThat(r.sendTime()).isNotNull();
    }
    assertThat(engine.counters().outstanding()).isZero();
    engine.close(); // idempotent
  }

  @Test
  void unsendableTargetIsAnErrorNotAnException() throws Exception {
    ProbeEngine engine = track(engine().build()); // IPv4 socket
    ProbeResult r = get(engine.probe(ProbeTarget.quake3(new InetSocketAddress(InetAddress.getByName("::1"), 27960))));
    assertThat(r.status()).isEqualTo(ProbeStatus.PROBE_STATUS_ERROR);
    assertThat(r.errorDetail()).startsWith("send failed");
    assertThat(engine.counters().errors()).isEqualTo(1);
  }

  @Test
  void targetsAndSettingsAreValidated() {
    assertThatThrownBy(() -> ProbeTarget.quake3(InetSocketAddress.createUnresolved("example.org", 27960)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unresolved");
    assertThatThrownBy(() -> new ProbeTarget(new InetSocketAddress("127.0.0.1", 1),
        dev.reed.proto.v1.GameProtocol.GAME_PROTOCOL_UNSPECIFIED)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ProbeEngine.builder().rate(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ProbeEngine.builder().timeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ProbeEngine.builder().maxOutstanding(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
