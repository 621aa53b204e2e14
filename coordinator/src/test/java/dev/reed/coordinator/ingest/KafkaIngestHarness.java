package dev.reed.coordinator.ingest;

import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.runtime.KafkaClients;
import dev.reed.testbed.kafka.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * End-to-end consume rate: fills reed.samples of an embedded broker with {@code n} samples
 * (36,000 targets x 16 landmarks per round), then times one {@link SampleIngest} (one consumer
 * thread: fetch, decode, validate, window update) reading all of them. The broker runs in the
 * same JVM, so broker and consumer share the machine's cores.
 *
 * <pre>
 * java -Xmx2g -cp "$(cat coordinator/target/bench.cp):coordinator/target/test-classes:coordinator/target/classes" \
 *   dev.reed.coordinator.ingest.KafkaIngestHarness [samples=2304000]
 * </pre>
 */
public final class KafkaIngestHarness {
  private KafkaIngestHarness() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 36_000 * 16 * 4;
    int targets = 36_000;
    int landmarks = 16;
    try (EmbeddedKafka kafka = EmbeddedKafka.temporary().start()) {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
      p.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
      p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false"); // a load generator: a resend is fine, a stall is not
      p.put(ProducerConfig.ACKS_CONFIG, "1");
      SplittableRandom r = new SplittableRandom(1);
      long t0 = System.nanoTime();
      try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
        for (int i = 0; i < n; i++) {
          int t = (i / landmarks) % targets;
          int l = i % landmarks;
          int round = i / (targets * landmarks) + 1;
          Endpoint e = Endpoint.newBuilder().setIp("10." + (t >> 16) + "." + ((t >> 8) & 255) + "." + (t & 255)).setPort(27015).build();
          RttSample s = RttSample.newBuilder().setLandmarkId("landmark-" + l).setRound(round).setTarget(e)
              .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setStatus(ProbeStatus.PROBE_STATUS_OK)
              .setRttUs(5_000 + r.nextInt(200_000))
              .setServerInfo(ServerInfo.newBuilder().setName("server " + t).setMap("de_dust2").setGame("cstrike")
                  .setPlayers(t % 20).setMaxPlayers(24))
              .build();
          producer.send(new ProducerRecord<>(Topic.SAMPLES.name(), Endpoints.key(e).getBytes(StandardCharsets.UTF_8),
              s.toByteArray()));
        }
      }
      long inTopic;
      try (org.apache.kafka.clients.admin.Admin admin = kafka.admin()) {
        var partitions = admin.describeTopics(java.util.List.of(Topic.SAMPLES.name())).allTopicNames().get()
            .get(Topic.SAMPLES.name()).partitions();
        var query = new java.util.HashMap<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec>();
        for (var pi : partitions) {
          query.put(new org.apache.kafka.common.TopicPartition(Topic.SAMPLES.name(), pi.partition()),
              org.apache.kafka.clients.admin.OffsetSpec.latest());
        }
        inTopic = admin.listOffsets(query).all().get().values().stream().mapToLong(o -> o.offset()).sum();
      }
      System.out.printf("produced %d samples in %.1f s (%d in the topic)%n", n, (System.nanoTime() - t0) / 1e9, inTopic);
      Set<String> known = new HashSet<>();
      for (int l = 0; l < landmarks; l++) known.add("landmark-" + l);
      TargetWindows windows = new TargetWindows(8, targets);
      KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
      try (SampleIngest ingest = new SampleIngest(KafkaClients.of(kafka.bootstrapServers()), "harness", windows, new MeshWindows(8),
          new SampleValidator(known::contains), new DeadLetters(dlq), Clock.systemUTC(), Duration.ofHours(1))) {
        ingest.start();
        long start = 0;
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (ingest.counters().samples() < inTopic && System.nanoTime() < deadline) {
          int got = ingest.poll(Duration.ofMillis(100));
          if (start == 0 && got > 0) start = System.nanoTime();
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf("consumed %d samples into %d targets x %d landmarks in %.2f s: %.0f samples/s (one consumer thread)%n",
            ingest.counters().samples(), windows.size(), landmarks, secs, ingest.counters().samples() / secs);
      } finally {
        dlq.close();
      }
    }
  }
}
