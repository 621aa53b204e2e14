package dev.reed.coordinator.ingest;

import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.runtime.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The ingest hot path per record, without the network: protobuf decode, validation, window
 * update (what {@link SampleIngest#handleSample} does for every record Kafka hands it), over
 * 36,000 targets x 16 landmarks, rounds advancing. One thread = one core.
 *
 * <pre>
 * java -cp "$(cat coordinator/target/bench.cp):coordinator/target/test-classes:coordinator/target/classes" \
 *   org.openjdk.jmh.Main IngestBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "-XX:+UseSerialGC"})
public class IngestBenchmark {
  @Param({"36000"})
  int targets;

  @Param({"16"})
  int landmarks;

  ConsumerRecord<byte[], byte[]>[] records;
  SampleIngest ingest;
  TargetWindows windows;
  int next;

  @SuppressWarnings("unchecked")
  @Setup(Level.Trial)
  public void setup() {
    int rounds = 4;
    records = new ConsumerRecord[targets * landmarks * rounds];
    SplittableRandom r = new SplittableRandom(1);
    int i = 0;
    for (int round = 1; round <= rounds; round++) {
      for (int t = 0; t < targets; t++) {
        Endpoint e = Endpoint.newBuilder().setIp("10." + (t >> 16) + "." + ((t >> 8) & 255) + "." + (t & 255)).setPort(27015).build();
        byte[] key = Endpoints.key(e).getBytes(StandardCharsets.UTF_8);
        for (int l = 0; l < landmarks; l++) {
          RttSample.Builder s = RttSample.newBuilder().setLandmarkId("landmark-" + l).setRound(round).setTarget(e)
              .setProtocol(GameProtocol.GAME_PROTOCOL_A2S);
          if (r.nextInt(20) == 0) s.setStatus(ProbeStatus.PROBE_STATUS_TIMEOUT);
          else s.setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(5_000 + r.nextInt(200_000))
              .setServerInfo(ServerInfo.newBuilder().setName("server " + t).setMap("de_dust2").setGame("cstrike")
                  .setPlayers(t % 20).setMaxPlayers(24));
          records[i++] = new ConsumerRecord<>(Topic.SAMPLES.name(), t % 12, i, key, s.build().toByteArray());
        }
      }
    }
    Set<String> known = new HashSet<>();
    for (int l = 0; l < landmarks; l++) known.add("landmark-" + l);
    windows = new TargetWindows(8, targets);
    KafkaProducer<byte[], byte[]> unused = producer();
    ingest = new SampleIngest(KafkaClients.of("127.0.0.1:1"), "bench", windows, new MeshWindows(8), new SampleValidator(known::contains),
        new DeadLetters(unused), Clock.systemUTC(), Duration.ofMinutes(1));
  }

  static KafkaProducer<byte[], byte[]> producer() {
    java.util.Properties p = new java.util.Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    ingest.close();
  }

  /** One record: decode, validate, update its window. */
  @Benchmark
  public int handleSample() {
    ConsumerRecord<byte[], byte[]> rec = records[next];
    next = next + 1 == records.length ? 0 : next + 1;
    ingest.handleSample(rec);
    return next;
  }

  /** The window update alone (flat int[] ring), for comparison. */
  @Benchmark
  public boolean windowRecordOnly() {
    int i = next;
    next = next + 1 == records.length ? 0 : next + 1;
    return windows.windows().record(i % targets, i % landmarks, i / (targets * landmarks) + 1, 5_000 + (i & 1023));
  }
}
