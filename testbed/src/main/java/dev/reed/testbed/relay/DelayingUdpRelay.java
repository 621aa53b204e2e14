package dev.reed.testbed.relay;

import dev.reed.testbed.delay.DatagramDelayLine;
import dev.reed.probe.NanoTicker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A UDP relay that puts a real server (such as OpenArena) at an emulated distance: it listens
 * on an address of the emulated world, forwards each client's datagrams to the upstream server
 * and the replies back, and delays each direction by {@link PathDelay#oneWay} for that client.
 * Kernel netem is unavailable here (docs/design.md section 5), so this is how a real game server gets
 * the wide-area RTTs the REED paper's probes saw (Armitage &amp; Heyde, TOMCCAP 2011).
 *
 * <p>Each client gets its own upstream socket, so replies map back to the right client. That
 * socket binds the client's own loopback address when it can (falling back to the listen
 * address): the upstream server then sees distinct source addresses, and ioquake3's per-IP reply
 * rate limit applies per client as it would on the Internet.
 *
 * <p>Two threads: one selector loop receives on every socket, one {@link DatagramDelayLine}
 * sends. State is bounded: at most {@code maxSessions} clients (least recently active evicted
 * first), sessions idle longer than {@code idleTimeout} are closed, and the delay queue has a
 * fixed capacity (overflow is dropped and counted, as a congested path would).
 */
public final class DelayingUdpRelay implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DelayingUdpRelay.class);
  private static final int MAX_DATAGRAM = 65_535;

  /**
   * @param maxSessions most clients tracked at once
   * @param idleTimeout a client's upstream socket closes after this long without traffic
   * @param queueCapacity most datagrams in flight inside the relay
   * @param preserveClientAddress bind each upstream socket to the client's own (loopback) address
   */
  public record Options(int maxSessions, Duration idleTimeout, int queueCapacity, boolean preserveClientAddress) {
    public Options {
      if (maxSessions <= 0 || queueCapacity <= 0) {
        throw new IllegalArgumentException("maxSessions and queueCapacity must be positive");
      }
      if (idleTimeout.isNegative() || idleTimeout.isZero()) {
        throw new IllegalArgumentException("idleTimeout must be positive");
      }
    }

    /** 4096 sessions, 60 s idle timeout, 65,536 queued datagrams, client address preserved. */
    public static Options defaults() {
      return new Options(4096, Duration.ofSeconds(60), 65_536, true);
    }
  }

  /**
   * @param fromClients datagrams received from clients
   * @param fromUpstream datagrams received from the upstream server
   * @param sent datagrams sent after their delay (both directions)
   * @param lost datagrams dropped because the {@link PathDelay} said so (null: emulated loss)
   * @param dropped datagrams dropped otherwise: queue full, send failed, or a failing {@link PathDelay}
   * @param upstreamErrors receive errors on upstream sockets (e.g. ICMP port unreachable)
   * @param sessionsOpened client sessions opened so far
   * @param sessionsEvicted sessions closed for idleness or to make room
   * @param activeSessions sessions open now
   */
  public record RelayCounters(long fromClients, long fromUpstream, long sent, long lost, long dropped, long upstreamErrors,
      long sessionsOpened, long sessionsEvicted, int activeSessions) {}

  private static final class Session {
    final InetSocketAddress client;
    final DatagramChannel channel;
    long lastActive;

    Session(InetSocketAddress client, DatagramChannel channel, long now) {
      this.client = client;
      this.channel = channel;
      this.lastActive = now;
    }
  }

  private final InetSocketAddress upstream;
  private final PathDelay delay;
  private final Options options;
  private final NanoTicker ticker;
  private final DatagramChannel listen;
  private final InetSocketAddress address;
  private final Selector selector;
  private final DatagramDelayLine line;
  private final Map<InetSocketAddress, Session> sessions = new LinkedHashMap<>(64, 0.75f, true);
  private final Thread loop;
  private volatile boolean running = true;
  // written by the loop thread only
  private volatile long fromClients;
  private volatile long fromUpstream;
  private volatile long otherDrops;
  private volatile long lost;
  private volatile long upstreamErrors;
  private volatile long sessionsOpened;
  private volatile long sessionsEvicted;
  private volatile int activeSessions;

  private DelayingUdpRelay(InetSocketAddress listenAt, InetSocketAddress upstream, PathDelay delay, Options options,
      NanoTicker ticker) throws IOException {
    this.upstream = upstream;
    this.delay = delay;
    this.options = options;
    this.ticker = ticker;
    this.selector = Selector.open();
    this.listen = DatagramChannel.open(StandardProtocolFamily.INET);
    try {
      listen.bind(listenAt);
      listen.configureBlocking(false);
      listen.register(selector, SelectionKey.OP_READ);
    } catch (IOException e) {
      listen.close();
      selector.close();
      throw new IOException("relay cannot bind " + listenAt + ": " + e.getMessage(), e);
    }
    this.address = (InetSocketAddress) listen.getLocalAddress();
    this.line = new DatagramDelayLine("relay-send-" + address, options.queueCapacity(), ticker);
    this.loop = new Thread(this::run, "relay-" + address);
    loop.setDaemon(true);
    loop.setPriority(Thread.MAX_PRIORITY);
    loop.start();
  }

  /** A relay with {@link Options#defaults()}. */
  public static DelayingUdpRelay start(InetSocketAddress listen, InetSocketAddress upstream, PathDelay delay)
      throws IOException {
    return start(listen, upstream, delay, Options.defaults());
  }

  /**
   * @param listen where clients send (port 0 picks a free one); must be IPv4
   * @param upstream the real server
   * @param delay one-way delay per client, applied to each direction
   */
  public static DelayingUdpRelay start(InetSocketAddress listen, InetSocketAddress upstream, PathDelay delay,
      Options options) throws IOException {
    Objects.requireNonNull(upstream, "upstream");
    Objects.requireNonNull(delay, "delay");
    if (upstream.isUnresolved()) {
      throw new IllegalArgumentException("upstream must be resolved: " + upstream);
    }
    DelayingUdpRelay relay = new DelayingUdpRelay(listen, upstream, delay, options, NanoTicker.SYSTEM);
    log.info("relay {} -> {} started", relay.address, upstream);
    return relay;
  }

  /** Where clients send their datagrams. */
  public InetSocketAddress address() {
    return address;
  }

  public InetSocketAddress upstream() {
    return upstream;
  }

  public RelayCounters counters() {
    DatagramDelayLine.Counters c = line.counters();
    return new RelayCounters(fromClients, fromUpstream, c.sent(), lost, c.droppedFull() + c.sendFailed() + otherDrops,
        upstreamErrors, sessionsOpened, sessionsEvicted, activeSessions);
  }

  private void run() {
    ByteBuffer buf = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    long lastSweep = ticker.read();
    try {
      while (running) {
        selector.select(1000);
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
          SelectionKey key = it.next();
          it.remove();
          if (!key.isValid()) {
            continue;
          }
          if (key.attachment() instanceof Session s) {
            fromUpstream(s, buf);
          } else {
            fromClients(buf);
          }
        }
        long now = ticker.read();
        if (now - lastSweep > TimeUnit.SECONDS.toNanos(1)) {
          sweepIdle(now);
          lastSweep = now;
        }
      }
    } catch (ClosedSelectorException closed) {
      // closing
    } catch (IOException | RuntimeException e) {
      if (running) {
        log.error("relay {} loop failed", address, e);
      }
    }
  }

  private void fromClients(ByteBuffer buf) throws IOException {
    while (true) {
      buf.clear();
      InetSocketAddress client = (InetSocketAddress) listen.receive(buf);
      if (client == null) {
        return;
      }
      buf.flip();
      fromClients++;
      long now = ticker.read();
      Session s = session(client, now);
      if (s == null) {
        otherDrops++;
        continue;
      }
      s.lastActive = now;
      long d = delayNanos(client);
      if (d >= 0) {
        line.schedule(s.channel, buf, upstream, now + d);
      }
    }
  }

  private void fromUpstream(Session s, ByteBuffer buf) {
    while (true) {
      buf.clear();
      try {
        if (s.channel.receive(buf) == null) {
          return;
        }
      } catch (IOException e) {
        upstreamErrors++;
        return;
      }
      buf.flip();
      fromUpstream++;
      long now = ticker.read();
      s.lastActive = now;
      long d = delayNanos(s.client);
      if (d >= 0) {
        line.schedule(listen, buf, s.client, now + d);
      }
    }
  }

  /** The one-way delay in nanoseconds, or -1 (counted) if the PathDelay failed or lost it. */
  private long delayNanos(InetSocketAddress client) {
    try {
      Duration d = delay.oneWay(client);
      if (d == null) {
        lost++;
        return -1;
      }
      return d.isNegative() ? 0 : d.toNanos();
    } catch (RuntimeException e) {
      otherDrops++;
      log.debug("PathDelay failed for {}: {}", client, e.toString());
      return -1;
    }
  }

  private Session session(InetSocketAddress client, long now) {
    Session s = sessions.get(client);
    if (s != null) {
      return s;
    }
    if (sessions.size() >= options.maxSessions()) {
      Iterator<Session> oldest = sessions.values().iterator();
      closeSession(oldest.next());
      oldest.remove();
    }
    try {
      DatagramChannel ch = openUpstreamChannel(client.getAddress());
      s = new Session(client, ch, now);
      ch.register(selector, SelectionKey.OP_READ, s);
      sessions.put(client, s);
      sessionsOpened++;
      activeSessions = sessions.size();
      log.debug("relay {}: new client {} via {}", address, client, ch.getLocalAddress());
      return s;
    } catch (IOException e) {
      log.warn("relay {}: cannot open an upstream socket for {}: {}", address, client, e.toString());
      return null;
    }
  }

  private DatagramChannel openUpstreamChannel(InetAddress clientIp) throws IOException {
    DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
    try {
      boolean bound = false;
      if (options.preserveClientAddress() && clientIp.isLoopbackAddress()) {
        try {
          ch.bind(new InetSocketAddress(clientIp, 0));
          bound = true;
        } catch (IOException notLocal) {
          // fall back to the listen address
        }
      }
      if (!bound) {
        ch.bind(new InetSocketAddress(address.getAddress(), 0));
      }
      ch.connect(upstream);
      ch.configureBlocking(false);
      return ch;
    } catch (IOException e) {
      ch.close();
      throw e;
    }
  }

  private void sweepIdle(long now) {
    long idle = options.idleTimeout().toNanos();
    Iterator<Session> it = sessions.values().iterator();
    while (it.hasNext()) {
      Session s = it.next();
      if (now - s.lastActive > idle) {
        closeSession(s);
        it.remove();
      }
    }
    activeSessions = sessions.size();
  }

  private void closeSession(Session s) {
    sessionsEvicted++;
    try {
      s.channel.close();
    } catch (IOException e) {
      log.debug("closing session socket: {}", e.toString());
    }
  }

  @Override
  public void close() {
    if (!running) {
      return;
    }
    running = false;
    selector.wakeup();
    try {
      loop.join(TimeUnit.SECONDS.toMillis(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    line.close();
    for (Session s : sessions.values()) {
      try {
        s.channel.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
    sessions.clear();
    try {
      listen.close();
      selector.close();
    } catch (IOException e) {
      log.debug("closing relay: {}", e.toString());
    }
    RelayCounters c = counters();
    log.info("relay {} -> {} stopped: {} from clients, {} from upstream, {} lost, {} dropped", address, upstream,
        c.fromClients(), c.fromUpstream(), c.lost(), c.dropped());
  }
}
