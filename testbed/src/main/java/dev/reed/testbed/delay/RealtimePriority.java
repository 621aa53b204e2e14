package dev.reed.testbed.delay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Moves this JVM's threads with given name prefixes to SCHED_FIFO (via {@code chrt}), for runs
 * on a machine where other work keeps the CPUs saturated (the accuracy harness, a demo): kernel
 * netem, which
 * this testbed replaces, runs in softirq context ahead of every process, and this is the
 * user-space equivalent. The threads are idle but for short wake-ups, and Linux caps real-time
 * tasks at 95 % of a CPU ({@code sched_rt_runtime_us}), so neighbours keep running. Needs
 * CAP_SYS_NICE (root); otherwise nothing changes.
 *
 * <p>Promote the HotSpot {@code "VM Thread"} too: every safepoint (GC, deoptimisation, the
 * periodic cleanup) stops all Java threads until it has run, so a starved VM thread stalls the
 * promoted ones as well (seen here: 1 s stalls without it, 25 ms worst case with it).
 */
public final class RealtimePriority {
  /** The emulator's threads (delay lines, receive loops, relays) and HotSpot's VM thread. */
  public static final List<String> TESTBED_THREADS = List.of("emulated-server", "relay-", "VM Thread");

  private RealtimePriority() {}

  /**
   * @param namePrefixes thread name prefixes (Linux keeps the first 15 characters of a name)
   * @param priority SCHED_FIFO priority, 1-99
   * @return how many threads were promoted (0 without the capability)
   */
  public static int promote(List<String> namePrefixes, int priority) throws IOException, InterruptedException {
    int promoted = 0;
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : tasks.toList()) {
        String comm;
        try {
          comm = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
        } catch (IOException gone) {
          continue;
        }
        if (namePrefixes.stream().noneMatch(comm::startsWith)) {
          continue;
        }
        Process p = new ProcessBuilder("chrt", "-f", "-p", Integer.toString(priority), task.getFileName().toString())
            .redirectErrorStream(true).start();
        if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
          promoted++;
        } else {
          p.destroyForcibly();
        }
      }
    }
    return promoted;
  }
}
