package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinator.api.EachCallDeadline;
import dev.reed.coordinator.ingest.DeadLetters;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.CalibrationMeasurement;
import dev.reed.proto.v1.CalibrationServer;
import dev.reed.proto.v1.GetCalibrationServersRequest;
import dev.reed.proto.v1.GetCalibrationServersResponse;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.LocateRequest;
import dev.reed.proto.v1.LocateResponse;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.testbed.kafka.KafkaExtension;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole pipeline against a real Kafka broker: samples with a known geometry in, coordinates
 * and rankings out; invalid records dead-lettered; a restarted coordinator serves the same
 * coordinates within seconds.
 */
@Tag("integration")
class CoordinatorPipelineTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  static CoordinatorConfig config(String bootstrap) {
    return CoordinatorConfig.builder(bootstrap).loopbackEphemeral().dimensions(2).roundInterval(Duration.ofMillis(300))
        .replay(Duration.ofMinutes(10)).build();
  }

  @Test
  void samplesBecomeCoordinatesRankingsFollowTrueRttAndRestartServesTheSameCoordinates() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    SyntheticWorld world = new SyntheticWorld(30);
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap)) {
      world.announce(p, 1);
      p.flush();
      for (int r = 1; r <= 3; r++) world.round(p, r);
      // invalid records: each must be dead-lettered, none may crash the consumer or reach the windows
      p.send(new ProducerRecord<>(Topic.SAMPLES.name(), "x".getBytes(), new byte[] {(byte) 0xff, 0x01, 0x02}));
      RttSample good = RttSample.parseFrom(world.sample(0, 0, 4).value());
      p.send(new ProducerRecord<>(Topic.SAMPLES.name(), SyntheticWorld.key(Endpoints.key(good.getTarget())),
          good.toBuilder().setRttUs(2_000_000).build().toByteArray()));
      p.send(new ProducerRecord<>(Topic.SAMPLES.name(), SyntheticWorld.key(Endpoints.key(good.getTarget())),
          good.toBuilder().setLandmarkId("nobody").build().toByteArray()));
      p.send(new ProducerRecord<>(Topic.SAMPLES.name(), SyntheticWorld.key("127.0.9.9:1"),
          good.toBuilder().clearTarget().build().toByteArray()));
      p.send(new ProducerRecord<>(Topic.SAMPLES.name(), SyntheticWorld.key(Endpoints.key(good.getTarget())),
          good.toBuilder().setStatus(ProbeStatus.PROBE_STATUS_UNSPECIFIED).build().toByteArray()));
    }

    Map<String, ServerCoordinate> before;
    try (Coordinator c = Coordinator.start(config(bootstrap))) {
      await().atMost(Duration.ofSeconds(60)).until(() -> c.servingState().servers().size() == 30);
      before = new HashMap<>(c.servingState().servers());
      ManagedChannel ch = NettyChannelBuilder.forAddress(c.grpcAddress()).usePlaintext().build();
      try {
        ReedServiceGrpc.ReedServiceBlockingStub stub = ReedServiceGrpc.newBlockingStub(ch).withInterceptors(new EachCallDeadline(10));
        // a client at a known point: calibrate, measure true RTTs, locate, rank
        double[] client = {150, 60};
        GetCalibrationServersResponse cal = stub.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(8).build());
        assertThat(cal.getServersCount()).isEqualTo(8);
        assertThat(cal.getDimensions()).isEqualTo(2);
        LocateRequest.Builder lr = LocateRequest.newBuilder();
        for (CalibrationServer s : cal.getServersList()) {
          double[] at = pointOf(world, Endpoints.key(s.getEndpoint()));
          lr.addMeasurements(CalibrationMeasurement.newBuilder().setEndpoint(s.getEndpoint())
              .setRttUs((int) Math.round(SyntheticWorld.distance(client, at) * 1000)));
        }
        LocateResponse located = stub.locate(lr.build());
        assertThat(located.getFit().getRelativeError()).isLessThan(0.1);
        GetOrderedServersResponse page = stub.getOrderedServers(GetOrderedServersRequest.newBuilder()
            .setClient(located.getCoordinate()).setPageSize(10).build());
        assertThat(page.getTotalMatching()).isEqualTo(30);
        assertThat(page.getNextPageToken()).isNotEmpty();
        List<Integer> predicted = new ArrayList<>();
        for (RankedServer s : page.getServersList()) predicted.add(Integer.parseInt(s.getEndpoint().getIp().split("\\.")[3]) - 1);
        List<Integer> truth = world.trueOrderFrom(client);
        // the 5 truly closest are among the first 10 predicted, and the first predicted is truly within the best 3
        assertThat(predicted).containsAll(truth.subList(0, 5));
        assertThat(truth.subList(0, 3)).contains(predicted.getFirst());
        RankedServer first = page.getServers(0);
        assertThat(first.getServerInfo().getGame()).isEqualTo("baseoa");
        assertThat(first.getStability().getRounds()).isEqualTo(3);
        assertThat(first.getStability().getMedianRttUs()).isPositive();
        assertThat(first.getFit().getLandmarksUsed()).isEqualTo(5);
        assertThat((double) first.getPredictedRttUs() / 1000)
            .isCloseTo(SyntheticWorld.distance(client, world.targets[predicted.getFirst()]), org.assertj.core.data.Offset.offset(15.0));
        // the landmarks' window minima travel with the server (samples carry 0-3 ms of noise)
        assertThat(first.getLandmarkRttsList()).hasSize(5);
        for (var l : first.getLandmarkRttsList()) {
          int i = Integer.parseInt(l.getLandmarkId().substring("lm-".length()));
          assertThat(l.getRttUs() / 1000.0).isBetween(SyntheticWorld.distance(world.landmarks[i], world.targets[predicted.getFirst()]) - 0.5,
              SyntheticWorld.distance(world.landmarks[i], world.targets[predicted.getFirst()]) + 3.5);
        }
        // the same RTTs in the compact form, through the replica's landmark numbering (IndexFeed)
        GetOrderedServersResponse compact = stub.getOrderedServers(GetOrderedServersRequest.newBuilder()
            .setClient(located.getCoordinate()).setPageSize(10).setCompactLandmarkRtts(true).build());
        assertThat(compact.getLandmarkIdsList()).containsExactlyInAnyOrder("lm-0", "lm-1", "lm-2", "lm-3", "lm-4");
        for (int i = 0; i < page.getServersCount(); i++) {
          RankedServer cs = compact.getServers(i);
          assertThat(cs.getLandmarkRttsList()).isEmpty();
          List<dev.reed.proto.v1.LandmarkRtt> resolved = new ArrayList<>();
          for (int k = 0; k < cs.getLandmarkRefsCount(); k++) {
            resolved.add(dev.reed.proto.v1.LandmarkRtt.newBuilder().setLandmarkId(compact.getLandmarkIds(cs.getLandmarkRefs(k)))
                .setRttUs(cs.getLandmarkRttUs(k)).build());
          }
          assertThat(resolved).isEqualTo(page.getServers(i).getLandmarkRttsList());
        }
        // beacons name their landmark; the near phase returns the calibration servers nearest the client first
        assertThat(stub.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(64).build()).getServersList())
            .filteredOn(s -> s.getKind() == dev.reed.proto.v1.CalibrationKind.CALIBRATION_KIND_LANDMARK_BEACON)
            .extracting(CalibrationServer::getLandmarkId).containsExactlyInAnyOrder("lm-0", "lm-1", "lm-2", "lm-3", "lm-4");
        GetCalibrationServersResponse near = stub.getCalibrationServers(GetCalibrationServersRequest.newBuilder().setCount(3)
            .setNear(located.getCoordinate()).build());
        assertThat(near.getServersList()).hasSize(3);
        double previous = -1;
        for (CalibrationServer s : near.getServersList()) {
          double d = SyntheticWorld.distance(client, pointOf(world, Endpoints.key(s.getEndpoint())));
          assertThat(d).isLessThan(60).isGreaterThan(previous - 15); // nearest first, up to coordinate error
          previous = d;
        }
      } finally {
        ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      assertThat(deadLetterReasons(bootstrap)).hasSize(5)
          .anyMatch(r -> r.contains("undecodable"))
          .anyMatch(r -> r.contains("rtt_us out of range"))
          .anyMatch(r -> r.contains("unknown landmark 'nobody'"))
          .anyMatch(r -> r.contains("missing target"))
          .anyMatch(r -> r.contains("status"));
    }

    // restart: the compacted topics give the same coordinates back within seconds
    long t0 = System.nanoTime();
    try (Coordinator c = Coordinator.start(config(bootstrap))) {
      assertThat(c.servingState().servers()).hasSize(30);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertThat(ms).as("serving again after restart (ms)").isLessThan(10_000);
      for (Map.Entry<String, ServerCoordinate> e : before.entrySet()) {
        assertThat(c.servingState().servers().get(e.getKey()).getCoordinate()).isEqualTo(e.getValue().getCoordinate());
      }
      // ready only once the restored index was warmed with ranking queries
      dev.reed.coordinator.api.IndexWarmup.Result warm = c.indexWarmup();
      assertThat(warm).as("warmed before start returned ready").isNotNull();
      assertThat(warm.servers()).isEqualTo(30);
      assertThat(warm.queries()).isPositive();
      // the windows are rebuilt from replayed samples: fits keep using all five landmarks
      long rounds = c.roundsCompleted();
      await().atMost(Duration.ofSeconds(30)).until(() -> c.roundsCompleted() >= rounds + 3);
      for (ServerCoordinate s : c.servingState().servers().values()) {
        assertThat(s.getFit().getLandmarksUsed()).isEqualTo(5);
        assertThat(s.getStability().getRounds()).isEqualTo(3);
      }
      assertThat(deadLetterReasons(bootstrap)).as("replayed invalid records are not dead-lettered twice").hasSize(5);
    }
  }

  static double[] pointOf(SyntheticWorld w, String key) {
    for (int i = 0; i < w.landmarks.length; i++) if (Endpoints.key(SyntheticWorld.beacon(i)).equals(key)) return w.landmarks[i];
    for (int i = 0; i < w.targets.length; i++) if (Endpoints.key(SyntheticWorld.target(i)).equals(key)) return w.targets[i];
    throw new AssertionError("unknown calibration server " + key);
  }

  static List<String> deadLetterReasons(String bootstrap) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition tp = new TopicPartition(Topic.DEAD_LETTER.name(), 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      long end = c.endOffsets(List.of(tp)).get(tp);
      List<String> reasons = new ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (c.position(tp) < end && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          reasons.add(new String(r.headers().lastHeader(DeadLetters.REASON_HEADER).value(), StandardCharsets.UTF_8));
        }
      }
      return reasons;
    }
  }
}
