package dev.reed.coordinator.leader;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several replicas on one machine without Kubernetes: the leader is the process holding an
 * exclusive lock on a file. The operating system releases the lock when its holder exits, however
 * it exits (SIGKILL included), so a follower trying every {@code retry} takes over within that
 * period; there is no lease to expire, unlike a Kubernetes Lease, because the kernel knows when
 * the holder is gone. Only for replicas sharing one file system with working locks (a local disk,
 * not NFS).
 */
final class FileLockLeadership implements LeaderElection {
  private static final Logger log = LoggerFactory.getLogger(FileLockLeadership.class);

  private final Path file;
  private final FileChannel channel;
  private final Thread thread;
  private volatile FileLock lock;
  private volatile boolean closed;

  FileLockLeadership(Path file, String identity, Duration retry) throws IOException {
    this.file = file;
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) Files.createDirectories(parent);
    this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    tryAcquire(identity);
    this.thread = Thread.ofPlatform().name("file-lease").daemon().start(() -> {
      while (!closed && lock == null) {
        try {
          Thread.sleep(retry);
        } catch (InterruptedException e) {
          return;
        }
        tryAcquire(identity);
      }
    });
  }

  private void tryAcquire(String identity) {
    try {
      FileLock l = channel.tryLock();
      if (l != null) {
        lock = l;
        log.info("leader: {} holds the lock on {}", identity, file);
      }
    } catch (java.nio.channels.OverlappingFileLockException e) {
      // another replica in this same JVM (tests) holds it: a follower, as across processes
    } catch (IOException e) {
      log.warn("cannot lock {}: {}", file, e.toString());
    }
  }

  @Override
  public boolean isLeader() {
    FileLock l = lock;
    return l != null && l.isValid();
  }

  @Override
  public String describe() {
    return "file lock " + file + (isLeader() ? " (leader)" : " (follower)");
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    try {
      channel.close(); // releases the lock
    } catch (IOException e) {
      log.warn("closing {}: {}", file, e.toString());
    }
  }
}
