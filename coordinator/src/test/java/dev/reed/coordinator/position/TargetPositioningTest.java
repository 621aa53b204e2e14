package dev.reed.coordinator.position;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.coordinator.ingest.RttWindows;
import dev.reed.coordinator.ingest.TargetWindows;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerCoordinate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** A positioning round publishes, beside the coordinate, the window minima it was fitted from. */
class TargetPositioningTest {
  static final double[][] LANDMARKS = {{0, 0}, {200, 0}, {0, 200}, {200, 200}, {100, 320}};
  static final Endpoint TARGET = Endpoint.newBuilder().setIp("10.1.2.3").setPort(27960).build();

  static void sample(TargetWindows w, int landmark, long round, int rttUs, ProbeStatus status) {
    w.add(Endpoints.key(TARGET), RttSample.newBuilder().setLandmarkId("lm-" + landmark).setRound(round).setTarget(TARGET)
        .setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).setStatus(status).setRttUs(rttUs).build(), 0);
  }

  static ServingState state(long epoch) {
    List<ServingState.Anchor> anchors = new ArrayList<>();
    for (int l = 0; l < LANDMARKS.length; l++) anchors.add(new ServingState.Anchor("lm-" + l, new Coordinate(LANDMARKS[l], 0)));
    return new ServingState(dev.reed.coordinates.ranking.RankingIndex.of(List.of()), Map.of(), Map.of(), Map.of(), anchors,
        Map.of(), Map.of(), epoch, Instant.EPOCH, 2, false);
  }

  static ServerCoordinate last(MockProducer<byte[], byte[]> p) throws Exception {
    List<ProducerRecord<byte[], byte[]>> sent = p.history();
    return ServerCoordinate.parseFrom(sent.getLast().value());
  }

  /** Enough targets for two batches fitted on more than one thread: each published with its own fit and minima. */
  /** {@code n} targets at random places, one round of samples each; their true places by key. */
  static Map<String, double[]> world(TargetWindows w, int n) {
    java.util.Random random = new java.util.Random(7);
    Map<String, double[]> truth = new java.util.HashMap<>();
    for (int i = 0; i < n; i++) {
      Endpoint e = Endpoint.newBuilder().setIp("10.9." + (i >> 8) + "." + (i & 255)).setPort(27960).build();
      double[] at = {20 + 160 * random.nextDouble(), 20 + 160 * random.nextDouble()};
      truth.put(Endpoints.key(e), at);
      for (int l = 0; l < LANDMARKS.length; l++) {
        int rtt = (int) Math.round(Math.hypot(at[0] - LANDMARKS[l][0], at[1] - LANDMARKS[l][1]) * 1000);
        w.add(Endpoints.key(e), RttSample.newBuilder().setLandmarkId("lm-" + l).setRound(1).setTarget(e)
            .setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(rtt).build(), 0);
      }
    }
    return truth;
  }

  @Test
  void manyTargetsAreEachPublishedWithTheirOwnFitAndMinima() throws Exception {
    int n = 5_000;
    TargetWindows w = new TargetWindows(8, n);
    Map<String, double[]> truth = world(w, n);
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    TargetPositioning positioning = new TargetPositioning(new CoordinateConfig(2, false), producer,
        Clock.fixed(Instant.parse("2026-11-21T06:00:00Z"), ZoneOffset.UTC), Duration.ofMinutes(10), 0.5,
        new HostIntegrity(new dev.reed.coordinates.integrity.ServerConsistency(
            dev.reed.coordinates.integrity.IntegrityConfig.defaults())));
    TargetPositioning.Result r = positioning.run(w, state(1), Duration.ofHours(1));
    assertThat(r.fitted()).isEqualTo(n);
    assertThat(r.published()).isEqualTo(n);
    assertThat(producer.history()).hasSize(n);
    for (ProducerRecord<byte[], byte[]> record : producer.history()) {
      String key = new String(record.key(), java.nio.charset.StandardCharsets.UTF_8);
      ServerCoordinate c = ServerCoordinate.parseFrom(record.value());
      double[] at = truth.get(key);
      assertThat(Endpoints.key(c.getEndpoint())).isEqualTo(key);
      assertThat(c.getCoordinate().getComponents(0)).as(key).isCloseTo(at[0], org.assertj.core.data.Offset.offset(0.5));
      assertThat(c.getCoordinate().getComponents(1)).as(key).isCloseTo(at[1], org.assertj.core.data.Offset.offset(0.5));
      for (LandmarkRtt l : c.getLandmarkRttsList()) {
        double[] lm = LANDMARKS[Integer.parseInt(l.getLandmarkId().substring(3))];
        assertThat(l.getRttUs()).isEqualTo(RttWindows.held((int) Math.round(Math.hypot(at[0] - lm[0], at[1] - lm[1]) * 1000)));
      }
    }
  }

  /**
   * A round out of time leaves the rest for the next, first in line; what a new landmark epoch owes
   * them (a re-fit though their minima have not moved) goes with them.
   */
  @Test
  void aRoundOutOfTimeLeavesTheRestToTheNextWithWhatANewEpochOwesThem() throws Exception {
    int n = 5_000; // two batches
    TargetWindows w = new TargetWindows(8, n);
    world(w, n);
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    TargetPositioning positioning = new TargetPositioning(new CoordinateConfig(2, false), producer,
        Clock.fixed(Instant.parse("2026-11-21T06:00:00Z"), ZoneOffset.UTC), Duration.ofMinutes(10), 0.5,
        new HostIntegrity(new dev.reed.coordinates.integrity.ServerConsistency(
            dev.reed.coordinates.integrity.IntegrityConfig.defaults())), Duration.ZERO);
    TargetPositioning.Result first = positioning.run(w, state(1), Duration.ofHours(1));
    assertThat(first.fitted()).as("some a round at least").isBetween(1, n - 1);
    assertThat(first.carried()).isEqualTo(n - first.fitted());
    assertThat(positioning.carrying()).isTrue();
    assertThat(fittedUntilDone(positioning, w, 1, first.fitted())).isEqualTo(n);
    assertThat(producer.history()).extracting(ProducerRecord::key).map(k -> new String(k, java.nio.charset.StandardCharsets.UTF_8))
        .doesNotHaveDuplicates().hasSize(n);
    assertThat(positioning.run(w, state(1), Duration.ofHours(1)).fitted()).as("nothing moved").isZero();

    // epoch 2: the targets left over are re-fitted in later rounds though their minima stayed put
    TargetPositioning.Result third = positioning.run(w, state(2), Duration.ofHours(1));
    assertThat(third.carried()).isPositive();
    assertThat(fittedUntilDone(positioning, w, 2, third.fitted())).isEqualTo(n);
  }

  /** Runs rounds of {@code epoch} until none is left over; the targets fitted, {@code fitted} before them. */
  private static int fittedUntilDone(TargetPositioning positioning, TargetWindows w, long epoch, int fitted) {
    for (int round = 0; positioning.carrying(); round++) {
      assertThat(round).as("rounds").isLessThan(1_000);
      fitted += positioning.run(w, state(epoch), Duration.ofHours(1)).fitted();
    }
    return fitted;
  }

  @Test
  void publishesEachLandmarksWindowMinimumAndRepublishesWhenOneMoves() throws Exception {
    double[] at = {60, 90};
    TargetWindows w = new TargetWindows(8, 4);
    w.setNow(1000);
    for (long round = 1; round <= 3; round++) {
      for (int l = 0; l < LANDMARKS.length; l++) {
        if (l == 4) continue; // landmark 4 never heard this target
        double d = Math.hypot(at[0] - LANDMARKS[l][0], at[1] - LANDMARKS[l][1]);
        sample(w, l, round, (int) Math.round(d * 1000) + (int) round * 700, ProbeStatus.PROBE_STATUS_OK);
      }
    }
    sample(w, 0, 4, 0, ProbeStatus.PROBE_STATUS_TIMEOUT);
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    Clock clock = Clock.fixed(Instant.parse("2026-11-21T06:00:00Z"), ZoneOffset.UTC);
    TargetPositioning positioning = new TargetPositioning(new CoordinateConfig(2, false), producer, clock,
        Duration.ofMinutes(10), 0.5,
        new HostIntegrity(new dev.reed.coordinates.integrity.ServerConsistency(
            dev.reed.coordinates.integrity.IntegrityConfig.defaults())));
    TargetPositioning.Result r = positioning.run(w, state(1), Duration.ofHours(1));
    assertThat(r.published()).isEqualTo(1);
    ServerCoordinate c = last(producer);
    assertThat(c.getLandmarkRttsList()).extracting(LandmarkRtt::getLandmarkId).containsExactly("lm-0", "lm-1", "lm-2", "lm-3");
    for (LandmarkRtt l : c.getLandmarkRttsList()) {
      int i = Integer.parseInt(l.getLandmarkId().substring(3));
      double d = Math.hypot(at[0] - LANDMARKS[i][0], at[1] - LANDMARKS[i][1]);
      assertThat(l.getRttUs()).as("minimum of the window, round 1").isEqualTo(RttWindows.held((int) Math.round(d * 1000) + 700));
    }
    assertThat(c.getFit().getLandmarksUsed()).isEqualTo(4);

    // a better minimum to landmark 1 by 2 ms (above the 0.5 ms threshold) is republished even though the position barely moves
    int before = producer.history().size();
    double d1 = Math.hypot(at[0] - LANDMARKS[1][0], at[1] - LANDMARKS[1][1]);
    sample(w, 1, 5, (int) Math.round(d1 * 1000) - 1300, ProbeStatus.PROBE_STATUS_OK);
    positioning.run(w, state(1), Duration.ofHours(1));
    assertThat(producer.history()).hasSize(before + 1);
    assertThat(last(producer).getLandmarkRtts(1).getRttUs()).isEqualTo(RttWindows.held((int) Math.round(d1 * 1000) - 1300));
  }

  @Test
  void aNewSampleThatLeavesTheMinimaWhereTheyWereIsNotReFittedButItsServerInfoIsStillPublished() throws Exception {
    double[] at = {120, 40};
    TargetWindows w = new TargetWindows(8, 4);
    w.setNow(1000);
    int[] truth = new int[LANDMARKS.length];
    for (int l = 0; l < LANDMARKS.length; l++) truth[l] = (int) Math.round(Math.hypot(at[0] - LANDMARKS[l][0], at[1] - LANDMARKS[l][1]) * 1000);
    for (int l = 0; l < LANDMARKS.length; l++) sample(w, l, 1, truth[l], ProbeStatus.PROBE_STATUS_OK);
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    Clock clock = Clock.fixed(Instant.parse("2026-11-21T06:00:00Z"), ZoneOffset.UTC);
    TargetPositioning positioning = new TargetPositioning(new CoordinateConfig(2, false), producer, clock,
        Duration.ofMinutes(10), 0.5, new HostIntegrity(new dev.reed.coordinates.integrity.ServerConsistency(
            dev.reed.coordinates.integrity.IntegrityConfig.defaults())));
    assertThat(positioning.run(w, state(1), Duration.ofHours(1)).fitted()).isEqualTo(1);
    ServerCoordinate first = last(producer);

    // round 2: every landmark again, each RTT 0.3 ms above the minimum: windows change, minima do not
    for (int l = 0; l < LANDMARKS.length; l++) sample(w, l, 2, truth[l] + 300, ProbeStatus.PROBE_STATUS_OK);
    TargetPositioning.Result r = positioning.run(w, state(1), Duration.ofHours(1));
    assertThat(r.candidates()).isEqualTo(1);
    assertThat(r.fitted()).isZero();
    assertThat(r.unmoved()).isEqualTo(1);
    assertThat(r.published()).as("rounds 1 -> 2 is a stability change").isEqualTo(1);
    assertThat(last(producer).getCoordinate()).isEqualTo(first.getCoordinate());
    assertThat(last(producer).getStability().getRounds()).isEqualTo(2);

    // round 3: the same minima again, and the server renamed itself
    int before = producer.history().size();
    for (int l = 0; l < LANDMARKS.length; l++) sample(w, l, 3, truth[l] + 300, ProbeStatus.PROBE_STATUS_OK);
    w.add(Endpoints.key(TARGET), RttSample.newBuilder().setLandmarkId("lm-0").setRound(3).setTarget(TARGET)
        .setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(truth[0] + 300)
        .setServerInfo(dev.reed.proto.v1.ServerInfo.newBuilder().setName("renamed").setPlayers(7)).build(), 0);
    r = positioning.run(w, state(1), Duration.ofHours(1));
    assertThat(r.fitted()).isZero();
    assertThat(producer.history()).as("new server info is published without a fit").hasSize(before + 1);
    assertThat(last(producer).getServerInfo().getName()).isEqualTo("renamed");
    assertThat(last(producer).getLandmarkRttsList()).isEqualTo(first.getLandmarkRttsList());

    // a minimum 2 ms lower is re-fitted
    sample(w, 2, 4, truth[2] - 2000, ProbeStatus.PROBE_STATUS_OK);
    r = positioning.run(w, state(1), Duration.ofHours(1));
    assertThat(r.fitted()).isEqualTo(1);
    assertThat(r.unmoved()).isZero();
  }

  @Test
  void aTargetTakenOverWithThePreviousOwnersMinimaIsAdoptedWithoutAFitAndReFittedOnceTheyMove() throws Exception {
    double[] at = {80, 150};
    int[] truth = new int[LANDMARKS.length];
    for (int l = 0; l < LANDMARKS.length; l++) truth[l] = (int) Math.round(Math.hypot(at[0] - LANDMARKS[l][0], at[1] - LANDMARKS[l][1]) * 1000);
    Clock clock = Clock.fixed(Instant.parse("2026-11-21T06:00:00Z"), ZoneOffset.UTC);
    com.google.protobuf.Timestamp epochAt = com.google.protobuf.Timestamp.newBuilder().setSeconds(clock.instant().getEpochSecond() - 600).build();
    Map<String, dev.reed.proto.v1.LandmarkCoordinate> landmarks = new java.util.HashMap<>();
    for (int l = 0; l < LANDMARKS.length; l++) {
      landmarks.put("lm-" + l, dev.reed.proto.v1.LandmarkCoordinate.newBuilder().setLandmarkId("lm-" + l).setEpoch(1)
          .setUpdateTime(epochAt).build());
    }
    // the previous owner fitted and published it
    TargetWindows before = new TargetWindows(8, 4);
    before.setNow(1000);
    for (int l = 0; l < LANDMARKS.length; l++) sample(before, l, 7, truth[l], ProbeStatus.PROBE_STATUS_OK);
    MockProducer<byte[], byte[]> first = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    positioning(first, clock).run(before, state(1), Duration.ofHours(1));
    ServerCoordinate published = last(first);

    // this replica, a round into the epoch, takes the target over, seeded with what was published
    MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    TargetPositioning positioning = positioning(producer, clock);
    ServingState withIt = new ServingState(dev.reed.coordinates.ranking.RankingIndex.of(List.of()),
        Map.of(Endpoints.key(TARGET), published), Map.of(), landmarks, state(1).landmarkAnchors(), Map.of(), Map.of(), 1,
        Instant.EPOCH, 2, false);
    TargetWindows w = new TargetWindows(8, 4);
    w.setNow(2000);
    positioning.run(w, withIt, Duration.ofHours(1));
    w.seed(Endpoints.key(TARGET), TARGET, GameProtocol.GAME_PROTOCOL_QUAKE3, published.getServerInfo(), published.getRound(), 0,
        published.getLandmarkRttsList());
    TargetPositioning.Result r = positioning.run(w, withIt, Duration.ofHours(1));
    assertThat(r.fitted()).isZero();
    assertThat(r.unmoved()).isEqualTo(1);
    assertThat(producer.history()).as("nothing changed: nothing republished").isEmpty();

    // its next samples keep the minima: still no fit; one 3 ms lower: re-fitted
    for (int l = 0; l < LANDMARKS.length; l++) sample(w, l, 8, truth[l] + 400, ProbeStatus.PROBE_STATUS_OK);
    assertThat(positioning.run(w, withIt, Duration.ofHours(1)).fitted()).isZero();
    sample(w, 1, 9, truth[1] - 3000, ProbeStatus.PROBE_STATUS_OK);
    assertThat(positioning.run(w, withIt, Duration.ofHours(1)).fitted()).isEqualTo(1);
    assertThat(last(producer).getLandmarkRtts(1).getRttUs()).isEqualTo(RttWindows.held(truth[1] - 3000));

    // a coordinate older than the epoch is not adopted: it is fitted again
    ServingState stale = new ServingState(withIt.index(), Map.of(Endpoints.key(TARGET), published.toBuilder()
        .setUpdateTime(com.google.protobuf.Timestamp.newBuilder().setSeconds(epochAt.getSeconds() - 60)).build()), Map.of(),
        landmarks, withIt.landmarkAnchors(), Map.of(), Map.of(), 1, Instant.EPOCH, 2, false);
    TargetPositioning fresh = positioning(producer, clock);
    TargetWindows w2 = new TargetWindows(8, 4);
    fresh.run(w2, stale, Duration.ofHours(1));
    w2.seed(Endpoints.key(TARGET), TARGET, GameProtocol.GAME_PROTOCOL_QUAKE3, null, published.getRound(), 0,
        published.getLandmarkRttsList());
    assertThat(fresh.run(w2, stale, Duration.ofHours(1)).fitted()).isEqualTo(1);
  }

  static TargetPositioning positioning(MockProducer<byte[], byte[]> producer, Clock clock) {
    return new TargetPositioning(new CoordinateConfig(2, false), producer, clock, Duration.ofMinutes(10), 0.5,
        new HostIntegrity(new dev.reed.coordinates.integrity.ServerConsistency(
            dev.reed.coordinates.integrity.IntegrityConfig.defaults())));
  }
}
