package dev.reed.probe;

import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.probe.packet.UnsupportedPacketException;
import dev.reed.proto.v1.ChallengeCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UDP probe engine: measures game-server RTTs the way a server browser does (REED, Armitage
 * &amp; Heyde, ACM TOMCCAP 2011: one request/reply per probe, 999 ms = no answer) but paced and
 * polite enough to run from a landmark every few minutes against every server.
 *
 * <p>One non-blocking {@link DatagramChannel}. A sender thread takes probes in submission order,
 * paced by a global token bucket ({@link Builder#rate}) and a minimum spacing per target
 * ({@link Builder#perTargetSpacing}: ioquake3 answers one query per second per source IP after a
 * burst), with at most one probe in flight per target. A receiver thread waits on a selector,
 * stamps each datagram with the ticker right after {@code receive}, without waiting for any lock,
 * and matches it to the probe in flight to its source address; Quake3 replies must also echo the
 * probe's random challenge. An A2S challenge reply is answered at once from the receiver thread, inside the same probe.
 * Completions run on a third thread so callers' callbacks never delay the receive timestamps.
 * Outstanding probes are bounded ({@link Builder#maxOutstanding}): {@link #probe} blocks when full.
 */
public final class ProbeEngine implements Prober {
  private static final Logger LOG = LoggerFactory.getLogger(ProbeEngine.class);
  private static final int SEND_RETRIES = 100;

  private final DatagramChannel channel;
  private final Selector selector;
  private final InetSocketAddress localAddress;
  private final NanoTicker ticker;
  private final Clock clock;
  private final RandomGenerator rng;
  private final long timeoutNanos;
  private final long spacingNanos;
  private final int maxOutstanding;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition work = lock.newCondition();
  private final Semaphore capacity;
  private final Map<InetSocketAddress, Lane> lanes = new HashMap<>();
  private final ArrayDeque<Lane> ready = new ArrayDeque<>();
  private final ArrayDeque<Lane> immediate = new ArrayDeque<>();
  private final PriorityQueue<Lane> spacing = new PriorityQueue<>(Comparator.comparingLong(l -> l.nextAllowedNanos));
  private final PriorityQueue<Deadline> deadlines = new PriorityQueue<>(Comparator.comparingLong(Deadline::nanos));
  private final TokenBucket bucket;
  private List<Completion> completions = new ArrayList<>();
  private boolean senderIdle;

  private final LongAdder sent = new LongAdder();
  private final LongAdder replies = new LongAdder();
  private final LongAdder timeouts = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder unexpected = new LongAdder();
  private final LongAdder malformed = new LongAdder();
  private final AtomicLong outstanding = new AtomicLong();

  private final Thread sender;
  private final Thread receiver;
  private final ExecutorService completer;
  private volatile boolean closed;

  /** Probes to one address, one in flight at a time. Guarded by {@link #lock}. */
  private static final class Lane {
    final InetSocketAddress address;
    final ArrayDeque<Probe> waiting = new ArrayDeque<>();
    Probe inFlight;
    long nextAllowedNanos;
    boolean queued;

    Lane(InetSocketAddress address, long now) {
      this.address = address;
      this.nextAllowedNanos = now;
    }

    boolean idle(long now) {
      return inFlight == null && waiting.isEmpty() && !queued && now - nextAllowedNanos >= 0;
    }
  }

  /** One probe. Mutable fields guarded by {@link #lock}, except sendNanos (written before send). */
  private static final class Probe {
    final ProbeTarget target;
    final boolean paced;
    final boolean forgeChallenge;
    final CompletableFuture<ProbeResult> future = new CompletableFuture<>();
    QueryExchange exchange;
    volatile long sendNanos;
    Instant sendTime;
    long challengeRttNanos;
    int exchanges;
    /** Well-formed replies from the target that echoed a challenge this probe never sent. */
    int staleChallenges;
    String malformedDetail;
    boolean done;

    Probe(ProbeTarget target, boolean paced, boolean forgeChallenge) {
      this.target = target;
      this.paced = paced;
      this.forgeChallenge = forgeChallenge;
    }

    ReplyForensics forensics(long digest) {
      return staleChallenges == 0 && digest == 0 && (exchange == null
          || exchange.challengeCheck() == ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED)
          ? ReplyForensics.NONE
          : new ReplyForensics(staleChallenges, exchange == null
              ? ChallengeCheck.CHALLENGE_CHECK_UNSPECIFIED : exchange.challengeCheck(), digest);
    }
  }

  private record Deadline(Probe probe, int exchange, long nanos) {}

  private ProbeEngine(Builder b) throws IOException {
    this.ticker = b.ticker;
    this.clock = b.clock;
    this.rng = b.random != null ? b.random : new SplittableRandom(new SecureRandom().nextLong());
    this.timeoutNanos = b.timeout.toNanos();
    this.spacingNanos = b.perTargetSpacing.toNanos();
    this.maxOutstanding = b.maxOutstanding;
    this.capacity = new Semaphore(b.maxOutstanding);
    this.bucket = new TokenBucket(b.rate, Math.max(1, b.rate * 0.005), ticker.read());
    this.channel = DatagramChannel.open(b.bind.getAddress() instanceof Inet6Address
        ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
    try {
      channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
      channel.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
      channel.bind(b.bind);
      channel.configureBlocking(false);
      this.selector = Selector.open();
      channel.register(selector, SelectionKey.OP_READ);
      this.localAddress = (InetSocketAddress) channel.getLocalAddress();
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    // the role first: Linux keeps 15 characters of a thread's name, and a testbed that promotes the
    // timing threads (send, receive) to real-time priority finds them by that prefix
    int port = localAddress.getPort();
    ThreadPoolExecutor completions = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
        Thread.ofPlatform().daemon().name("reed-probe-complete-" + port).factory());
    // started here, not on the first completion: a thread inherits its creator's scheduling policy,
    // and created by the receiver (real-time priority in the demo) it ran the callers' callbacks
    // (publishing, compressing) at the receiver's priority, where SCHED_FIFO let it hold a core the
    // receiver needed (docs/research/scale.md, "Demo at 20,000 x 30")
    completions.prestartCoreThread();
    this.completer = completions;
    this.sender = Thread.ofPlatform().daemon().name("reed-probe-send-" + port).unstarted(this::sendLoop);
    this.receiver = Thread.ofPlatform().daemon().name("reed-probe-receive-" + port).unstarted(this::receiveLoop);
    receiver.start();
    sender.start();
    LOG.info("probe engine on {}: rate {}/s, timeout {} ms, per-target spacing {} ms, max outstanding {}",
        localAddress, b.rate, b.timeout.toMillis(), b.perTargetSpacing.toMillis(), b.maxOutstanding);
  }

  public static Builder builder() {
    return new Builder();
  }

  public InetSocketAddress localAddress() {
    return localAddress;
  }

  @Override
  public CompletableFuture<ProbeResult> probe(ProbeTarget target) {
    Objects.requireNonNull(target, "target");
    Probe p = new Probe(target, true, false);
    submit(List.of(p));
    return p.future;
  }

  @Override
  public CompletableFuture<ProbeResult> probeForgingChallenge(ProbeTarget target) {
    Objects.requireNonNull(target, "target");
    Probe p = new Probe(target, true, true);
    submit(List.of(p));
    return p.future;
  }

  @Override
  public CompletableFuture<List<ProbeResult>> probeBurst(ProbeTarget target, int count) {
    Objects.requireNonNull(target, "target");
    if (count < 1 || count > maxOutstanding) {
      throw new IllegalArgumentException("burst of " + count + " probes (allowed 1-" + maxOutstanding + ")");
    }
    List<Probe> probes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      probes.add(new Probe(target, false, false));
    }
    submit(probes);
    CompletableFuture<?>[] all = probes.stream().map(p -> p.future).toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(all).thenApply(v -> probes.stream().map(p -> p.future.join()).toList());
  }

  private void submit(List<Probe> probes) {
    if (closed) {
      probes.forEach(p -> p.future.complete(ProbeResult.error(p.target, 0, clock.instant(), "engine closed")));
      return;
    }
    try {
      capacity.acquire(probes.size());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      probes.forEach(p -> p.future.complete(ProbeResult.error(p.target, 0, clock.instant(),
          "interrupted while waiting for a free probe slot")));
      return;
    }
    outstanding.addAndGet(probes.size());
    boolean closedMeanwhile;
    lock.lock();
    try {
      closedMeanwhile = closed;
      if (closed) {
        for (Probe p : probes) {
          finishLocked(p, ProbeResult.error(p.target, 0, clock.instant(), "engine closed"), errors);
        }
      } else {
        long now = ticker.read();
        Lane lane = lanes.computeIfAbsent(probes.getFirst().target.address(), a -> new Lane(a, now));
        lane.waiting.addAll(probes);
        scheduleLocked(lane, now);
      }
    } finally {
      lock.unlock();
    }
    if (closedMeanwhile) {
      flushCompletions();
    }
  }

  /** Puts an idle lane with waiting probes into the right queue. */
  private void scheduleLocked(Lane lane, long now) {
    if (lane.inFlight != null || lane.queued || lane.waiting.isEmpty()) {
      return;
    }
    lane.queued = true;
    boolean urgent = false;
    if (!lane.waiting.peek().paced) {
      immediate.add(lane);
      urgent = true;
    } else if (now - lane.nextAllowedNanos >= 0) {
      ready.add(lane);
    } else {
      spacing.add(lane);
    }
    // A sender waiting for its next token wakes by itself; waking it per probe costs a context
    // switch each at 20,000 probes/s. Only an idle sender, or an unpaced burst, needs a signal.
    if (urgent || senderIdle) {
      work.signal();
    }
  }

  // ------------------------------------------------------------------ sender

  private void sendLoop() {
    while (!closed) {
      Probe p;
      byte[] request;
      lock.lock();
      try {
        long now = ticker.read();
        while (!spacing.isEmpty() && now - spacing.peek().nextAllowedNanos >= 0) {
          ready.add(spacing.poll());
        }
        Lane lane = immediate.poll();
        if (lane == null && !ready.isEmpty()) {
          long wait = bucket.tryTake(now);
          if (wait == 0) {
            lane = ready.poll();
          } else {
            awaitWork(wait);
            continue;
          }
        }
        if (lane == null) {
          senderIdle = true;
          awaitWork(spacing.isEmpty() ? TimeUnit.MILLISECONDS.toNanos(100) : spacing.peek().nextAllowedNanos - now);
          senderIdle = false;
          continue;
        }
        lane.queued = false;
        p = lane.waiting.poll();
        lane.inFlight = p;
        p.exchange = QueryExchange.forTarget(p.target, rng, p.forgeChallenge);
        request = p.exchange.firstRequest();
        registerSendLocked(p, lane);
      } finally {
        lock.unlock();
      }
      sendUnlocked(p, request);
    }
  }

  private void awaitWork(long nanos) {
    try {
      work.awaitNanos(Math.max(1, nanos));
    } catch (InterruptedException e) {
      // only close() stops the sender, by flag and signal; a stray interrupt is not a stop
      Thread.interrupted();
    }
  }

  /** Books the next exchange of a probe: deadline, spacing, counters. Caller holds the lock. */
  private void registerSendLocked(Probe p, Lane lane) {
    long now = ticker.read();
    int exchange = ++p.exchanges;
    p.sendNanos = now; // refined right before the send
    lane.nextAllowedNanos = now + spacingNanos;
    deadlines.add(new Deadline(p, exchange, now + timeoutNanos));
    if (exchange == 1) {
      p.sendTime = clock.instant();
      sent.increment();
    }
  }

  /** Sends a registered request; the ticker is read right before the send system call. */
  private void sendUnlocked(Probe p, byte[] request) {
    ByteBuffer buf = ByteBuffer.wrap(request);
    String failure = null;
    try {
      for (int attempt = 0; ; attempt++) {
        p.sendNanos = ticker.read();
        if (channel.send(buf, p.target.address()) > 0) {
          break;
        }
        if (attempt == SEND_RETRIES) {
          failure = "send buffer full";
          break;
        }
        LockSupport.parkNanos(20_000);
      }
    } catch (IOException | UnresolvedAddressException | UnsupportedAddressTypeException | SecurityException e) {
      failure = closed ? "engine closed" : "send failed: " + e;
    }
    if (failure != null) {
      lock.lock();
      try {
        if (!p.done) {
          finishLocked(p, ProbeResult.error(p.target, p.challengeRttNanos, p.sendTime, failure), errors);
        }
      } finally {
        lock.unlock();
      }
      flushCompletions();
    }
  }

  // ------------------------------------------------------------------ receiver

  /** A datagram as received: a copy of its bytes and the ticker right after the receive call. */
  private record Received(InetSocketAddress from, ByteBuffer packet, long nanos) {}

  /** An A2S challenge answered from the receiver, sent once the lock is released. */
  private record Resend(Probe probe, byte[] request) {}

  /**
   * Stamps every datagram as it is read and never waits for the lock to do so: the lock is also
   * taken by callers' threads ({@link #probe}), and one of them preempted while holding it (a
   * loaded host, a normal-priority thread) would otherwise hold the receiver too, and every reply
   * arriving meanwhile would be stamped late. With the lock busy the receiver keeps reading and
   * stamping, and matches what it stamped once the lock is free; nothing expires while stamped
   * replies wait, so a reply read in time never becomes a timeout (ProbeEngineTest stalls a
   * caller inside the lock for 1.2 s: the reply that arrives meanwhile keeps its RTT).
   */
  private void receiveLoop() {
    ByteBuffer buf = ByteBuffer.allocateDirect(65536);
    ArrayDeque<Received> stamped = new ArrayDeque<>();
    long nextHousekeeping = ticker.read();
    while (!closed) {
      try {
        selector.select(stamped.isEmpty() ? selectTimeoutMillis() : 1);
        selector.selectedKeys().clear();
        while (true) {
          buf.clear();
          SocketAddress from = channel.receive(buf);
          long nanos = ticker.read();
          if (from == null) {
            break;
          }
          buf.flip();
          stamped.add(new Received((InetSocketAddress) from, ByteBuffer.allocate(buf.remaining()).put(buf).flip(), nanos));
        }
      } catch (IOException | RuntimeException e) {
        if (closed) {
          break;
        }
        LOG.warn("probe receive failed, continuing: {}", e.toString());
        LockSupport.parkNanos(1_000_000);
      }
      if (!lock.tryLock()) {
        continue;
      }
      List<Resend> resends = new ArrayList<>();
      List<Completion> batch;
      long now = ticker.read();
      try {
        Received r;
        while ((r = stamped.poll()) != null) {
          try {
            onDatagramLocked(r, resends);
          } catch (RuntimeException e) {
            LOG.warn("reply from {} not handled, continuing: {}", r.from(), e.toString());
          }
        }
        expireLocked(now);
        if (now - nextHousekeeping >= 0) {
          lanes.values().removeIf(l -> l.idle(now));
          nextHousekeeping = now + 1_000_000_000L;
        }
        batch = takeCompletionsLocked();
      } finally {
        lock.unlock();
      }
      for (Resend r : resends) {
        sendUnlocked(r.probe(), r.request());
      }
      dispatch(batch);
    }
  }

  /** How long the receiver may wait for a datagram: until the next deadline; 1 ms if the lock is busy. */
  private long selectTimeoutMillis() {
    if (!lock.tryLock()) {
      return 1;
    }
    try {
      Deadline d = deadlines.peek();
      if (d == null) {
        return 100;
      }
      long ms = (d.nanos() - ticker.read()) / 1_000_000 + 1;
      return Math.max(1, Math.min(100, ms));
    } finally {
      lock.unlock();
    }
  }

  private void onDatagramLocked(Received received, List<Resend> resends) {
    Lane lane = lanes.get(received.from());
    Probe p = lane == null ? null : lane.inFlight;
    if (p == null || p.done || p.exchanges == 0) {
      unexpected.increment();
      return;
    }
    long rtt = received.nanos() - p.sendNanos;
    QueryExchange.Step step;
    try {
      step = p.exchange.onReply(received.packet());
    } catch (UnsupportedPacketException e) {
      finishLocked(p, ProbeResult.error(p.target, p.challengeRttNanos, p.sendTime, e.getMessage()), errors);
      return;
    } catch (MalformedPacketException e) {
      malformed.increment();
      p.malformedDetail = e.getMessage();
      return;
    }
    switch (step) {
      case QueryExchange.Done d ->
          finishLocked(p, ProbeResult.ok(p.target, rtt, p.challengeRttNanos, p.sendTime, d.info(), p.forensics(d.digest())),
              replies);
      case QueryExchange.Resend r -> {
        p.challengeRttNanos = rtt;
        registerSendLocked(p, lane);
        resends.add(new Resend(p, r.request()));
      }
      case QueryExchange.Foreign f -> {
        unexpected.increment();
        p.staleChallenges++;
      }
      case QueryExchange.Pending pending -> { }
    }
  }

  private void expireLocked(long now) {
    while (!deadlines.isEmpty() && now - deadlines.peek().nanos() >= 0) {
      Deadline d = deadlines.poll();
      Probe p = d.probe();
      if (p.done || d.exchange() != p.exchanges) {
        continue;
      }
      if (p.malformedDetail != null) {
        finishLocked(p, ProbeResult.error(p.target, p.challengeRttNanos, p.sendTime,
            "no valid reply, malformed: " + p.malformedDetail), errors);
      } else {
        finishLocked(p, ProbeResult.timeout(p.target, p.challengeRttNanos, p.sendTime, p.forensics(0)), timeouts);
      }
    }
  }

  /** Completes a probe (once), frees its lane and slot; the future completes on the completer. */
  private void finishLocked(Probe p, ProbeResult result, LongAdder counter) {
    if (p.done) {
      return;
    }
    p.done = true;
    counter.increment();
    Lane lane = lanes.get(p.target.address());
    if (lane != null && lane.inFlight == p) {
      lane.inFlight = null;
      scheduleLocked(lane, ticker.read());
    }
    outstanding.decrementAndGet();
    capacity.release();
    completions.add(new Completion(p.future, result));
  }

  private record Completion(CompletableFuture<ProbeResult> future, ProbeResult result) {}

  /**
   * Hands the completions gathered under the lock to the completer thread in one batch (one
   * wake-up per receive burst, not per probe), or completes them here once the engine is closed.
   */
  private void flushCompletions() {
    List<Completion> batch;
    lock.lock();
    try {
      batch = takeCompletionsLocked();
    } finally {
      lock.unlock();
    }
    dispatch(batch);
  }

  private List<Completion> takeCompletionsLocked() {
    if (completions.isEmpty()) {
      return List.of();
    }
    List<Completion> batch = completions;
    completions = new ArrayList<>();
    return batch;
  }

  private void dispatch(List<Completion> batch) {
    if (batch.isEmpty()) {
      return;
    }
    if (closed || completer.isShutdown()) {
      batch.forEach(c -> c.future().complete(c.result()));
    } else {
      completer.execute(() -> batch.forEach(c -> c.future().complete(c.result())));
    }
  }

  @Override
  public ProbeCounters counters() {
    return new ProbeCounters(sent.sum(), replies.sum(), timeouts.sum(), errors.sum(), unexpected.sum(),
        malformed.sum(), outstanding.get());
  }

  /** Stops both threads, completes every pending probe with ERROR "engine closed", closes the socket. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      work.signalAll();
    } finally {
      lock.unlock();
    }
    selector.wakeup();
    join(sender);
    join(receiver);
    lock.lock();
    try {
      for (Lane lane : lanes.values()) {
        if (lane.inFlight != null) {
          Probe p = lane.inFlight;
          finishLocked(p, ProbeResult.error(p.target, p.challengeRttNanos, sendTimeOrNow(p), "engine closed"), errors);
        }
        Probe p;
        while ((p = lane.waiting.poll()) != null) {
          finishLocked(p, ProbeResult.error(p.target, 0, clock.instant(), "engine closed"), errors);
        }
      }
      lanes.clear();
      ready.clear();
      immediate.clear();
      spacing.clear();
      deadlines.clear();
    } finally {
      lock.unlock();
    }
    completer.shutdown();
    flushCompletions();
    try {
      completer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      selector.close();
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("closing probe socket", e);
    }
    ProbeCounters c = counters();
    LOG.info("probe engine on {} closed: sent {}, replies {}, timeouts {}, errors {}, unexpected {}, malformed {}",
        localAddress, c.sent(), c.replies(), c.timeouts(), c.errors(), c.unexpected(), c.malformed());
  }

  private Instant sendTimeOrNow(Probe p) {
    return p.sendTime != null ? p.sendTime : clock.instant();
  }

  private static void join(Thread t) {
    try {
      t.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Engine configuration; every setting has a production default. */
  public static final class Builder {
    private InetSocketAddress bind = new InetSocketAddress("0.0.0.0", 0);
    private double rate = 140;
    private Duration timeout = Duration.ofSeconds(1);
    private int maxOutstanding = 10_000;
    private Duration perTargetSpacing = Duration.ofMillis(1100);
    private NanoTicker ticker = NanoTicker.SYSTEM;
    private Clock clock = Clock.systemUTC();
    private RandomGenerator random;

    private Builder() {}

    /** Local address to probe from (default 0.0.0.0:0; an IPv6 address opens an IPv6 socket). */
    public Builder bind(InetSocketAddress bind) {
      this.bind = Objects.requireNonNull(bind);
      return this;
    }

    /** Global budget in probes per second (default 140, a server browser's rate in the paper). */
    public Builder rate(double probesPerSecond) {
      if (!(probesPerSecond > 0) || probesPerSecond > 10_000_000) {
        throw new IllegalArgumentException("rate must be in (0, 1e7]: " + probesPerSecond);
      }
      this.rate = probesPerSecond;
      return this;
    }

    /** How long each exchange waits for its reply (default 1 s: the paper's 999 ms). */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive: " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** Probes accepted and not completed at once (default 10,000); {@code probe} blocks beyond. */
    public Builder maxOutstanding(int maxOutstanding) {
      if (maxOutstanding < 1) {
        throw new IllegalArgumentException("maxOutstanding must be >= 1: " + maxOutstanding);
      }
      this.maxOutstanding = maxOutstanding;
      return this;
    }

    /** Minimum time between probes to one target (default 1.1 s); bursts ignore it. */
    public Builder perTargetSpacing(Duration spacing) {
      if (spacing.isNegative()) {
        throw new IllegalArgumentException("spacing must not be negative: " + spacing);
      }
      this.perTargetSpacing = spacing;
      return this;
    }

    /** Monotonic time source for RTTs, pacing and timeouts (default {@code System.nanoTime}). */
    public Builder ticker(NanoTicker ticker) {
      this.ticker = Objects.requireNonNull(ticker);
      return this;
    }

    /** Wall clock for {@link ProbeResult#sendTime()} (default UTC system clock). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /** Source of Quake3 challenges (default seeded from {@link SecureRandom}). */
    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random);
      return this;
    }

    public ProbeEngine build() throws IOException {
      return new ProbeEngine(this);
    }
  }
}
