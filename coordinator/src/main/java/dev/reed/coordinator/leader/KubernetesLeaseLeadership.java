package dev.reed.coordinator.leader;

import io.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.kubernetes.client.extended.leaderelection.LeaderElector;
import io.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership from a Kubernetes Lease: {@code LeaderElector} acquires the Lease, renews it every
 * retry period, and gives up when it cannot renew within the renew deadline; another replica
 * acquires it once the lease duration has passed without a renewal. {@code run} returns when
 * leadership is lost, so the elector thread loops and campaigns again.
 */
final class KubernetesLeaseLeadership implements LeaderElection {
  private static final Logger log = LoggerFactory.getLogger(KubernetesLeaseLeadership.class);

  private final String description;
  private final LeaderElectionConfig config;
  private final Thread thread;
  private volatile boolean leader;
  private volatile boolean closed;
  private volatile LeaderElector elector;

  KubernetesLeaseLeadership(ApiClient client, String namespace, String name, String identity, Duration leaseDuration,
      Duration renewDeadline, Duration retryPeriod) {
    this.description = "kubernetes lease " + namespace + "/" + name + " as " + identity;
    this.config = new LeaderElectionConfig(new LeaseLock(namespace, name, identity, client), leaseDuration, renewDeadline,
        retryPeriod);
    this.thread = Thread.ofPlatform().name("leader-election").daemon().start(this::campaign);
  }

  private void campaign() {
    while (!closed) {
      LeaderElector e = new LeaderElector(config, t -> log.warn("leader election: {}", t.toString()));
      elector = e;
      try {
        e.run(() -> {
          leader = true;
          log.info("became leader ({})", description);
        }, () -> {
          if (leader) log.info("lost leadership ({})", description);
          leader = false;
        });
      } catch (RuntimeException ex) {
        log.warn("leader election failed, retrying: {}", ex.toString());
      } finally {
        leader = false;
        e.close();
      }
      if (!closed) {
        try {
          Thread.sleep(config.getRetryPeriod().toMillis());
        } catch (InterruptedException ex) {
          return;
        }
      }
    }
  }

  @Override
  public boolean isLeader() {
    return leader;
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void close() {
    closed = true;
    leader = false;
    LeaderElector e = elector;
    if (e != null) e.close();
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }
}
