package dev.reed.coordinator.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The Lease path of leader election against an HTTP fake of the Lease API, including hand-over. */
class KubernetesLeaseLeadershipTest {
  static LeaderElection elector(FakeLeaseApi api, String id) {
    ApiClient client = new ClientBuilder().setBasePath(api.baseUrl(id)).build();
    return LeaderElection.kubernetesLease(client, "reed", "reed-coordinator-leader", id, Duration.ofSeconds(2),
        Duration.ofMillis(1500), Duration.ofMillis(200));
  }

  @Test
  void exactlyOneLeaderAndHandOverWhenTheLeaderStopsRenewing() throws Exception {
    try (FakeLeaseApi api = new FakeLeaseApi();
        LeaderElection a = elector(api, "a");
        LeaderElection b = elector(api, "b")) {
      await().atMost(Duration.ofSeconds(10)).until(() -> a.isLeader() || b.isLeader());
      LeaderElection leader = a.isLeader() ? a : b;
      LeaderElection follower = leader == a ? b : a;
      String leaderId = leader == a ? "a" : "b";
      assertThat(follower.isLeader()).isFalse();
      assertThat(api.holder()).isEqualTo(leaderId);
      int writes = api.writes.get();
      await().atMost(Duration.ofSeconds(5)).until(() -> api.writes.get() > writes + 2); // renewing
      assertThat(follower.isLeader()).isFalse();

      api.cutOff.add(leaderId); // the leader can no longer renew
      await().atMost(Duration.ofSeconds(15)).until(() -> follower.isLeader());
      await().atMost(Duration.ofSeconds(10)).until(() -> !leader.isLeader());
      assertThat(api.holder()).isEqualTo(leaderId.equals("a") ? "b" : "a");

      api.cutOff.clear(); // the old leader comes back and stays a follower while the new one renews
      int heard = api.answered(leaderId);
      await().atMost(Duration.ofSeconds(20)).until(() -> api.answered(leaderId) >= heard + 5); // its tries to take the lease
      assertThat(leader.isLeader()).isFalse();
      assertThat(follower.isLeader()).isTrue();
    }
  }

  @Test
  void standaloneIsAlwaysLeader() {
    try (LeaderElection s = LeaderElection.standalone()) {
      assertThat(s.isLeader()).isTrue();
    }
  }
}
