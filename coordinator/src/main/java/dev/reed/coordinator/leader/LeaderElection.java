package dev.reed.coordinator.leader;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import java.io.IOException;
import java.time.Duration;

/**
 * Who runs the once-per-deployment work: the landmark embedding and the catalog (docs/design.md
 * section 2). Standalone is always leader; in Kubernetes a Lease decides, so exactly one replica
 * leads and another takes over when it stops renewing.
 */
public interface LeaderElection extends AutoCloseable {
  /** True while this replica holds leadership. */
  boolean isLeader();

  /** Short description for logs. */
  String describe();

  @Override
  void close();

  /** The single-process choice: always leader. */
  static LeaderElection standalone() {
    return new StandaloneLeadership();
  }

  /**
   * An exclusive lock on {@code file}: several replicas on one machine without Kubernetes (the
   * scale harness); a follower retries every {@code retry} and leads once the holder has exited.
   */
  static LeaderElection fileLock(java.nio.file.Path file, String identity, Duration retry) throws IOException {
    return new FileLockLeadership(file, identity, retry);
  }

  /**
   * A Kubernetes Lease ({@code coordination.k8s.io/v1}) through client-java-extended's
   * {@code LeaderElector}.
   */
  static LeaderElection kubernetesLease(ApiClient client, String namespace, String name, String identity,
      Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
    return new KubernetesLeaseLeadership(client, namespace, name, identity, leaseDuration, renewDeadline, retryPeriod);
  }

  /** A Lease in the cluster this pod runs in (service account credentials), 15 s / 10 s / 2 s. */
  static LeaderElection inCluster(String namespace, String name, String identity) throws IOException {
    return kubernetesLease(ClientBuilder.cluster().build(), namespace, name, identity, Duration.ofSeconds(15),
        Duration.ofSeconds(10), Duration.ofSeconds(2));
  }

  /** True when running in a Kubernetes pod (the API server's address is in the environment). */
  static boolean inPod() {
    String host = System.getenv("KUBERNETES_SERVICE_HOST");
    return host != null && !host.isBlank();
  }
}
