package dev.reed.coordinator.position;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The leader's embedding round as pure logic (Kafka's in-memory MockProducer records what would be published). */
class LandmarkEmbeddingRoundTest {
  static final double[][] P = {{0, 0}, {100, 0}, {0, 100}, {100, 100}, {50, 150}};

  static MeshSample mesh(int i, int j, long round) {
    int us = (int) Math.round(Math.hypot(P[i][0] - P[j][0], P[i][1] - P[j][1]) * 1000);
    return MeshSample.newBuilder().setLandmarkId("l" + i).setPeerLandmarkId("l" + j).setRound(round)
        .setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(us).build();
  }

  static ServingState state(Map<String, LandmarkCoordinate> landmarks, long epoch) {
    Map<String, Landmark> announced = new HashMap<>();
    for (int i = 0; i < P.length; i++) {
      announced.put("l" + i, Landmark.newBuilder().setLandmarkId("l" + i).setRegion("r")
          .setBeacon(Endpoint.newBuilder().setIp("127.0.0." + (i + 1)).setPort(27960)).build());
    }
    return new ServingState(dev.reed.coordinates.ranking.RankingIndex.of(List.of()), Map.of(), Map.of(), landmarks, List.of(),
        announced, Map.of(), epoch, Instant.EPOCH, 2, false);
  }

  @Test
  void landmarksWithTooFewMeshPeersAreLeftOutAndUnchangedEmbeddingsAreNotRepublished() throws Exception {
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    LandmarkEmbeddingRound round = new LandmarkEmbeddingRound(new CoordinateConfig(2, false), 2, producer,
        Clock.fixed(Instant.parse("2026-11-21T06:00:00Z"), ZoneOffset.UTC), 0.5, 1);
    MeshWindows mesh = new MeshWindows(8);
    for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) if (i != j) mesh.add(mesh(i, j, 1));
    mesh.add(mesh(4, 0, 1)); // l4 measured only one peer: too few for D+1 = 3
    mesh.add(mesh(4, 1, 1));

    LandmarkEmbeddingRound.Result first = round.run(mesh, state(Map.of(), 0));
    assertThat(first.published()).isTrue();
    assertThat(first.landmarks()).isEqualTo(4);
    assertThat(first.leftOut()).isEqualTo(1);
    assertThat(first.epoch()).isEqualTo(1);
    assertThat(round.solves()).isEqualTo(1);
    Map<String, LandmarkCoordinate> published = new HashMap<>();
    for (ProducerRecord<byte[], byte[]> r : producer.history()) {
      LandmarkCoordinate c = LandmarkCoordinate.parseFrom(r.value());
      published.put(c.getLandmarkId(), c);
    }
    assertThat(published).containsOnlyKeys("l0", "l1", "l2", "l3");
    LandmarkCoordinate l0 = published.get("l0");
    LandmarkCoordinate l3 = published.get("l3");
    double d = Math.hypot(l0.getCoordinate().getComponents(0) - l3.getCoordinate().getComponents(0),
        l0.getCoordinate().getComponents(1) - l3.getCoordinate().getComponents(1));
    assertThat(d).isCloseTo(Math.hypot(100, 100), org.assertj.core.data.Offset.offset(2.0));
    assertThat(l0.getBeacon().getIp()).isEqualTo("127.0.0.1");
    assertThat(l0.getEpoch()).isEqualTo(1);

    producer.clear();
    LandmarkEmbeddingRound.Result lagging = round.run(mesh, state(Map.of(), 0));
    assertThat(lagging.published()).as("the feed has not read epoch 1 back yet: compare against what was published").isFalse();
    assertThat(lagging.epoch()).isEqualTo(1);
    assertThat(producer.history()).isEmpty();

    LandmarkEmbeddingRound.Result again = round.run(mesh, state(published, 1));
    assertThat(again.published()).as("same mesh, aligned to the previous: no new epoch").isFalse();
    assertThat(producer.history()).isEmpty();
    assertThat(round.solves()).as("the published solution is the next round's previous: the same mesh is not solved again").isEqualTo(1);

    for (int j = 2; j < 4; j++) mesh.add(mesh(4, j, 2)); // now l4 has enough peers
    LandmarkEmbeddingRound.Result third = round.run(mesh, state(published, 1));
    assertThat(third.published()).isTrue();
    assertThat(third.landmarks()).isEqualTo(5);
    assertThat(third.epoch()).isEqualTo(2);
    assertThat(round.solves()).as("a landmark joined: solved").isEqualTo(2);

    producer.clear();
    LandmarkEmbeddingRound.Result lagged = round.run(mesh, state(published, 1));
    assertThat(lagged.published()).as("epoch 2 not read back yet, l4 already in it").isFalse();
    assertThat(lagged.landmarks()).isEqualTo(5);
    assertThat(producer.history()).isEmpty();
  }
}
