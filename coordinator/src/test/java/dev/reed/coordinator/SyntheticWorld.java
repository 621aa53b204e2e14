package dev.reed.coordinator;

import com.google.protobuf.Timestamp;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A world with known geometry for pipeline tests: landmarks and targets at points of a plane, RTT
 * = distance in ms plus a little positive noise (congestion only adds delay), published to Kafka
 * exactly as landmark agents publish it.
 */
final class SyntheticWorld {
  final double[][] landmarks;
  final double[][] targets;
  final SplittableRandom random = new SplittableRandom(7);

  SyntheticWorld(int nTargets) {
    landmarks = new double[][] {{0, 0}, {200, 0}, {0, 200}, {200, 200}, {100, 320}};
    targets = new double[nTargets][];
    for (int i = 0; i < nTargets; i++) targets[i] = new double[] {10 + random.nextDouble(280), 10 + random.nextDouble(280)};
  }

  static double distance(double[] a, double[] b) {
    return Math.hypot(a[0] - b[0], a[1] - b[1]);
  }

  static String landmarkId(int i) {
    return "lm-" + i;
  }

  static Endpoint beacon(int i) {
    return Endpoint.newBuilder().setIp("127.0.1." + (i + 1)).setPort(27015).build();
  }

  static Endpoint target(int i) {
    return Endpoint.newBuilder().setIp("127.0.2." + (i + 1)).setPort(27960).build();
  }

  static Timestamp ts(Instant t) {
    return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
  }

  static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  static byte[] key(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  void announce(KafkaProducer<byte[], byte[]> p, long round) {
    for (int i = 0; i < landmarks.length; i++) {
      Landmark l = Landmark.newBuilder().setLandmarkId(landmarkId(i)).setRegion("plane/" + i).setBeacon(beacon(i))
          .setVersion("test").setAnnounceTime(ts(Instant.now())).setRound(round).setRoundIntervalMs(1000).build();
      p.send(new ProducerRecord<>(Topic.LANDMARKS.name(), key(landmarkId(i)), l.toByteArray()));
    }
  }

  /** One landmark round: mesh samples and one sample per (landmark, target). */
  void round(KafkaProducer<byte[], byte[]> p, long round) {
    for (int i = 0; i < landmarks.length; i++) {
      for (int j = 0; j < landmarks.length; j++) {
        if (i == j) continue;
        int us = (int) Math.round((distance(landmarks[i], landmarks[j]) + random.nextDouble(2)) * 1000);
        MeshSample m = MeshSample.newBuilder().setLandmarkId(landmarkId(i)).setPeerLandmarkId(landmarkId(j))
            .setRound(round).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(Math.max(1, us)).setProbesSent(4)
            .setProbesAnswered(4).setSendTime(ts(Instant.now())).setPeerBeacon(beacon(j)).build();
        p.send(new ProducerRecord<>(Topic.MESH_SAMPLES.name(), key(landmarkId(i) + ">" + landmarkId(j)), m.toByteArray()));
      }
      for (int t = 0; t < targets.length; t++) {
        p.send(sample(i, t, round));
      }
    }
  }

  ProducerRecord<byte[], byte[]> sample(int landmark, int t, long round) {
    int us = (int) Math.round((distance(landmarks[landmark], targets[t]) + random.nextDouble(3)) * 1000);
    RttSample s = RttSample.newBuilder().setLandmarkId(landmarkId(landmark)).setRound(round).setTarget(target(t))
        .setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(Math.max(1, us))
        .setSendTime(ts(Instant.now()))
        .setServerInfo(ServerInfo.newBuilder().setName("server " + t).setMap(t % 2 == 0 ? "oa_dm1" : "oa_dm4")
            .setGame("baseoa").setPlayers(t % 4).setMaxPlayers(3).setVersion("71"))
        .build();
    return new ProducerRecord<>(Topic.SAMPLES.name(), key(Endpoints.key(target(t))), s.toByteArray());
  }

  List<Integer> trueOrderFrom(double[] point) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < targets.length; i++) order.add(i);
    order.sort((a, b) -> Double.compare(distance(point, targets[a]), distance(point, targets[b])));
    return order;
  }
}
