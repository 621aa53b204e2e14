package dev.reed.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.Topic;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.testbed.kafka.EmbeddedKafka;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The meter against a real broker: samples published to reed.samples, intended delays from the tap. */
@Tag("integration")
class DelayErrorMeterTest {
  private static final List<DemoWorld.Site> LANDMARKS =
      List.of(new DemoWorld.Site("lm-eu-1", "EU", "Frankfurt", 5), new DemoWorld.Site("lm-na-1", "NA", "Ashburn", 6));
  private static final Map<String, Integer> HOST_BY_KEY =
      Map.of("127.100.0.1:27015", 0, "127.100.0.2:27015", 1, "127.100.0.3:27015", 2);

  @Test
  void comparesEachAnsweredLandmarkProbeWithTheLastIntendedDelayOfItsPair() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.temporary().start();
        KafkaProducer<byte[], byte[]> producer = producer(kafka.bootstrapServers())) {
      publish(producer, sample("lm-eu-1", "127.100.0.1", 99_000, ProbeStatus.PROBE_STATUS_OK)); // before the meter: not read
      producer.flush();
      // servers 0 and 1 run here, server 2 elsewhere (a server-only EmulationProcess): never compared
      try (DelayErrorMeter meter = new DelayErrorMeter(7, LANDMARKS, new int[] {0, 1}, kafka.bootstrapServers())) {
        meter.scheduled(5, 0, 12_000_000);    // the A2S challenge reply ...
        meter.scheduled(5, 0, 30_000_000);    // ... then the info reply, whose round trip the sample carries
        meter.scheduled(6, 1, 10_000_000);
        meter.scheduled(3, 1, 50_000_000);    // a client's probe: not a landmark
        meter.scheduled(5, 2, 40_000_000);
        publish(producer, sample("lm-eu-1", "127.100.0.1", 30_400, ProbeStatus.PROBE_STATUS_OK));
        publish(producer, sample("lm-na-1", "127.100.0.2", 10_100, ProbeStatus.PROBE_STATUS_OK));
        publish(producer, sample("lm-na-1", "127.100.0.1", 0, ProbeStatus.PROBE_STATUS_TIMEOUT));
        publish(producer, sample("lm-eu-1", "127.100.0.2", 25_000, ProbeStatus.PROBE_STATUS_OK)); // no reply scheduled for the pair
        publish(producer, sample("lm-eu-1", "127.100.0.3", 40_200, ProbeStatus.PROBE_STATUS_OK)); // another JVM's server
        publish(producer, sample("lm-xx-9", "127.100.0.1", 30_000, ProbeStatus.PROBE_STATUS_OK)); // no such landmark
        producer.flush();

        double[] errors = meter.collect(HOST_BY_KEY, Duration.ofSeconds(30));
        Arrays.sort(errors);
        assertThat(errors).containsExactly(new double[] {0.1, 0.4}, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(meter.collect(HOST_BY_KEY, Duration.ofSeconds(5))).isEmpty();

        meter.scheduled(6, 1, 11_000_000);    // the next round
        publish(producer, sample("lm-na-1", "127.100.0.2", 12_500, ProbeStatus.PROBE_STATUS_OK));
        producer.flush();
        assertThat(meter.collect(HOST_BY_KEY, Duration.ofSeconds(30))).containsExactly(new double[] {1.5},
            org.assertj.core.data.Offset.offset(1e-9));
      }
    }
  }

  private static RttSample sample(String landmark, String ip, int rttUs, ProbeStatus status) {
    return RttSample.newBuilder().setLandmarkId(landmark).setRound(1)
        .setTarget(Endpoint.newBuilder().setIp(ip).setPort(27015)).setStatus(status).setRttUs(rttUs).build();
  }

  private static void publish(KafkaProducer<byte[], byte[]> p, RttSample s) {
    p.send(new ProducerRecord<>(Topic.SAMPLES.name(), Endpoint.newBuilder().setIp(s.getTarget().getIp()).build().toByteArray(),
        s.toByteArray()));
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }
}
