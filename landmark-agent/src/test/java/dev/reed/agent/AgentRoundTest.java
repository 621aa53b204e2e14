package dev.reed.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.agent.round.RoundReport;
import dev.reed.probe.NanoTicker;
import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.probe.responder.ReplyDelay;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.kafka.KafkaExtension;
import dev.reed.testbed.openarena.OpenArenaServer;
import dev.reed.testbed.qstat.QStat;
import dev.reed.testbed.relay.CachingQueryProxy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rounds against real parts: the embedded broker, two real OpenArena servers, two emulated A2S
 * servers that require the challenge, and a second agent as the peer landmark.
 *
 * <p>ioquake3 answers a burst of 10 then 1 request/s per source IP: the agent probes each server
 * once per round from 127.0.0.1, and quakestat cross-checks from 127.0.0.9.
 */
@Timeout(180)
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentRoundTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  static final InetAddress QSTAT_SRC = address("127.0.0.9");

  static final List<OpenArenaServer> oa = new ArrayList<>();
  static final List<GameQueryResponder> a2s = new ArrayList<>();

  @TempDir static Path dir;

  static InetAddress address(String ip) {
    try {
      return InetAddress.getByName(ip);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @BeforeAll
  static void servers() throws IOException {
    assumeTrue(OpenArenaServer.isInstalled(), "openarena-server is not installed (apt-get install openarena-server)");
    oa.add(OpenArenaServer.start(OpenArenaServer.Options.defaults().withHostname("reed oa one").withMap("oa_dm1")));
    oa.add(OpenArenaServer.start(OpenArenaServer.Options.defaults().withBindIp(address("127.0.0.2"))
        .withHostname("reed oa two").withMap("oa_dm2")));
    for (int i = 0; i < 2; i++) {
      ServerInfo info = ServerInfo.newBuilder().setName("emulated source " + i).setMap("de_dust2").setGame("cstrike")
          .setGameDescription("Counter-Strike").setPlayers(3 + i).setMaxPlayers(24).setVersion("1.0.0." + i).setAppId(10)
          .build();
      a2s.add(GameQueryResponder.start(new InetSocketAddress("127.0.0.3", 0), () -> info, ReplyDelay.NONE));
    }
  }

  @AfterAll
  static void stopServers() {
    oa.forEach(OpenArenaServer::close);
    a2s.forEach(GameQueryResponder::close);
  }

  static String endpoint(InetSocketAddress a) {
    return a.getAddress().getHostAddress() + ":" + a.getPort();
  }

  static LandmarkAgent agent(String id, Path targets, String bindIp) throws IOException {
    return LandmarkAgent.start(config(id, targets, bindIp).build());
  }

  static AgentConfig.Builder config(String id, Path targets, String bindIp) {
    return AgentConfig.builder(id, KAFKA.broker().bootstrapServers())
        .loopback()
        .region("test/" + id)
        .location(id.equals("lm-a") ? AgentConfig.location(50.11, 8.68) : null) // lm-b states none
        .wsBeacon(id.equals("lm-a") ? new InetSocketAddress(bindIp, 0) : null) // lm-b runs none
        .bind(new InetSocketAddress(bindIp, 0))
        .beacon(new InetSocketAddress(bindIp, 0))
        .targetsFile(targets)
        .spoolDir(dir.resolve("spool-" + id))
        .deliveryTimeout(Duration.ofSeconds(10))
        .seed(42);
  }

  static Map<String, RttSample> samplesOf(String landmark, long round) throws IOException {
    Map<String, RttSample> out = new java.util.HashMap<>();
    for (TopicDump.Rec r : TopicDump.read(KAFKA.broker().bootstrapServers(), Topic.SAMPLES.name())) {
      RttSample s = RttSample.parseFrom(r.value());
      if (!s.getLandmarkId().equals(landmark) || s.getRound() != round) continue;
      assertThat(r.key()).isEqualTo(Endpoints.key(s.getTarget()));
      assertThat(out.put(r.key(), s)).as("one sample per target per round: " + r.key()).isNull();
    }
    return out;
  }

  @Test
  @Order(1)
  void oneRoundPublishesEveryTargetAndTheMeshAndInfoMatchesQuakestat() throws Exception {
    Path targets = dir.resolve("targets.txt");
    Files.writeString(targets, "# two real OpenArena servers, two emulated Source servers\n"
        + "q3 " + endpoint(oa.get(0).address()) + "\n"
        + "q3 " + endpoint(oa.get(1).address()) + "\n"
        + "a2s " + endpoint(a2s.get(0).localAddress()) + "\n"
        + "a2s " + endpoint(a2s.get(1).localAddress()) + "\n");
    try (LandmarkAgent a = agent("lm-a", targets, "127.0.0.1");
        LandmarkAgent b = agent("lm-b", null, "127.0.0.4")) {
      RoundReport rb1 = b.runRound(); // b announces itself
      assertThat(rb1.meshPeers()).isZero();
      RoundReport ra = a.runRound();
      assertThat(ra.targets()).isEqualTo(4);
      assertThat(ra.replies()).isEqualTo(4);
      assertThat(ra.timeouts()).isZero();
      assertThat(ra.meshPeers()).isEqualTo(1);
      assertThat(ra.mesh()).isEqualTo(1);
      assertThat(ra.spooled()).isZero();
      assertThat(ra.published()).isEqualTo(1 + 1 + 4); // announcement, mesh sample, samples
      RoundReport rb2 = b.runRound(); // b now sees a and probes its beacon
      assertThat(rb2.round()).isEqualTo(rb1.round() + 1);
      assertThat(rb2.mesh()).isEqualTo(1);

      Map<String, RttSample> samples = samplesOf("lm-a", ra.round());
      assertThat(samples).hasSize(4);
      for (RttSample s : samples.values()) {
        assertThat(s.getStatus()).isEqualTo(ProbeStatus.PROBE_STATUS_OK);
        assertThat(s.getRttUs()).isBetween(1, 100_000);
        assertThat(s.hasSendTime()).isTrue();
      }
      for (OpenArenaServer server : oa) {
        RttSample s = samples.get(endpoint(server.address()));
        QStat.Reply q = QStat.q3s(server.address(), QSTAT_SRC);
        assertThat(q.up()).as("quakestat sees %s", server.address()).isTrue();
        assertThat(s.getServerInfo().getName()).isEqualTo(q.name());
        assertThat(s.getServerInfo().getMap()).isEqualTo(q.map());
        assertThat(s.getServerInfo().getMaxPlayers()).isEqualTo(q.maxPlayers());
        assertThat(s.getServerInfo().getPlayers()).isEqualTo(q.players());
      }
      RttSample src = samples.get(endpoint(a2s.get(1).localAddress()));
      assertThat(src.getServerInfo().getName()).isEqualTo("emulated source 1");
      assertThat(src.getServerInfo().getPlayers()).isEqualTo(4);
      assertThat(src.getChallengeRttUs()).as("the A2S servers require the challenge").isPositive();


      List<MeshSample> mesh = new ArrayList<>();
      for (TopicDump.Rec r : TopicDump.read(KAFKA.broker().bootstrapServers(), Topic.MESH_SAMPLES.name())) {
        mesh.add(MeshSample.parseFrom(r.value()));
      }
      MeshSample ab = mesh.stream().filter(m -> m.getLandmarkId().equals("lm-a")).findFirst().orElseThrow();
      assertThat(ab.getPeerLandmarkId()).isEqualTo("lm-b");
      assertThat(ab.getStatus()).isEqualTo(ProbeStatus.PROBE_STATUS_OK);
      assertThat(ab.getProbesSent()).isEqualTo(4);
      assertThat(ab.getProbesAnswered()).isEqualTo(4);
      assertThat(ab.getPeerBeacon()).isEqualTo(Endpoints.of(b.beaconAddress()));
      assertThat(mesh).anyMatch(m -> m.getLandmarkId().equals("lm-b") && m.getPeerLandmarkId().equals("lm-a")
          && m.getStatus() == ProbeStatus.PROBE_STATUS_OK);

      Map<String, Landmark> landmarks = TopicDump.read(KAFKA.broker().bootstrapServers(), Topic.LANDMARKS.name()).stream()
          .collect(Collectors.toMap(TopicDump.Rec::key, r -> parseLandmark(r.value()), (x, y) -> y));
      assertThat(landmarks.get("lm-a").getRegion()).isEqualTo("test/lm-a");
      assertThat(landmarks.get("lm-a").getBeacon()).isEqualTo(Endpoints.of(a.beaconAddress()));
      assertThat(landmarks.get("lm-a").getRound()).isEqualTo(ra.round());
      assertThat(landmarks.get("lm-a").getVersion()).isNotBlank();
      assertThat(landmarks.get("lm-a").getLocation().getLatitudeDeg()).isEqualTo(50.11);
      assertThat(landmarks.get("lm-a").getLocation().getLongitudeDeg()).isEqualTo(8.68);
      assertThat(landmarks.get("lm-b").hasLocation()).as("no --location, no location field").isFalse();
      // the WebSocket beacon is announced beside the UDP one, and it echoes
      assertThat(landmarks.get("lm-a").getWsBeaconUrl()).isEqualTo(a.wsBeaconUrl())
          .isEqualTo("ws://" + endpoint(a.wsBeaconBindAddress()) + "/");
      assertThat(landmarks.get("lm-b").getWsBeaconUrl()).isEmpty();
      assertThat(b.wsBeaconUrl()).isNull();
      java.util.concurrent.CompletableFuture<String> echo = new java.util.concurrent.CompletableFuture<>();
      java.net.http.WebSocket ws = java.net.http.HttpClient.newHttpClient().newWebSocketBuilder()
          .buildAsync(java.net.URI.create(a.wsBeaconUrl()), new java.net.http.WebSocket.Listener() {
            @Override
            public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket w, CharSequence data, boolean last) {
              echo.complete(data.toString());
              return null;
            }
          }).join();
      ws.sendText("p:1", true).join();
      assertThat(echo.get(5, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("p:1");
      ws.abort();
      assertThat(a.meterRegistry().get("reed.agent.ws.connections").functionCounter().count()).isEqualTo(1);

      // the beacon answers the real clients players use, with the landmark id as its name
      QStat.Reply beaconQ3 = QStat.q3s(a.beaconAddress(), QSTAT_SRC);
      assertThat(beaconQ3.up()).isTrue();
      assertThat(beaconQ3.name()).isEqualTo("lm-a");
      QStat.Reply beaconA2s = QStat.a2s(a.beaconAddress(), QSTAT_SRC);
      assertThat(beaconA2s.up()).isTrue();
      assertThat(beaconA2s.name()).isEqualTo("lm-a");

      // counters agree with what was published
      double sent = a.meterRegistry().get("reed.agent.probes.sent").functionCounter().count();
      assertThat(sent).isGreaterThanOrEqualTo(4 + 4);

      // reply forensics over LandmarkAgent.CHALLENGE_CHECK_EVERY rounds: each A2S target gets one
      // forged challenge and refuses it; no honest server (the real OpenArena ones included) gives a
      // tell; every answer carries its digest
      List<RttSample> more = new ArrayList<>(samples.values());
      for (int i = 1; i < LandmarkAgent.CHALLENGE_CHECK_EVERY; i++) more.addAll(samplesOf("lm-a", a.runRound().round()).values());
      assertThat(more).hasSize(4 * LandmarkAgent.CHALLENGE_CHECK_EVERY)
          .allMatch(s -> s.getStaleChallengeReplies() == 0)
          .noneMatch(s -> s.getChallengeCheck() == dev.reed.proto.v1.ChallengeCheck.CHALLENGE_CHECK_ACCEPTED)
          .filteredOn(s -> s.getStatus() == ProbeStatus.PROBE_STATUS_OK).allMatch(s -> s.getReplyDigest() != 0);
      for (GameQueryResponder server : a2s) {
        assertThat(more).filteredOn(s -> s.getTarget().equals(Endpoints.of(server.localAddress()))
            && s.getChallengeCheck() == dev.reed.proto.v1.ChallengeCheck.CHALLENGE_CHECK_REFUSED).hasSize(1);
      }
      assertThat(more).filteredOn(s -> s.getProtocol() == dev.reed.proto.v1.GameProtocol.GAME_PROTOCOL_QUAKE3)
          .allMatch(s -> s.getChallengeCheck() == dev.reed.proto.v1.ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED);
      assertThat(a.meterRegistry().find("reed.agent.reply.tells").counter()).isNull();
    }
  }

  /** Last: its landmark's announcement stays on the broker, and the first test counts the peers it sees. */
  @Test
  @Order(2)
  void anAgentSeesTheRepliesOfACachingProxyInFrontOfARealServer() throws Exception {
    try (CachingQueryProxy q3 = CachingQueryProxy.start(new InetSocketAddress("127.0.0.5", 0), oa.get(0).address(),
            Duration.ofHours(1), NanoTicker.SYSTEM);
        CachingQueryProxy src = CachingQueryProxy.start(new InetSocketAddress("127.0.0.5", 0), a2s.get(0).localAddress(),
            Duration.ofHours(1), NanoTicker.SYSTEM)) {
      Path targets = dir.resolve("proxied.txt");
      Files.writeString(targets, "q3 " + endpoint(q3.localAddress()) + "\na2s " + endpoint(src.localAddress()) + "\n");
      // the mesh is not what this checks: one probe to each earlier agent's beacon (gone by now, each
      // would cost 4 probes 1.1 s apart a round), and loopback replies come within 300 ms
      try (LandmarkAgent c = LandmarkAgent.start(config("lm-c", targets, "127.0.0.6").meshProbes(1)
          .probeTimeout(Duration.ofMillis(300)).build())) {
        List<RttSample> seen = new ArrayList<>();
        for (int i = 0; i < LandmarkAgent.CHALLENGE_CHECK_EVERY; i++) seen.addAll(samplesOf("lm-c", c.runRound().round()).values());
        List<RttSample> quake3 = seen.stream().filter(x -> x.getTarget().equals(Endpoints.of(q3.localAddress()))).toList();
        List<RttSample> source = seen.stream().filter(x -> x.getTarget().equals(Endpoints.of(src.localAddress()))).toList();
        // the first round's probe filled the cache with the reply to its own challenge; every later
        // round's (and its retry) got those bytes back
        assertThat(quake3).hasSize(LandmarkAgent.CHALLENGE_CHECK_EVERY);
        assertThat(quake3.subList(1, quake3.size())).allMatch(x -> x.getStatus() == ProbeStatus.PROBE_STATUS_TIMEOUT
            && x.getStaleChallengeReplies() >= 1);
        // the A2S proxy answers everything from its cache: OK every round, the one forged challenge accepted
        assertThat(source).hasSize(LandmarkAgent.CHALLENGE_CHECK_EVERY).allMatch(x -> x.getStatus() == ProbeStatus.PROBE_STATUS_OK);
        assertThat(source).filteredOn(x -> x.getChallengeCheck() == dev.reed.proto.v1.ChallengeCheck.CHALLENGE_CHECK_ACCEPTED)
            .hasSize(1);
        // the Quake3 samples of every round but the first, and the A2S one
        assertThat(c.meterRegistry().get("reed.agent.reply.tells").counter().count())
            .isEqualTo((double) LandmarkAgent.CHALLENGE_CHECK_EVERY);
      }
    }
  }

  private static Landmark parseLandmark(byte[] v) {
    try {
      return Landmark.parseFrom(v);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
