package dev.reed.cli.scale;

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
import dev.reed.testbed.world.Region;
import dev.reed.testbed.world.SyntheticWorldModel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What L landmark agents would publish for T game servers, without probing anything: RTTs from the
 * testbed's synthetic geographic world (servers where game hosting really is, landmarks spread over
 * the regions), exponential queueing jitter on top, and a share of timeouts. The cadence is the
 * agents' (landmark-agent README): every round, every landmark probes every target once, spread
 * evenly over the round, and its peers 4 times back to back (one {@link MeshSample} with the
 * minimum). A shorter round keeps the per-round work identical and only raises the rate.
 *
 * <p>Target addresses are in 198.18.0.0/15 (RFC 2544's benchmarking block) with eight ports per
 * address: names only, nothing is ever sent to them.
 */
final class SyntheticFeed {
  /** Samples of one round, in publishing order: landmark-major within a target slice. */
  record Plan(int targets, int landmarks, double timeoutRate, double jitterMeanMs, long seed) {}

  private final Plan plan;
  private final String[] landmarkIds;
  private final String[] targetKeys;
  private final byte[][] keyBytes;
  private final Endpoint[] endpoints;
  /** Base RTT in µs, [target * L + landmark]. */
  private final int[] baseUs;
  private final int[][] meshUs;
  private final ServerInfo[] infos;
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong timeouts = new AtomicLong();

  SyntheticFeed(Plan plan) {
    if (plan.targets() < 1 || plan.targets() > (1 << 20)) {
      throw new IllegalArgumentException("targets must be 1-" + (1 << 20) + ": " + plan.targets());
    }
    if (plan.landmarks() < 6 || plan.landmarks() > 64) {
      throw new IllegalArgumentException("landmarks must be 6-64 (at least D+2 for a 4-D embedding): " + plan.landmarks());
    }
    this.plan = plan;
    int t = plan.targets();
    int l = plan.landmarks();
    SyntheticWorldModel.Builder b = SyntheticWorldModel.builder(plan.seed());
    Region[] regions = {Region.EU, Region.NA, Region.AS, Region.EU, Region.NA, Region.SA, Region.OC, Region.ME,
        Region.AF};
    int[] landmarkHost = new int[l];
    landmarkIds = new String[l];
    for (int i = 0; i < l; i++) {
      landmarkIds[i] = String.format("scale-lm-%02d", i);
      landmarkHost[i] = b.addLandmark(landmarkIds[i], regions[i % regions.length]);
    }
    int first = b.addGameServers(t);
    SyntheticWorldModel world = b.build();
    targetKeys = new String[t];
    keyBytes = new byte[t][];
    endpoints = new Endpoint[t];
    baseUs = new int[t * l];
    infos = new ServerInfo[t];
    for (int i = 0; i < t; i++) {
      int a = i >> 3;
      endpoints[i] = Endpoint.newBuilder().setIp("198." + (18 + (a >> 16)) + "." + ((a >> 8) & 255) + "." + (a & 255))
          .setPort(27960 + (i & 7)).build();
      targetKeys[i] = Endpoints.key(endpoints[i]);
      keyBytes[i] = targetKeys[i].getBytes(StandardCharsets.UTF_8);
      for (int k = 0; k < l; k++) {
        baseUs[i * l + k] = (int) Math.min(998_000, Math.round(world.rttMs(landmarkHost[k], first + i) * 1000));
      }
      infos[i] = ServerInfo.newBuilder().setName("scale server " + i).setMap("q3dm17").setGame("baseoa")
          .setPlayers(i % 13).setMaxPlayers(16).setVersion("71").build();
    }
    meshUs = new int[l][l];
    for (int i = 0; i < l; i++) {
      for (int k = 0; k < l; k++) {
        meshUs[i][k] = i == k ? 0 : (int) Math.round(world.rttMs(landmarkHost[i], landmarkHost[k]) * 1000);
      }
    }
  }

  int targets() {
    return plan.targets();
  }

  int landmarks() {
    return plan.landmarks();
  }

  /** Samples per round (targets x landmarks). */
  long samplesPerRound() {
    return (long) plan.targets() * plan.landmarks();
  }

  long published() {
    return published.get();
  }

  long timeouts() {
    return timeouts.get();
  }

  String targetKey(int i) {
    return targetKeys[i];
  }

  /** The base RTT in µs between a landmark and a target (what the window minimum converges to). */
  int baseUs(int target, int landmark) {
    return baseUs[target * plan.landmarks() + landmark];
  }

  static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    return new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ProducerConfig.CLIENT_ID_CONFIG, "reed-scale-feed",
        ProducerConfig.ACKS_CONFIG, "1",
        // batches as an agent's batcher sends them; lz4 keeps the broker's disk and the consumers' fetches small
        ProducerConfig.LINGER_MS_CONFIG, "20",
        ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(256 * 1024),
        ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4",
        ProducerConfig.BUFFER_MEMORY_CONFIG, Long.toString(128L << 20)),
        new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** Announces the landmarks on reed.landmarks (what each agent does at start). */
  void announce(KafkaProducer<byte[], byte[]> producer, long roundMillis) {
    long now = System.currentTimeMillis();
    for (int i = 0; i < landmarkIds.length; i++) {
      Landmark lm = Landmark.newBuilder().setLandmarkId(landmarkIds[i]).setRegion("scale/" + i)
          .setBeacon(Endpoint.newBuilder().setIp("192.0.2." + (i + 1)).setPort(27960))
          .setVersion("scale").setAnnounceTime(ts(now)).setRoundIntervalMs(roundMillis).build();
      producer.send(new ProducerRecord<>(Topic.LANDMARKS.name(), landmarkIds[i].getBytes(StandardCharsets.UTF_8),
          lm.toByteArray()));
    }
    producer.flush();
  }

  /**
   * Publishes one round: the mesh first (as agents probe peers at the round's start), then every
   * (landmark, target) sample, paced so the round's samples are spread evenly over {@code
   * roundMillis}. Returns the wall-clock millis at which the last sample was acknowledged.
   *
   * @param clock nanosecond ticker (System::nanoTime in the harness)
   * @param progress called with the slice index (0-99) as the round advances
   */
  long publishRound(KafkaProducer<byte[], byte[]> producer, long round, long roundMillis, LongSupplier clock,
      IntConsumer progress) throws InterruptedException {
    SplittableRandom rng = new SplittableRandom(plan.seed() * 31 + round);
    int l = plan.landmarks();
    long now = System.currentTimeMillis();
    for (int i = 0; i < l; i++) {
      for (int k = 0; k < l; k++) {
        if (i == k) continue;
        int rtt = Math.max(1, meshUs[i][k] + jitterUs(rng) / 4); // minimum of 4 probes: a quarter of the jitter
        MeshSample m = MeshSample.newBuilder().setLandmarkId(landmarkIds[i]).setPeerLandmarkId(landmarkIds[k])
            .setRound(round).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(rtt).setProbesSent(4).setProbesAnswered(4)
            .setSendTime(ts(now)).build();
        producer.send(new ProducerRecord<>(Topic.MESH_SAMPLES.name(),
            (landmarkIds[i] + ">" + landmarkIds[k]).getBytes(StandardCharsets.UTF_8), m.toByteArray()));
      }
    }
    int t = plan.targets();
    long total = (long) t * l;
    long start = clock.getAsLong();
    long spanNanos = roundMillis * 1_000_000L;
    long sent = 0;
    int slices = 100;
    Timestamp sendTime = ts(now);
    for (int s = 0; s < slices; s++) {
      // every target of this slice once per landmark; a landmark walks its targets in its own order, but
      // the per-round work is the same
      int from = (int) ((long) t * s / slices);
      int to = (int) ((long) t * (s + 1) / slices);
      long due = start + spanNanos * s / slices;
      long wait = due - clock.getAsLong();
      if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
      sendTime = ts(System.currentTimeMillis());
      for (int i = from; i < to; i++) {
        for (int k = 0; k < l; k++) {
          RttSample.Builder b = RttSample.newBuilder().setLandmarkId(landmarkIds[k]).setRound(round)
              .setTarget(endpoints[i]).setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3).setSendTime(sendTime);
          if (rng.nextDouble() < plan.timeoutRate()) {
            b.setStatus(ProbeStatus.PROBE_STATUS_TIMEOUT);
            timeouts.incrementAndGet();
          } else {
            b.setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(Math.min(998_999, baseUs[i * l + k] + jitterUs(rng)))
                .setServerInfo(infos[i]);
          }
          producer.send(new ProducerRecord<>(Topic.SAMPLES.name(), keyBytes[i], b.build().toByteArray()));
          sent++;
        }
      }
      progress.accept(s);
    }
    producer.flush();
    published.addAndGet(sent);
    if (sent != total) throw new IllegalStateException("sent " + sent + " of " + total);
    return System.currentTimeMillis();
  }

  private int jitterUs(SplittableRandom rng) {
    return (int) Math.round(-plan.jitterMeanMs() * 1000 * Math.log1p(-rng.nextDouble()));
  }

  private static Timestamp ts(long millis) {
    return Timestamp.newBuilder().setSeconds(millis / 1000).setNanos((int) (millis % 1000) * 1_000_000).build();
  }

  List<String> landmarkIds() {
    return new ArrayList<>(List.of(landmarkIds));
  }
}
