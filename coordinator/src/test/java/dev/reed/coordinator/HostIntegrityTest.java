package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinator.api.EachCallDeadline;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.ChallengeCheck;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.IntegrityKind;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerFilter;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.proto.v1.SuspectServers;
import dev.reed.testbed.kafka.KafkaExtension;
import dev.reed.testbed.world.Host;
import dev.reed.testbed.world.Region;
import dev.reed.testbed.world.SyntheticWorldModel;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hosts that lie against the real parts: embedded Kafka, the real coordinator, real
 * gRPC. A geographic world (testbed {@link SyntheticWorldModel}: 12 landmarks on six continents,
 * 150 honest game servers with routes inflated and detoured as measured on PlanetLab) with two
 * liars: an anycast server whose queries the nearest of three edges answers (where the game servers
 * nearest the first European, North American and Asian landmarks are; each landmark measures the
 * minimum over them) and a query proxy 1 ms from the first
 * European landmark (Frankfurt) in front of a game in Dallas (every other landmark measures the real
 * RTT plus 5 ms through the proxy), and a naive query proxy beside a game (RTTs of one host) that
 * answers the agents' forged A2S challenges. Samples are published round by round exactly as agents
 * publish them, with the agents' reply forensics: each landmark forges a challenge to each target
 * one round in 6, the honest servers and the anycast edges refuse it; every landmark gets the same
 * reply digest from an honest server and from the proxy, each anycast edge its own.
 */
@Tag("integration")
class HostIntegrityTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  private static final int HONEST = 150;
  private static final int ANYCAST = HONEST;
  private static final int PROXY = HONEST + 1;
  private static final int NAIVE = HONEST + 2;
  private static final int ALL = HONEST + 3;

  private final SyntheticWorldModel world;
  private final int[] landmarks;
  private final int[] servers; // world host of each honest server; the liars' rows are computed
  private final int[] sites;
  private final int proxiedGame;
  private final SplittableRandom noise = new SplittableRandom(18);

  HostIntegrityTest() {
    SyntheticWorldModel.Builder b = SyntheticWorldModel.builder(18);
    List<Integer> lm = new ArrayList<>();
    for (Region r : List.of(Region.EU, Region.EU, Region.EU, Region.EU, Region.NA, Region.NA, Region.NA, Region.SA,
        Region.AS, Region.AS, Region.OC, Region.AF)) {
      lm.add(b.addLandmark("lm-" + lm.size(), r));
    }
    landmarks = lm.stream().mapToInt(Integer::intValue).toArray();
    int first = b.addGameServers(HONEST);
    servers = new int[HONEST];
    for (int i = 0; i < HONEST; i++) servers[i] = first + i;
    // the proxied game in a data centre in Dallas, the next North American hosting city after the
    // landmarks' (New York, Chicago, Ashburn)
    proxiedGame = b.addLandmark("proxied game", Region.NA);
    world = b.build();
    // the anycast edges sit where hosting is, as a DDoS-protection network's do: beside the game
    // servers nearest to the first European, North American and Asian landmarks
    sites = new int[] {nearestServer(0), nearestServer(4), nearestServer(8)};
  }

  private int nearestServer(int k) {
    int best = servers[0];
    for (int h : servers) if (world.rttMs(landmarks[k], h) < world.rttMs(landmarks[k], best)) best = h;
    return best;
  }

  private static String landmarkId(int k) {
    return "lm-" + k;
  }

  private static Endpoint target(int t) {
    return Endpoint.newBuilder().setIp("127.0.3." + (t + 1)).setPort(27960).build();
  }

  /** What landmark k measures to target t before noise, ms. */
  private double rttMs(int k, int t) {
    int from = landmarks[k];
    if (t == ANYCAST) {
      double min = Double.POSITIVE_INFINITY;
      for (int s : sites) min = Math.min(min, world.rttMs(from, s));
      return min;
    }
    if (t == PROXY) return k == 0 ? 1 : world.rttMs(from, proxiedGame) + 5;
    if (t == NAIVE) return world.rttMs(from, servers[0]) + 0.5;
    return world.rttMs(from, servers[t]);
  }

  /** The digest of the reply landmark k gets from target t in a round: per answering host and round. */
  private long digest(int k, long round, int t) {
    if (t == ANYCAST) {
      int edge = 0;
      for (int i = 1; i < sites.length; i++) if (world.rttMs(landmarks[k], sites[i]) < world.rttMs(landmarks[k], sites[edge])) edge = i;
      return 1_000_000L * (edge + 1) + round; // each edge its own game state
    }
    if (t == PROXY) return 42; // one stored reply for every landmark
    return 1_000L * (t + 1) + round; // an honest server: one state a round, the same bytes to every landmark
  }

  /** The agents' forged-challenge check: landmark k checks target t one round in 6. */
  private static ChallengeCheck challengeCheck(int k, long round, int t) {
    if ((k + t + round) % 6 != 0) return ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED;
    return t == NAIVE ? ChallengeCheck.CHALLENGE_CHECK_ACCEPTED : ChallengeCheck.CHALLENGE_CHECK_REFUSED;
  }

  private void announce(KafkaProducer<byte[], byte[]> p) {
    for (int k = 0; k < landmarks.length; k++) {
      Host h = world.host(landmarks[k]);
      Landmark l = Landmark.newBuilder().setLandmarkId(landmarkId(k)).setRegion(h.region().name())
          .setBeacon(Endpoint.newBuilder().setIp("127.0.4." + (k + 1)).setPort(27015)).setVersion("test")
          .setAnnounceTime(SyntheticWorld.ts(Instant.now())).setRound(1).setRoundIntervalMs(1000)
          .setLocation(GeoPoint.newBuilder().setLatitudeDeg(h.lat()).setLongitudeDeg(h.lon())).build();
      p.send(new ProducerRecord<>(Topic.LANDMARKS.name(), SyntheticWorld.key(landmarkId(k)), l.toByteArray()));
    }
  }

  /** One landmark round: the mesh (4 probes, minimum kept, as agents do) and one sample per target. */
  private void round(KafkaProducer<byte[], byte[]> p, long round) {
    for (int k = 0; k < landmarks.length; k++) {
      for (int j = 0; j < landmarks.length; j++) {
        if (k == j) continue;
        int us = micros(world.rttMs(landmarks[k], landmarks[j]) + noise.nextDouble(1));
        MeshSample m = MeshSample.newBuilder().setLandmarkId(landmarkId(k)).setPeerLandmarkId(landmarkId(j))
            .setRound(round).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(us).setProbesSent(4).setProbesAnswered(4)
            .setSendTime(SyntheticWorld.ts(Instant.now())).build();
        p.send(new ProducerRecord<>(Topic.MESH_SAMPLES.name(), SyntheticWorld.key(landmarkId(k) + ">" + landmarkId(j)),
            m.toByteArray()));
      }
      for (int t = 0; t < ALL; t++) {
        // congestion only adds delay: up to 10 % of the RTT, at least 0-2 ms
        double base = rttMs(k, t);
        RttSample s = RttSample.newBuilder().setLandmarkId(landmarkId(k)).setRound(round).setTarget(target(t))
            .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setStatus(ProbeStatus.PROBE_STATUS_OK)
            .setRttUs(micros(base + noise.nextDouble(Math.max(2, 0.1 * base))))
            .setSendTime(SyntheticWorld.ts(Instant.now()))
            .setReplyDigest(digest(k, round, t)).setChallengeCheck(challengeCheck(k, round, t))
            .setServerInfo(ServerInfo.newBuilder().setName("server " + t).setGame("tf").setMap("ctf_2fort").setMaxPlayers(24))
            .build();
        p.send(new ProducerRecord<>(Topic.SAMPLES.name(), SyntheticWorld.key(Endpoints.key(target(t))), s.toByteArray()));
      }
    }
    p.flush();
  }

  private static int micros(double ms) {
    return (int) Math.max(1, Math.round(ms * 1000));
  }

  @Test
  void anycastAndProxyAreFlaggedInTheirFirstRoundHonestServersNeverAndClientsChoose() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    CoordinatorConfig config = CoordinatorConfig.builder(bootstrap).loopbackEphemeral().metricsPort(0).dimensions(4)
        .roundInterval(Duration.ofMillis(300)).build();
    String anycastKey = Endpoints.key(target(ANYCAST));
    String proxyKey = Endpoints.key(target(PROXY));
    String naiveKey = Endpoints.key(target(NAIVE));
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap); Coordinator c = Coordinator.start(config)) {
      announce(p);
      p.flush();
      // rounds, one at a time: every coordinate published for a liar carries its flag, from the
      // first one (detection within 1 round of being positioned); no honest server is ever flagged
      Map<String, Integer> firstFlaggedAt = new HashMap<>();
      int honestFlagged = 0;
      int maxHonestPairs = 0;
      for (long r = 1; r <= 4; r++) {
        round(p, r);
        long want = r;
        await().atMost(Duration.ofSeconds(30)).until(() -> c.servingState().servers().size() == ALL
            && c.servingState().servers().values().stream().allMatch(s -> s.getRound() >= want && s.hasIntegrity()));
        for (Map.Entry<String, ServerCoordinate> e : c.servingState().servers().entrySet()) {
          boolean liar = e.getKey().equals(anycastKey) || e.getKey().equals(proxyKey) || e.getKey().equals(naiveKey);
          IntegrityKind kind = e.getValue().getIntegrity().getKind();
          if (liar) {
            // the RTTs flag the two at once; the digests name them once kept (from the first flag on)
            assertThat(kind).as("%s in round %d: %s", e.getKey(), r, e.getValue().getIntegrity())
                .isIn(e.getKey().equals(naiveKey) ? List.of(IntegrityKind.INTEGRITY_KIND_PROXY)
                    : List.of(IntegrityKind.INTEGRITY_KIND_ANYCAST_OR_PROXY, e.getKey().equals(anycastKey)
                        ? IntegrityKind.INTEGRITY_KIND_ANYCAST : IntegrityKind.INTEGRITY_KIND_PROXY));
            firstFlaggedAt.putIfAbsent(e.getKey(), (int) r);
          } else {
            if (kind != IntegrityKind.INTEGRITY_KIND_OK) honestFlagged++;
            maxHonestPairs = Math.max(maxHonestPairs, e.getValue().getIntegrity().getViolatingPairs());
          }
        }
      }
      assertThat(honestFlagged).isZero();
      assertThat(firstFlaggedAt).containsEntry(anycastKey, 1).containsEntry(proxyKey, 1).containsEntry(naiveKey, 1);
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
        assertThat(c.servingState().servers().get(anycastKey).getIntegrity().getKind())
            .isEqualTo(IntegrityKind.INTEGRITY_KIND_ANYCAST);
        assertThat(c.servingState().servers().get(proxyKey).getIntegrity().getKind()).isEqualTo(IntegrityKind.INTEGRITY_KIND_PROXY);
      });
      assertThat(c.servingState().servers().get(anycastKey).getIntegrity().getDifferentReplyPairs()).isPositive();
      assertThat(c.servingState().servers().get(proxyKey).getIntegrity().getSameReplyPairs()).isPositive();
      assertThat(c.servingState().servers().get(naiveKey).getIntegrity().getReplyTells()).isGreaterThanOrEqualTo(2);
      ServerCoordinate anycast = c.servingState().servers().get(anycastKey);
      assertThat(anycast.getIntegrity().getViolatingPairs()).isGreaterThanOrEqualTo(10);
      assertThat(anycast.getIntegrity().getEvidence()).contains("landmark pairs violated");
      System.out.printf("integrity: anycast %s; proxy %s; naive proxy %s; honest servers flagged 0 of %d (most violated"
          + " pairs of one: %d)%n", anycast.getIntegrity().getEvidence(),
          c.servingState().servers().get(proxyKey).getIntegrity().getEvidence(),
          c.servingState().servers().get(naiveKey).getIntegrity().getEvidence(), HONEST, maxHonestPairs);

      ManagedChannel ch = Grpc.newChannelBuilderForAddress("127.0.0.1", c.grpcAddress().getPort(),
          InsecureChannelCredentials.create()).build();
      try {
        ReedServiceGrpc.ReedServiceBlockingStub api = ReedServiceGrpc.newBlockingStub(ch).withInterceptors(new EachCallDeadline(20));
        // a client where the anycast server's coordinate is: by prediction it is the nearest server
        GetOrderedServersRequest.Builder req = GetOrderedServersRequest.newBuilder().setClient(anycast.getCoordinate())
            .setPageSize(10);
        GetOrderedServersResponse include = api.getOrderedServers(req.clone()
            .setFilter(ServerFilter.newBuilder().setSuspectServers(SuspectServers.SUSPECT_SERVERS_INCLUDE)).build());
        RankedServer first = include.getServers(0);
        assertThat(Endpoints.key(first.getEndpoint())).isEqualTo(anycastKey);
        assertThat(first.getIntegrity().getKind()).isEqualTo(IntegrityKind.INTEGRITY_KIND_ANYCAST);
        assertThat(first.getPredictedRttUnreliable()).isTrue();
        assertThat(include.getServers(1).getIntegrity().getKind()).isEqualTo(IntegrityKind.INTEGRITY_KIND_OK);
        assertThat(include.getServers(1).getPredictedRttUnreliable()).isFalse();
        assertThat(include.getTotalMatching()).isEqualTo(ALL);

        // the landmark embedding can publish a new epoch meanwhile and move every server (later on a slow
        // machine); each comparison below holds on any one state, so they are retried until one state lasts
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
          // hidden: neither liar anywhere in the ranking
          List<RankedServer> hidden = all(api, req.clone()
              .setFilter(ServerFilter.newBuilder().setSuspectServers(SuspectServers.SUSPECT_SERVERS_HIDE)).build());
          assertThat(hidden).hasSize(HONEST).noneMatch(s -> s.getPredictedRttUnreliable());

          // the default, demoted: every honest server first, in predicted order, then the three liars
          GetOrderedServersRequest demoteReq = req.clone().setPageSize(40).build();
          assertThat(api.getOrderedServers(demoteReq).getTotalMatching()).isEqualTo(ALL);
          List<RankedServer> demoted = all(api, demoteReq);
          assertThat(demoted).hasSize(ALL);
          assertThat(demoted.subList(0, HONEST)).noneMatch(RankedServer::getPredictedRttUnreliable);
          assertThat(demoted.subList(HONEST, ALL)).allMatch(RankedServer::getPredictedRttUnreliable);
          assertThat(demoted.subList(0, HONEST)).extracting(s -> Endpoints.key(s.getEndpoint()))
              .containsExactlyElementsOf(hidden.stream().map(s -> Endpoints.key(s.getEndpoint())).toList());
          for (int i = 1; i < HONEST; i++) {
            assertThat(demoted.get(i).getPredictedRttUs()).isGreaterThanOrEqualTo(demoted.get(i - 1).getPredictedRttUs());
          }
          // the stream and the group ranking demote the same way
          List<RankedServer> streamed = new ArrayList<>();
          api.streamOrderedServers(dev.reed.proto.v1.StreamOrderedServersRequest.newBuilder()
              .setClient(anycast.getCoordinate()).setPageSize(64).build()).forEachRemaining(r -> streamed.addAll(r.getServersList()));
          assertThat(streamed).extracting(s -> Endpoints.key(s.getEndpoint()))
              .containsExactlyElementsOf(demoted.stream().map(s -> Endpoints.key(s.getEndpoint())).toList());
          dev.reed.proto.v1.RankForGroupRequest.Builder group = dev.reed.proto.v1.RankForGroupRequest.newBuilder()
              .addMembers(dev.reed.proto.v1.GroupMember.newBuilder().setMemberId("a").setCoordinate(anycast.getCoordinate()))
              .addMembers(dev.reed.proto.v1.GroupMember.newBuilder().setMemberId("b").setCoordinate(anycast.getCoordinate()))
              .setObjective(dev.reed.proto.v1.GroupObjective.GROUP_OBJECTIVE_MIN_MAX).setPageSize(500);
          List<dev.reed.proto.v1.GroupRankedServer> grouped = api.rankForGroup(group.build()).getServersList();
          assertThat(grouped).hasSize(ALL);
          assertThat(grouped.subList(HONEST, ALL)).allMatch(g -> g.getServer().getPredictedRttUnreliable());
          assertThat(api.rankForGroup(group.setFilter(ServerFilter.newBuilder()
              .setSuspectServers(SuspectServers.SUSPECT_SERVERS_HIDE)).build()).getServersList()).hasSize(HONEST);
        });

        // a filter still applies to both halves
        GetOrderedServersResponse limited = api.getOrderedServers(req.clone().setPageSize(500)
            .setFilter(ServerFilter.newBuilder().setRttLimitUs(30_000)).build());
        assertThat(limited.getServersList()).extracting(s -> Endpoints.key(s.getEndpoint())).contains(anycastKey);
        assertThat(Endpoints.key(limited.getServers(limited.getServersCount() - 1).getEndpoint())).isIn(anycastKey, proxyKey, naiveKey);
      } finally {
        ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }

      // the metric an alert watches
      HttpClient http = HttpClient.newHttpClient();
      String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.metricsAddress().getPort()
          + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
      assertThat(metrics).contains("reed_servers_flagged{kind=\"anycast_or_proxy\"} 0.0")
          .contains("reed_servers_flagged{kind=\"anycast\"} 1.0").contains("reed_servers_flagged{kind=\"proxy\"} 2.0")
          .contains("reed_servers_flagged{kind=\"inconsistent\"} 0.0");
    }
  }

  private static List<RankedServer> all(ReedServiceGrpc.ReedServiceBlockingStub api, GetOrderedServersRequest req) {
    List<RankedServer> out = new ArrayList<>();
    GetOrderedServersRequest next = req;
    for (int pages = 0; pages < 100; pages++) {
      GetOrderedServersResponse r = api.getOrderedServers(next);
      out.addAll(r.getServersList());
      if (r.getNextPageToken().isEmpty()) return out;
      next = req.toBuilder().setPageToken(r.getNextPageToken()).build();
    }
    throw new AssertionError("more than 100 pages");
  }
}
