package dev.reed.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.agent.round.RoundReport;
import dev.reed.probe.responder.GameQueryResponder;
import dev.reed.probe.responder.ReplyDelay;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.proto.v1.Target;
import dev.reed.proto.v1.TargetSource;
import dev.reed.testbed.kafka.KafkaExtension;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Targets from the compacted reed.targets topic, merged with the static file; tombstones remove;
 * the deny file drops targets from both, re-read before each round.
 */
@Timeout(120)
@Tag("integration")
class AgentTargetsTopicTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
  @TempDir Path dir;

  static Target target(InetSocketAddress a, GameProtocol p) {
    return Target.newBuilder().setEndpoint(Endpoints.of(a)).setProtocol(p).setSource(TargetSource.TARGET_SOURCE_QUAKE3_HEARTBEAT)
        .build();
  }

  /** Every datagram a responder received. */
  static long heard(GameQueryResponder r) {
    var c = r.counters();
    return c.answered() + c.challengesIssued() + c.malformed() + c.dropped();
  }

  @Test
  void topicTargetsAreProbedTombstonesRemoveAndJunkIsCounted() throws Exception {
    String kafka = KAFKA.broker().bootstrapServers();
    List<GameQueryResponder> servers = new ArrayList<>();
    try {
      ServerInfo info = ServerInfo.newBuilder().setName("from topic").setMap("oa_dm4").setGame("baseoa").build();
      for (int i = 0; i < 4; i++) {
        servers.add(GameQueryResponder.start(new InetSocketAddress("127.0.0.40", 0), () -> info, ReplyDelay.NONE));
      }
      Map<String, Object> p = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka, ProducerConfig.ACKS_CONFIG, "all");
      try (var producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
        for (int i = 0; i < 3; i++) {
          Target t = target(servers.get(i).localAddress(), i == 0 ? GameProtocol.GAME_PROTOCOL_QUAKE3 : GameProtocol.GAME_PROTOCOL_A2S);
          producer.send(new ProducerRecord<>(Topic.TARGETS.name(), Endpoints.key(t.getEndpoint()), t.toByteArray()));
        }
        // server 2 leaves the catalog again; junk and an unprobeable protocol are skipped and counted
        producer.send(new ProducerRecord<>(Topic.TARGETS.name(), Endpoints.key(servers.get(2).localAddress()), null));
        producer.send(new ProducerRecord<>(Topic.TARGETS.name(), "junk", "not a protobuf".getBytes(StandardCharsets.UTF_8)));
        Target unspecified = target(new InetSocketAddress("127.0.0.41", 5), GameProtocol.GAME_PROTOCOL_UNSPECIFIED);
        producer.send(new ProducerRecord<>(Topic.TARGETS.name(), "127.0.0.41:5", unspecified.toByteArray()));
        producer.flush();
      }
      Path file = dir.resolve("targets.txt");
      String staticKey = Endpoints.key(servers.get(3).localAddress());
      String topicKey = Endpoints.key(servers.get(0).localAddress());
      Files.writeString(file, "a2s " + staticKey + "\nq3 " + topicKey + "   # also in the topic: probed once\n");
      Path deny = dir.resolve("deny.txt");
      Files.writeString(deny, "# nobody yet\n");
      try (LandmarkAgent agent = LandmarkAgent.start(AgentConfig.builder("lm-topic", kafka).loopback().targetsFile(file)
          .denyFile(deny).spoolDir(dir.resolve("spool")).deliveryTimeout(Duration.ofSeconds(10)).build())) {
        RoundReport r = agent.runRound();
        assertThat(r.targets()).isEqualTo(3);
        assertThat(r.replies()).isEqualTo(3);
        Map<String, RttSample> samples = new HashMap<>();
        for (TopicDump.Rec rec : TopicDump.read(kafka, Topic.SAMPLES.name())) {
          RttSample s = RttSample.parseFrom(rec.value());
          if (s.getRound() == r.round()) assertThat(samples.put(rec.key(), s)).isNull();
        }
        assertThat(samples.keySet()).isEqualTo(Set.of(staticKey, topicKey, Endpoints.key(servers.get(1).localAddress())));
        assertThat(samples.values()).allMatch(s -> s.getStatus() == ProbeStatus.PROBE_STATUS_OK
            && s.getServerInfo().getName().equals("from topic"));
        assertThat(agent.meterRegistry().get("reed.agent.targets.invalid").functionCounter().count()).isEqualTo(2);

        // a removal takes effect at the next round
        try (var producer = new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka),
            new StringSerializer(), new ByteArraySerializer())) {
          producer.send(new ProducerRecord<>(Topic.TARGETS.name(), Endpoints.key(servers.get(1).localAddress()), null))
              .get(10, TimeUnit.SECONDS);
        }
        assertThat(agent.runRound().targets()).isEqualTo(2);

        // the operator denies the static target and the topic's: neither is probed from the next round on
        long staticRequests = heard(servers.get(3));
        long topicRequests = heard(servers.get(0));
        Files.writeString(deny, servers.get(3).localAddress().getAddress().getHostAddress() + "/32\n" + topicKey + "\n");
        Files.setLastModifiedTime(deny, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));
        RoundReport denied = agent.runRound();
        assertThat(denied.targets()).isZero();
        assertThat(heard(servers.get(3))).isEqualTo(staticRequests);
        assertThat(heard(servers.get(0))).isEqualTo(topicRequests);

        // a bad edit keeps the list: still nothing probed
        Files.writeString(deny, "127.0.0.40/33\n");
        Files.setLastModifiedTime(deny, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 10_000));
        assertThat(agent.runRound().targets()).isZero();
        assertThat(heard(servers.get(0))).isEqualTo(topicRequests);
      }
    } finally {
      servers.forEach(GameQueryResponder::close);
    }
  }
}
