package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinator.api.EachCallDeadline;
import dev.reed.coordinates.integrity.QuarantineBaselines;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.ListLandmarksRequest;
import dev.reed.proto.v1.ListLandmarksResponse;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.SnapshotServiceGrpc;
import dev.reed.testbed.kafka.KafkaExtension;
import dev.reed.testbed.world.AddressPlan;
import dev.reed.testbed.world.Noise;
import dev.reed.testbed.world.Region;
import dev.reed.testbed.world.SyntheticWorldModel;
import dev.reed.testbed.world.World;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A lying landmark against real parts: the embedded broker, the real coordinator (4-D,
 * windows of 8 rounds), samples published as agents publish them from the testbed's synthetic
 * geographic world (10 landmarks in Europe, North America and Asia, 60 game servers, 1 ms mean
 * jitter). One coordinator lives through: honest rounds (nobody quarantined), a landmark reporting
 * random RTTs (quarantined, left out of anchors, beacons and served landmark RTTs, flagged in
 * ListLandmarks and the metrics), the same landmark honest again (readmitted), another adding 30 ms
 * to half its samples (quarantined).
 */
@Tag("integration")
class LyingLandmarkTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  private static final int LANDMARKS = 10;
  private static final int SERVERS = 60;
  private static final List<Region> REGIONS = List.of(Region.EU, Region.NA, Region.AS);

  enum Lie { NONE, SHIFT30, RANDOM }

  private final SplittableRandom rnd = new SplittableRandom(18);
  private World world;
  private int[] landmarkHost;
  private int firstServer;

  private static String id(int k) {
    return "lm-" + k;
  }

  private Endpoint endpoint(int host, int port) {
    return Endpoint.newBuilder().setIp(world.address(host).getHostAddress()).setPort(port).build();
  }

  private double sample(int from, int to, int liar, Lie lie, int landmark) {
    double honest = world.sampleRttMs(from, to, rnd);
    if (landmark != liar) return honest;
    return switch (lie) {
      case NONE -> honest;
      case SHIFT30 -> rnd.nextBoolean() ? honest + 30 : honest;
      case RANDOM -> rnd.nextDouble(1, 400);
    };
  }

  private void round(KafkaProducer<byte[], byte[]> p, long round, int liar, Lie lie) {
    Instant now = Instant.now();
    com.google.protobuf.Timestamp ts = SyntheticWorld.ts(now);
    for (int k = 0; k < LANDMARKS; k++) {
      for (int j = 0; j < LANDMARKS; j++) {
        if (j == k) continue;
        double ms = sample(landmarkHost[k], landmarkHost[j], liar, lie, k);
        MeshSample m = MeshSample.newBuilder().setLandmarkId(id(k)).setPeerLandmarkId(id(j)).setRound(round)
            .setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs((int) Math.max(1, Math.round(ms * 1000))).setProbesSent(4)
            .setProbesAnswered(4).setSendTime(ts).setPeerBeacon(endpoint(landmarkHost[j], 27015)).build();
        p.send(new ProducerRecord<>(Topic.MESH_SAMPLES.name(), SyntheticWorld.key(id(k) + ">" + id(j)), m.toByteArray()));
      }
      for (int s = 0; s < SERVERS; s++) {
        double ms = sample(landmarkHost[k], firstServer + s, liar, lie, k);
        Endpoint target = endpoint(firstServer + s, 27960);
        RttSample r = RttSample.newBuilder().setLandmarkId(id(k)).setRound(round).setTarget(target)
            .setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).setStatus(ProbeStatus.PROBE_STATUS_OK)
            .setRttUs((int) Math.max(1, Math.round(ms * 1000))).setSendTime(ts).build();
        p.send(new ProducerRecord<>(Topic.SAMPLES.name(), SyntheticWorld.key(Endpoints.key(target)), r.toByteArray()));
      }
    }
    p.flush();
  }

  /** Publishes rounds until {@code until} holds (checked after each judged round); returns the rounds it took. */
  private int roundsUntil(Coordinator c, KafkaProducer<byte[], byte[]> p, long[] round, int liar, Lie lie, int max,
      java.util.function.Predicate<Coordinator> until) {
    for (int n = 1; n <= max; n++) {
      long target = c.landmarkChecks() + 1; // read first: the check may run before round() returns
      round(p, ++round[0], liar, lie);
      await().atMost(Duration.ofSeconds(60)).until(() -> c.landmarkChecks() >= target);
      if (until.test(c)) return n;
    }
    return -1;
  }

  /** The leader's decision, counted in the landmark round it was taken (the served state follows within ~0.3 s). */
  private static Set<String> quarantined(Coordinator c) {
    return c.quarantineDecided();
  }

  @Test
  void aLyingLandmarkIsQuarantinedLeftOutEverywhereAndReadmittedWhenHonest() throws Exception {
    SyntheticWorldModel.Builder b = SyntheticWorldModel.builder(18);
    firstServer = b.addGameServers(SERVERS);
    landmarkHost = new int[LANDMARKS];
    for (int k = 0; k < LANDMARKS; k++) landmarkHost[k] = b.addLandmark(id(k), REGIONS.get(k % REGIONS.size()));
    world = new World(b.build(), AddressPlan.DEFAULT, new Noise(1.0, 0));

    String bootstrap = KAFKA.broker().bootstrapServers();
    CoordinatorConfig config = CoordinatorConfig.builder(bootstrap).loopbackEphemeral().metricsPort(0)
        .roundInterval(Duration.ofMillis(150)).replay(Duration.ofMinutes(10)).build();
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap); Coordinator c = Coordinator.start(config)) {
      for (int k = 0; k < LANDMARKS; k++) {
        Landmark l = Landmark.newBuilder().setLandmarkId(id(k)).setRegion(REGIONS.get(k % 3).name())
            .setBeacon(endpoint(landmarkHost[k], 27015)).setVersion("test").setAnnounceTime(SyntheticWorld.ts(Instant.now()))
            .setRound(1).setRoundIntervalMs(1000).build();
        p.send(new ProducerRecord<>(Topic.LANDMARKS.name(), SyntheticWorld.key(id(k)), l.toByteArray()));
      }
      long[] round = {0};
      // honest world: the embedding forms, no landmark is ever quarantined
      await().atMost(Duration.ofSeconds(30)).until(() -> {
        round(p, ++round[0], -1, Lie.NONE);
        return c.servingState().landmarks().size() == LANDMARKS && c.servingState().servers().size() == SERVERS;
      });
      assertThat(roundsUntil(c, p, round, -1, Lie.NONE, 10, x -> !quarantined(x).isEmpty()))
          .as("no false quarantine in 10 honest rounds").isEqualTo(-1);

      // lm-3 reports random RTTs
      int random = roundsUntil(c, p, round, 3, Lie.RANDOM, 8, x -> quarantined(x).contains(id(3)));
      System.out.println("random RTTs quarantined after " + random + " rounds");
      // 3 outlier rounds, after its window (8 rounds of honest samples) holds enough random ones to stand out
      assertThat(random).as("quarantined within 6 landmark rounds").isBetween(3, 6);
      assertThat(quarantined(c)).containsExactly(id(3));
      await().atMost(Duration.ofSeconds(60)).until(() -> c.servingState().quarantinedLandmarks().keySet().equals(Set.of(id(3))));
      await().atMost(Duration.ofSeconds(60)).until(() -> c.servingState().servers().values().stream()
          .allMatch(s -> s.getLandmarkRttsList().stream().noneMatch(r -> r.getLandmarkId().equals(id(3)))));
      assertThat(c.servingState().landmarkAnchors()).noneMatch(a -> a.landmarkId().equals(id(3))).hasSize(LANDMARKS - 1);
      ManagedChannel ch = NettyChannelBuilder.forAddress(c.grpcAddress()).usePlaintext().build();
      try {
        Set<String> beacons = ReedServiceGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS)
            .getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(40)
                .setKind(dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON).build()).getServersList().stream()
            .map(CalibrationServer::getLandmarkId).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
        assertThat(beacons).hasSize(LANDMARKS - 1).doesNotContain(id(3));
        SnapshotServiceGrpc.SnapshotServiceBlockingStub snap = SnapshotServiceGrpc.newBlockingStub(ch)
            .withInterceptors(new EachCallDeadline(10));
        assertThat(snap.listLandmarks(ListLandmarksRequest.getDefaultInstance()).getLandmarksList())
            .extracting(LandmarkCoordinate::getLandmarkId).hasSize(LANDMARKS - 1).doesNotContain(id(3));
        ListLandmarksResponse all = snap.listLandmarks(ListLandmarksRequest.newBuilder().setIncludeQuarantined(true).build());
        LandmarkCoordinate liar = all.getLandmarksList().stream().filter(l -> l.getLandmarkId().equals(id(3))).findFirst()
            .orElseThrow();
        assertThat(liar.getQuarantined()).isTrue();
        assertThat(liar.getQuarantineReason()).contains("outlier for 3 rounds");
      } finally {
        ch.shutdownNow();
      }
      HttpClient http = HttpClient.newHttpClient();
      String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.metricsAddress().getPort()
          + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
      assertThat(metrics).contains("reed_landmarks_quarantined 1.0").contains("reed_landmark_quarantined{landmark=\"lm-3\"} 1.0")
          .contains("reed_landmark_quarantined{landmark=\"lm-4\"} 0.0");

      // honest again: readmitted once its window no longer holds the random minima, plus readmitAfter
      // rounds (W + 3). When its minima still fitted the other landmarks at the quarantine (few random
      // samples below the truth yet), they are its held baseline, and the random ones among them keep
      // its steps up until the baseline's hold ends, then its window judges it: HOLD_ROUNDS + W + 3 at most
      int bound = QuarantineBaselines.HOLD_ROUNDS + 8 + 3;
      int back = roundsUntil(c, p, round, -1, Lie.NONE, bound + 1, x -> quarantined(x).isEmpty());
      System.out.println("readmitted after " + back + " honest rounds");
      assertThat(back).as("readmitted within W + 3 rounds, or HOLD_ROUNDS + W + 3 with a held baseline")
          .isBetween(3, bound);
      await().atMost(Duration.ofSeconds(60)).until(() -> c.servingState().landmarkAnchors().size() == LANDMARKS
          && c.servingState().quarantinedLandmarks().isEmpty());

      // lm-7 adds 30 ms to half its samples: the window minimum hides most of it, the window spread does not
      int shift = roundsUntil(c, p, round, 7, Lie.SHIFT30, 12, x -> quarantined(x).contains(id(7)));
      System.out.println("+30 ms on half the samples quarantined after " + shift + " rounds");
      assertThat(shift).as("quarantined within 8 landmark rounds").isBetween(3, 8);
      assertThat(quarantined(c)).containsExactly(id(7));
      await().atMost(Duration.ofSeconds(60)).until(() -> c.servingState().quarantinedLandmarks().keySet().equals(Set.of(id(7))));
      List<ServerCoordinate> servers = new ArrayList<>(c.servingState().servers().values());
      assertThat(servers).hasSize(SERVERS);
    }
  }
}
