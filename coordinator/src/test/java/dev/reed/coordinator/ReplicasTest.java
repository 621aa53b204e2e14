package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.coordinator.leader.FakeLeaseApi;
import dev.reed.coordinator.leader.LeaderElection;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.GetOrderedServersResponse;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.testbed.kafka.KafkaExtension;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.kubernetes.client.util.ClientBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two replicas behind one Kafka: they share reed.samples through the consumer group, both serve the
 * full index, one leads through a Lease (HTTP fake of the Kubernetes API); when the leader goes,
 * the other takes over its partitions and the leadership. A serving replica ({@code --serve-only})
 * beside them serves the same index and takes no share of the samples.
 */
@Tag("integration")
class ReplicasTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  static Coordinator replica(String bootstrap, FakeLeaseApi api, String id) throws Exception {
    LeaderElection lease = LeaderElection.kubernetesLease(new ClientBuilder().setBasePath(api.baseUrl(id)).build(), "reed",
        "leader", id, Duration.ofSeconds(2), Duration.ofMillis(1500), Duration.ofMillis(200));
    return Coordinator.start(CoordinatorPipelineTest.config(bootstrap).toBuilder().identity(id).build(), lease);
  }

  /** 40 targets announced, and three rounds of their samples. */
  private static void publishThreeRounds(String bootstrap) {
    SyntheticWorld world = new SyntheticWorld(40);
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap)) {
      world.announce(p, 1);
      p.flush();
      for (int r = 1; r <= 3; r++) world.round(p, r);
    }
  }

  @Test
  void replicasSharePartitionsServeEverythingAndHandOverLeadership() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    publishThreeRounds(bootstrap);
    try (FakeLeaseApi api = new FakeLeaseApi()) {
      Coordinator a = replica(bootstrap, api, "a");
      Coordinator b = replica(bootstrap, api, "b");
      try {
        await().atMost(Duration.ofSeconds(90)).until(() -> a.servingState().servers().size() == 40
            && b.servingState().servers().size() == 40 && a.targetsOwned() > 0 && b.targetsOwned() > 0
            && a.targetsOwned() + b.targetsOwned() == 40);
        // two replicas' views read one after the other: on a loaded machine a renewal can be late and
        // the lease change hands between the two reads, so this holds once the lease stays put
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(a.isLeader() ^ b.isLeader()).as("exactly one leader").isTrue());
        // the leader can still publish a later embedding epoch, which the other replica reads a moment
        // after: the two agree once one epoch lasts
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
            assertThat(a.servingState().landmarkEpoch()).isEqualTo(b.servingState().landmarkEpoch()));

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

  private static GetOrderedServersResponse page(Coordinator c) {
    ManagedChannel ch = NettyChannelBuilder.forAddress(c.grpcAddress()).usePlaintext().build();
    try {
      return ReedServiceGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS).getOrderedServers(
          GetOrderedServersRequest.newBuilder().setClient(Coordinate.newBuilder().addComponents(150).addComponents(60))
              .setPageSize(15).setCompactLandmarkRtts(true).build());
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  void aServingReplicaServesTheSameIndexWithoutTakingSamplesOrLeading() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    publishThreeRounds(bootstrap);
    CoordinatorConfig base = CoordinatorPipelineTest.config(bootstrap).toBuilder().groupId("serving-test").build();
    try (Coordinator ingesting = Coordinator.start(base.toBuilder().identity("ingesting").build());
        Coordinator serving = Coordinator.start(base.toBuilder().identity("serving").serveOnly(true).metricsPort(0).build())) {
      await().atMost(Duration.ofSeconds(90)).until(() -> ingesting.targetsOwned() == 40
          && ingesting.servingState().servers().size() == 40 && serving.servingState().servers().size() == 40
          && serving.servingState().builtAt().isAfter(ingesting.servingState().builtAt().minusSeconds(1))
          && page(serving).equals(page(ingesting)));
      assertThat(serving.targetsOwned()).as("no share of reed.samples").isZero();
      assertThat(serving.isLeader()).isFalse();
      assertThat(serving.roundsCompleted()).isZero();
      assertThat(ingesting.targetsOwned()).as("the ingesting replica holds every partition").isEqualTo(40);
      assertThat(page(serving).getServersCount()).isEqualTo(15);

      HttpClient http = HttpClient.newHttpClient();
      String url = "http://127.0.0.1:" + serving.metricsAddress().getPort();
      HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(url + "/healthz")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      String metrics = http.send(HttpRequest.newBuilder(URI.create(url + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      assertThat(metrics).contains("reed_index_servers 40.0").doesNotContain("reed_ingest_samples", "reed_rounds", "reed_leader");
    }
  }
}
