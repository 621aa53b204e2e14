package dev.reed.testbed.delay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class RealtimePriorityTest {

  @Test
  void promotesOnlyTheNamedThreadsToSchedFifo() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/chrt")), "chrt (util-linux) is not installed");
    assumeTrue("root".equals(System.getProperty("user.name")), "SCHED_FIFO needs root (CAP_SYS_NICE)");
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch running = new CountDownLatch(1);
    Thread named = new Thread(() -> {
      running.countDown(); // the native name is set before run() starts
      try {
        stop.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "rtprio-test-thread");
    named.start();
    running.await();
    try {
      assertThat(RealtimePriority.promote(List.of("rtprio-test-th"), 1)).isEqualTo(1);
      assertThat(RealtimePriority.promote(List.of("no-such-thread-name"), 1)).isZero();
    } finally {
      stop.countDown();
      named.join(2000);
    }
  }
}
