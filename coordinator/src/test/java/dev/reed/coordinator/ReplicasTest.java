package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinator.leader.FakeLeaseApi;
import dev.reed.coordinator.leader.LeaderElection;
import dev.reed.testbed.kafka.KafkaExtension;
import io.kubernetes.client.util.ClientBuilder;
import java.time.Duration;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two replicas behind one Kafka: they share reed.samples through the consumer group, both serve the
 * full index, one leads through a Lease (HTTP fake of the Kubernetes API); when the leader goes,
 * the other takes over its partitions and the leadership.
 */
class ReplicasTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  static Coordinator replica(String bootstrap, FakeLeaseApi api, String id) throws Exception {
    LeaderElection lease = LeaderElection.kubernetesLease(new ClientBuilder().setBasePath(api.baseUrl(id)).build(), "reed",
        "leader", id, Duration.ofSeconds(2), Duration.ofMillis(1500), Duration.ofMillis(200));
    return Coordinator.start(CoordinatorPipelineTest.config(bootstrap).toBuilder().identity(id).build(), lease);
  }

  @Test
  void replicasSharePartitionsServeEverythingAndHandOverLeadership() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    SyntheticWorld world = new SyntheticWorld(40);
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap)) {
      world.announce(p, 1);
      p.flush();
      for (int r = 1; r <= 3; r++) world.round(p, r);
    }
    try (FakeLeaseApi api = new FakeLeaseApi()) {
      Coordinator a = replica(bootstrap, api, "a");
      Coordinator b = replica(bootstrap, api, "b");
      try {
        await().atMost(Duration.ofSeconds(90)).until(() -> a.servingState().servers().size() == 40
            && b.servingState().servers().size() == 40 && a.targetsOwned() > 0 && b.targetsOwned() > 0
            && a.targetsOwned() + b.targetsOwned() == 40);
        assertThat(a.isLeader() ^ b.isLeader()).as("exactly one leader").isTrue();
        assertThat(a.servingState().landmarkEpoch()).isEqualTo(b.servingState().landmarkEpoch());

        Coordinator leader = a.isLeader() ? a : b;
        Coordinator follower = leader == a ? b : a;
        leader.close();
        await().atMost(Duration.ofSeconds(60)).until(() -> follower.isLeader() && follower.targetsOwned() == 40);
        assertThat(follower.servingState().servers()).hasSize(40);
      } finally {
        a.close();
        b.close();
      }
    }
  }
}
