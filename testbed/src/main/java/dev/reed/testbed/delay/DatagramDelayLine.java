package dev.reed.testbed.delay;

import dev.reed.probe.NanoTicker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.net.SocketAddress;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends datagrams at a given future instant from one thread: a priority queue ordered by due
 * time and a sender that parks until the earliest one is due. Kernel network emulation (netem)
 * is unavailable here, so the testbed emulates wide-area delay in user space (docs/design.md section
 * 5); one delay line serves thousands of emulated hosts, so the thread count stays constant
 * however many servers a world holds.
 *
 * <p>Nothing here blocks a caller: {@link #schedule} copies the payload and returns; a full
 * queue drops the datagram and counts it (as a congested path would). The channels must be
 * non-blocking; a send that finds the socket buffer full is counted, not retried.
 */
public final class DatagramDelayLine implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DatagramDelayLine.class);
  private static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /**
   * @param scheduled datagrams accepted
   * @param sent datagrams handed to the kernel
   * @param droppedFull datagrams refused because the queue was at capacity
   * @param sendFailed sends that failed (closed channel, full socket buffer, I/O error)
   * @param lateOver1ms sends that left more than 1 ms after their due time
   * @param maxLatenessMicros worst lateness seen
   * @param queued datagrams waiting now
   */
  public record Counters(long scheduled, long sent, long droppedFull, long sendFailed, long lateOver1ms,
      long maxLatenessMicros, int queued) {}

  private record Pending(long due, long seq, DatagramChannel channel, ByteBuffer payload, SocketAddress to)
      implements Comparable<Pending> {
    @Override
    public int compareTo(Pending o) {
      int c = Long.compare(due, o.due);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  private final NanoTicker ticker;
  private final int capacity;
  private final PriorityQueue<Pending> queue = new PriorityQueue<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Thread sender;
  private long seq;
  private long scheduled;
  private long droppedFull;
  private volatile boolean running = true;
  // written by the sender thread only
  private volatile long sent;
  private volatile long sendFailed;
  private volatile long late;
  private volatile long maxLateness;

  /**
   * @param name thread name
   * @param capacity most datagrams waiting at once
   * @param ticker monotonic clock the due times refer to
   */
  public DatagramDelayLine(String name, int capacity, NanoTicker ticker) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
    this.ticker = ticker;
    this.sender = new Thread(this::run, name);
    sender.setDaemon(true);
    // only effective with -XX:ThreadPriorityPolicy=1 as root (nice -5); the thread is idle but for
    // short wake-ups, so this costs others nothing and keeps it on time on a loaded machine
    sender.setPriority(Thread.MAX_PRIORITY);
    sender.start();
  }

  public NanoTicker ticker() {
    return ticker;
  }

  /**
   * Queues {@code payload} (its remaining bytes are copied) to go out on {@code channel} to
   * {@code to} at {@code dueNanos} on this line's ticker.
   *
   * @return false when the queue is full or the line is closed (the datagram is dropped and counted)
   */
  public boolean schedule(DatagramChannel channel, ByteBuffer payload, SocketAddress to, long dueNanos) {
    ByteBuffer copy = ByteBuffer.allocate(payload.remaining());
    copy.put(payload).flip();
    lock.lock();
    try {
      if (!running || queue.size() >= capacity) {
        droppedFull++;
        return false;
      }
      Pending p = new Pending(dueNanos, seq++, channel, copy, to);
      queue.add(p);
      scheduled++;
      if (queue.peek() == p) {
        changed.signal();
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  public Counters counters() {
    lock.lock();
    try {
      return new Counters(scheduled, sent, droppedFull, sendFailed, late, maxLateness / 1000, queue.size());
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    while (true) {
      Pending next;
      lock.lock();
      try {
        while (true) {
          if (!running) {
            return;
          }
          Pending head = queue.peek();
          if (head == null) {
            changed.awaitUninterruptibly();
            continue;
          }
          long wait = head.due - ticker.read();
          if (wait > 0) {
            changed.awaitNanos(wait);
            continue;
          }
          next = queue.poll();
          break;
        }
      } catch (InterruptedException e) {
        return;
      } finally {
        lock.unlock();
      }
      send(next);
    }
  }

  private void send(Pending p) {
    long lateness = ticker.read() - p.due;
    try {
      if (p.channel.send(p.payload, p.to) == 0) {
        sendFailed++;
      } else {
        sent++;
      }
    } catch (IOException e) {
      sendFailed++;
      log.debug("delayed send to {} failed: {}", p.to, e.toString());
    }
    if (lateness > LATE_NANOS) {
      late++;
    }
    if (lateness > maxLateness) {
      maxLateness = lateness;
    }
  }

  /** Stops the sender; datagrams still queued are discarded. */
  @Override
  public void close() {
    lock.lock();
    try {
      running = false;
      queue.clear();
      changed.signal();
    } finally {
      lock.unlock();
    }
    try {
      sender.join(TimeUnit.SECONDS.toMillis(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
