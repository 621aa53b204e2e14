package dev.reed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.testbed.kafka.KafkaExtension;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A broker that goes away: queries keep being served from memory, and the pipeline resumes when it is back. */
@Tag("integration")
class BrokerOutageTest {
  @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();

  @Test
  void servesThroughABrokerOutageAndResumesAfterIt() throws Exception {
    String bootstrap = KAFKA.broker().bootstrapServers();
    SyntheticWorld world = new SyntheticWorld(12);
    // one producer through the outage, as an agent keeps its own: a producer created after a restart of
    // the single-node broker can be handed an idempotent producer id the broker still holds sequences
    // for, and its records then wait out the delivery timeout (2 min) on that partition
    try (KafkaProducer<byte[], byte[]> p = SyntheticWorld.producer(bootstrap)) {
      world.announce(p, 1);
      p.flush();
      for (int r = 1; r <= 2; r++) world.round(p, r);
      try (Coordinator c = Coordinator.start(CoordinatorPipelineTest.config(bootstrap))) {
        await().atMost(Duration.ofSeconds(60)).until(() -> c.servingState().servers().size() == 12);
        ManagedChannel ch = NettyChannelBuilder.forAddress(c.grpcAddress()).usePlaintext().build();
        try {
          KAFKA.broker().stop();
          long rounds = c.roundsCompleted();
          Thread.sleep(3000);
          int served = ReedServiceGrpc.newBlockingStub(ch).withDeadlineAfter(5, TimeUnit.SECONDS)
              .getOrderedServers(GetOrderedServersRequest.newBuilder().setClient(dev.reed.proto.v1.Coordinate.newBuilder()
                  .addComponents(100).addComponents(100)).build()).getServersCount();
          assertThat(served).as("served from memory while Kafka is down").isEqualTo(12);
          KAFKA.broker().start();
          new SyntheticWorld(16).round(p, 3); // same landmarks, 4 more targets (and fresh samples)
          await().atMost(Duration.ofSeconds(180)).until(() -> c.servingState().servers().size() == 16);
          assertThat(c.roundsCompleted()).isGreaterThan(rounds);
        } finally {
          ch.shutdownNow();
        }
      }
    }
  }
}
