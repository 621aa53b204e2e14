package dev.reed.coordinator.position;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.coordinator.ingest.TargetWindows;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A landmark epoch makes every replica re-fit every target, so rounds without new mesh samples
 * must not start one. The leader's embedding and a replica's positioning run together here as the
 * round loop runs them, with the landmark coordinates the leader published fed back as the index
 * would serve them. The world is 4-D with heights and noisy, not Euclidean, RTTs: the embedding's
 * cost has several minima of about the same cost that no rigid motion maps onto each other.
 */
class LandmarkEpochTest {
  static final int LANDMARKS = 6;
  static final int TARGETS = 20;
  static final CoordinateConfig CONFIG = new CoordinateConfig(4, true);

  final SplittableRandom random = new SplittableRandom(6 * 31 + 4);
  final double[][] landmarks = new double[LANDMARKS][];
  final double[] access = new double[LANDMARKS];
  final double[][] stretch = new double[LANDMARKS][LANDMARKS];
  final Map<String, Landmark> announced = new HashMap<>();
  final Map<String, LandmarkCoordinate> landmarkCoordinates = new HashMap<>();
  final MockProducer<byte[], byte[]> producer =
      new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
  final Clock clock = Clock.fixed(Instant.parse("2026-11-21T06:00:00Z"), ZoneOffset.UTC);

  LandmarkEpochTest() {
    for (int i = 0; i < LANDMARKS; i++) {
      landmarks[i] = new double[] {random.nextDouble(300), random.nextDouble(300)};
      access[i] = 1 + random.nextDouble(10);
      for (int j = 0; j < LANDMARKS; j++) stretch[i][j] = 1 + 0.3 * random.nextDouble();
      announced.put("l" + i, Landmark.newBuilder().setLandmarkId("l" + i).setRegion("r")
          .setBeacon(Endpoint.newBuilder().setIp("127.0.0." + (i + 1)).setPort(27960)).build());
    }
  }

  /** Every landmark's RTT to every other: distance stretched by up to 30 % plus both access delays. */
  MeshWindows mesh(double extraToLandmark0Ms) {
    MeshWindows mesh = new MeshWindows(8);
    for (int i = 0; i < LANDMARKS; i++) {
      for (int j = 0; j < LANDMARKS; j++) {
        if (i == j) continue;
        double ms = Math.hypot(landmarks[i][0] - landmarks[j][0], landmarks[i][1] - landmarks[j][1])
            * stretch[i][j] + access[i] + access[j] + (i == 0 || j == 0 ? extraToLandmark0Ms : 0);
        mesh.add(MeshSample.newBuilder().setLandmarkId("l" + i).setPeerLandmarkId("l" + j).setRound(1)
            .setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs((int) Math.round(ms * 1000)).build());
      }
    }
    return mesh;
  }

  static Endpoint target(int t) {
    return Endpoint.newBuilder().setIp("10.0.0." + (t + 1)).setPort(27960).build();
  }

  void sample(TargetWindows windows, int t, int landmark, long round, double ms) {
    windows.add(Endpoints.key(target(t)), RttSample.newBuilder().setLandmarkId("l" + landmark).setRound(round)
        .setTarget(target(t)).setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).setStatus(ProbeStatus.PROBE_STATUS_OK)
        .setRttUs((int) Math.round(ms * 1000)).build(), 0);
  }

  /** What the index serves after reading back what the leader published (IndexFeed: newest epoch only). */
  ServingState state() {
    ServingState.EpochLandmarks lm = ServingState.EpochLandmarks.newest(landmarkCoordinates, CONFIG.dimensions());
    return new ServingState(dev.reed.coordinates.ranking.RankingIndex.of(List.of()), Map.of(), Map.of(), lm.coordinates(),
        lm.anchors(), Map.copyOf(announced), Map.of(), lm.epoch(), clock.instant(), CONFIG.dimensions(), CONFIG.height());
  }

  /** Collects the landmark coordinates the leader sent; returns how many. */
  int readBackLandmarkCoordinates() throws Exception {
    int n = 0;
    for (ProducerRecord<byte[], byte[]> r : producer.history()) {
      if (!r.topic().equals(Topic.LANDMARK_COORDINATES.name())) continue;
      LandmarkCoordinate c = LandmarkCoordinate.parseFrom(r.value());
      landmarkCoordinates.put(c.getLandmarkId(), c);
      n++;
    }
    producer.clear();
    return n;
  }

  @Test
  void roundsWithoutNewMeshSamplesKeepTheEpochAndRefitOnlyTargetsWhoseWindowsChanged() throws Exception {
    MeshWindows mesh = mesh(0);
    TargetWindows windows = new TargetWindows(8, TARGETS);
    windows.setNow(clock.millis());
    for (int t = 0; t < TARGETS; t++) {
      double[] at = {random.nextDouble(300), random.nextDouble(300)};
      for (int l = 0; l < LANDMARKS; l++) {
        sample(windows, t, l, 1, Math.hypot(at[0] - landmarks[l][0], at[1] - landmarks[l][1]) * 1.1 + access[l] + 2);
      }
    }
    LandmarkEmbeddingRound embedding = new LandmarkEmbeddingRound(CONFIG, 2, producer, clock, 0.5, 0x5eedL);
    TargetPositioning positioning = new TargetPositioning(CONFIG, producer, clock, Duration.ofMinutes(10), 0.5,
        new HostIntegrity(new dev.reed.coordinates.integrity.ServerConsistency(
            dev.reed.coordinates.integrity.IntegrityConfig.defaults())));

    LandmarkEmbeddingRound.Result first = embedding.run(mesh, state());
    assertThat(first.published()).isTrue();
    assertThat(first.epoch()).isEqualTo(1);
    assertThat(readBackLandmarkCoordinates()).isEqualTo(LANDMARKS);
    TargetPositioning.Result fitted = positioning.run(windows, state(), Duration.ofHours(1));
    assertThat(fitted.fitted()).as("the first epoch fits every target").isEqualTo(TARGETS);
    producer.clear();

    for (int round = 2; round <= 8; round++) {
      LandmarkEmbeddingRound.Result again = embedding.run(mesh, state());
      assertThat(again.published()).as("round %d: no new mesh samples, no new epoch", round).isFalse();
      assertThat(again.epoch()).isEqualTo(1);
      assertThat(readBackLandmarkCoordinates()).as("round %d: nothing sent to %s", round, Topic.LANDMARK_COORDINATES.name())
          .isZero();
      TargetPositioning.Result p = positioning.run(windows, state(), Duration.ofHours(1));
      assertThat(p.landmarkEpoch()).isEqualTo(1);
      assertThat(p.candidates()).as("round %d: no target's windows changed, none is re-fitted", round).isZero();
      assertThat(p.fitted()).isZero();
      producer.clear();
    }

    // one target's window changes: only that one is re-fitted
    sample(windows, 3, 2, 2, 1.0);
    assertThat(embedding.run(mesh, state()).published()).isFalse();
    TargetPositioning.Result one = positioning.run(windows, state(), Duration.ofHours(1));
    assertThat(one.candidates()).isEqualTo(1);
    assertThat(one.fitted()).isEqualTo(1);
    producer.clear();

    // landmark 0's paths all got 25 ms longer (a route change): that is a new embedding, every target is re-fitted
    LandmarkEmbeddingRound.Result moved = embedding.run(mesh(25), state());
    assertThat(moved.published()).isTrue();
    assertThat(moved.epoch()).isEqualTo(2);
    assertThat(readBackLandmarkCoordinates()).isEqualTo(LANDMARKS);
    assertThat(positioning.run(windows, state(), Duration.ofHours(1)).fitted()).isEqualTo(TARGETS);
  }
}
