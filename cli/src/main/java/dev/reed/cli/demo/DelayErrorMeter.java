package dev.reed.cli.demo;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.testbed.emulated.EmulatedGameServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The demo's delay error ({@link DelayError}): the emulated servers tell it, as they schedule each
 * reply, the RTT the world intends a landmark to measure; after a round it reads what the landmarks
 * published to {@code reed.samples} (the real samples, as the coordinator reads them) and compares
 * each answered probe's RTT with the intended RTT of its final reply. A landmark probes a server once
 * per round (an A2S challenge reply comes first and is overwritten by the info reply, whose round
 * trip the sample carries), so the last intended RTT per (landmark, server) is the one measured.
 * It runs in the agents' {@link EmulationChild}, beside the servers it compares; the servers of a
 * server-only child are not compared.
 */
final class DelayErrorMeter implements EmulatedGameServers.ReplyTap, AutoCloseable {
  private static final int UNKNOWN = -1;

  private final int[] landmarkOrdinal;
  private final int[] serverOrdinal;
  private final int servers;
  /** Intended RTT in microseconds per (landmark, server); UNKNOWN until a reply is scheduled. */
  private final AtomicIntegerArray intendedUs;
  private final Map<String, Integer> landmarkById = new HashMap<>();
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<TopicPartition> partitions = new ArrayList<>();

  /**
   * @param worldSize hosts in the world
   * @param landmarks the landmarks (id and host)
   * @param serverHosts the game servers' hosts
   * @param bootstrap Kafka; samples published from now on are compared
   */
  DelayErrorMeter(int worldSize, List<DemoWorld.Site> landmarks, int[] serverHosts, String bootstrap) {
    landmarkOrdinal = new int[worldSize];
    serverOrdinal = new int[worldSize];
    Arrays.fill(landmarkOrdinal, UNKNOWN);
    Arrays.fill(serverOrdinal, UNKNOWN);
    for (int i = 0; i < landmarks.size(); i++) {
      landmarkOrdinal[landmarks.get(i).host()] = i;
      landmarkById.put(landmarks.get(i).id(), landmarks.get(i).host());
    }
    for (int i = 0; i < serverHosts.length; i++) serverOrdinal[serverHosts[i]] = i;
    servers = serverHosts.length;
    intendedUs = new AtomicIntegerArray(landmarks.size() * servers);
    for (int i = 0; i < intendedUs.length(); i++) intendedUs.setPlain(i, UNKNOWN);
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "reed-demo-delay-error");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    for (int i = 0; i < Topic.SAMPLES.partitions(); i++) partitions.add(new TopicPartition(Topic.SAMPLES.name(), i));
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    for (TopicPartition tp : partitions) consumer.position(tp); // resolve "end" now, before any round publishes
  }

  @Override
  public void scheduled(int proberHost, int serverHost, long intendedNanos) {
    int l = landmarkOrdinal[proberHost];
    int s = serverOrdinal[serverHost];
    if (l == UNKNOWN || s == UNKNOWN) return; // a client's probe, or a landmark's beacon
    intendedUs.lazySet(l * servers + s, (int) Math.min(Integer.MAX_VALUE, intendedNanos / 1_000));
  }

  /**
   * Measured minus intended RTT (ms) of every answered sample published since the last call; call
   * it once the landmarks have published their round.
   *
   * @param hostByKey server host per "ip:port"
   * @param within how long to wait for the topic's end
   */
  double[] collect(Map<String, Integer> hostByKey, Duration within) {
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions, within);
    long deadline = System.nanoTime() + within.toNanos();
    double[] errors = new double[1024];
    int n = 0;
    while (!caughtUp(end) && System.nanoTime() < deadline) {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        double e = errorMs(r.value(), hostByKey);
        if (Double.isNaN(e)) continue;
        if (n == errors.length) errors = Arrays.copyOf(errors, n * 2);
        errors[n++] = e;
      }
    }
    return Arrays.copyOf(errors, n);
  }

  private boolean caughtUp(Map<TopicPartition, Long> end) {
    for (TopicPartition tp : partitions) if (consumer.position(tp) < end.getOrDefault(tp, 0L)) return false;
    return true;
  }

  /** Measured minus intended RTT in ms, NaN when the sample is not an answered probe of a compared pair. */
  double errorMs(byte[] value, Map<String, Integer> hostByKey) {
    RttSample s;
    try {
      s = RttSample.parseFrom(value);
    } catch (InvalidProtocolBufferException e) {
      return Double.NaN;
    }
    if (s.getStatus() != ProbeStatus.PROBE_STATUS_OK) return Double.NaN;
    Integer landmark = landmarkById.get(s.getLandmarkId());
    Integer server = hostByKey.get(Endpoints.key(s.getTarget()));
    if (landmark == null || server == null || serverOrdinal[server] == UNKNOWN) return Double.NaN;
    int intended = intendedUs.get(landmarkOrdinal[landmark] * servers + serverOrdinal[server]);
    return intended == UNKNOWN ? Double.NaN : (s.getRttUs() - intended) / 1_000.0;
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(2));
  }
}
