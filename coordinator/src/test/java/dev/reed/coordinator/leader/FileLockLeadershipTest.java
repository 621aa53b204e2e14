package dev.reed.coordinator.leader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file-lock leader election of several replicas on one machine (the scale harness's): one
 * holder leads, the other follows, and the follower leads once the holder lets go. Across
 * processes the kernel lets go when the holder dies (the harness's SIGKILL runs show it); here the
 * holder closes.
 */
@Tag("integration")
class FileLockLeadershipTest {

  @Test
  void oneLeaderAndTheFollowerTakesOverWhenTheHolderLetsGo(@TempDir Path dir) throws Exception {
    Path lock = dir.resolve("sub/leader.lock");
    LeaderElection first = LeaderElection.fileLock(lock, "a", Duration.ofMillis(50));
    LeaderElection second = LeaderElection.fileLock(lock, "b", Duration.ofMillis(50));
    try {
      assertThat(first.isLeader()).isTrue();
      assertThat(second.isLeader()).isFalse();
      assertThat(second.describe()).contains("follower");
      first.close();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!second.isLeader() && System.nanoTime() < deadline) Thread.onSpinWait();
      assertThat(second.isLeader()).as("follower took the lock").isTrue();
      assertThat(first.isLeader()).isFalse();
    } finally {
      first.close();
      second.close();
    }
  }
}
