package dev.reed.testbed.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.probe.NanoTicker;
import dev.reed.probe.ProbeEngine;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.probe.responder.ReplyDelay;
import dev.reed.proto.v1.ChallengeCheck;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.openarena.OpenArenaServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The probe engine's reply forensics against real parts over real UDP: a real game-query
 * responder (A2S with the December 2020 challenge, Quake3), the real OpenArena server, and the
 * caching proxy in front of each. Several engines on their own loopback addresses stand for
 * landmarks. Honest servers must never give a tell; the proxy must, to every landmark but the one
 * whose query filled its cache.
 */
@Timeout(120)
@Tag("integration")
class CachingQueryProxyTest {
  private static final ServerInfo INFO = ServerInfo.newBuilder().setName("forensics").setMap("oa_dm1").setGame("baseoa")
      .setPlayers(3).setMaxPlayers(16).build();
  private static final int LANDMARKS = 3;
  private static final int ROUNDS = 4;
  /** Probes answered in time on a loaded 2-core machine: most, not all (loopback RTTs reach 400 ms there). */
  private static final double MOST = 0.75;

  private static List<ProbeEngine> landmarks(String prefix) throws Exception {
    List<ProbeEngine> out = new ArrayList<>();
    for (int i = 1; i <= LANDMARKS; i++) {
      out.add(ProbeEngine.builder().bind(new InetSocketAddress(InetAddress.getByName(prefix + i), 0))
          .timeout(Duration.ofSeconds(1)).perTargetSpacing(Duration.ofMillis(20)).rate(1000).build());
    }
    return out;
  }

  /** Every landmark probes the target ROUNDS times, one landmark after the other, checking A2S challenges each time. */
  private static List<ProbeResult> probeAll(List<ProbeEngine> engines, ProbeTarget target) {
    List<ProbeResult> out = new ArrayList<>();
    for (int round = 0; round < ROUNDS; round++) {
      for (ProbeEngine e : engines) out.add(e.probeForgingChallenge(target).join());
    }
    return out;
  }

  private static List<ProbeResult> answered(List<ProbeResult> results) {
    return results.stream().filter(ProbeResult::ok).toList();
  }

  private static long tells(List<ProbeResult> results) {
    return results.stream().filter(r -> r.forensics().tell()).count();
  }

  @Test
  void theResponderGivesNoTellAndTheProxyInFrontOfItDoes() throws Exception {
    List<ProbeEngine> engines = landmarks("127.0.9.");
    try (GameQueryResponder server = GameQueryResponder.start(
            new InetSocketAddress(InetAddress.getByName("127.0.9.100"), 0), () -> INFO, ReplyDelay.NONE);
        CachingQueryProxy proxy = CachingQueryProxy.start(new InetSocketAddress(InetAddress.getByName("127.0.9.101"), 0),
            server.localAddress(), Duration.ofMinutes(5), NanoTicker.SYSTEM)) {
      List<ProbeResult> honestA2s = probeAll(engines, ProbeTarget.a2s(server.localAddress()));
      List<ProbeResult> honestQ3 = probeAll(engines, ProbeTarget.quake3(server.localAddress()));
      assertThat(answered(honestA2s)).allMatch(r -> r.forensics().challengeCheck() == ChallengeCheck.CHALLENGE_CHECK_REFUSED)
          .hasSizeGreaterThanOrEqualTo((int) (MOST * honestA2s.size()));
      assertThat(answered(honestQ3)).hasSizeGreaterThanOrEqualTo((int) (MOST * honestQ3.size()));
      assertThat(tells(honestA2s) + tells(honestQ3)).as("false tells on an honest server").isZero();
      // an honest server sends every landmark the same bytes too: digests alone say nothing
      assertThat(answered(honestA2s).stream().map(r -> r.forensics().replyDigest()).distinct()).hasSize(1);
      assertThat(answered(honestQ3).stream().map(r -> r.forensics().replyDigest()).distinct()).hasSize(1);

      List<ProbeResult> proxiedA2s = probeAll(engines, ProbeTarget.a2s(proxy.localAddress()));
      assertThat(answered(proxiedA2s)).allMatch(r -> r.forensics().challengeCheck() == ChallengeCheck.CHALLENGE_CHECK_ACCEPTED)
          .hasSizeGreaterThanOrEqualTo((int) (MOST * proxiedA2s.size()))
          .allMatch(r -> r.serverInfo().getName().equals("forensics"));
      List<ProbeResult> proxiedQ3 = probeAll(engines, ProbeTarget.quake3(proxy.localAddress()));
      // the first query filled the cache with a reply to its own challenge; every later one gets those
      // bytes, and with no reply to its own challenge times out
      assertThat(proxiedQ3.subList(1, proxiedQ3.size())).noneMatch(ProbeResult::ok);
      assertThat(tells(proxiedA2s)).isGreaterThanOrEqualTo((long) (MOST * LANDMARKS * ROUNDS));
      assertThat(tells(proxiedQ3)).isGreaterThanOrEqualTo((long) (MOST * (LANDMARKS * ROUNDS - 1)));
      assertThat(proxy.counters().fetched()).isEqualTo(2);
    } finally {
      engines.forEach(ProbeEngine::close);
    }
  }

  @Test
  void realOpenArenaGivesNoTellAndTheProxyInFrontOfItDoes() throws Exception {
    assumeTrue(OpenArenaServer.isInstalled(), "openarena-server is not installed (apt-get install openarena-server)");
    List<ProbeEngine> engines = landmarks("127.0.10.");
    try (OpenArenaServer server = OpenArenaServer.start(OpenArenaServer.Options.defaults()
            .withBindIp(InetAddress.getByName("127.0.10.100")).withHostname("forensics"));
        CachingQueryProxy proxy = CachingQueryProxy.start(new InetSocketAddress(InetAddress.getByName("127.0.10.101"), 0),
            server.address(), Duration.ofMinutes(5), NanoTicker.SYSTEM)) {
      List<ProbeResult> honest = probeAll(engines, ProbeTarget.quake3(server.address()));
      assertThat(answered(honest)).hasSizeGreaterThanOrEqualTo((int) (MOST * honest.size()));
      assertThat(tells(honest)).as("false tells on OpenArena").isZero();
      List<ProbeResult> proxied = probeAll(engines, ProbeTarget.quake3(proxy.localAddress()));
      assertThat(proxied.subList(1, proxied.size())).noneMatch(ProbeResult::ok);
      assertThat(tells(proxied)).isGreaterThanOrEqualTo((long) (MOST * (LANDMARKS * ROUNDS - 1)));
    } finally {
      engines.forEach(ProbeEngine::close);
    }
  }
}
