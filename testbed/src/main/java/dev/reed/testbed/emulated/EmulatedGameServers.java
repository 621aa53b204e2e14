package dev.reed.testbed.emulated;

import dev.reed.probe.a2s.A2sCodec;
import dev.reed.probe.a2s.A2sPlayer;
import dev.reed.probe.a2s.A2sRequest;
import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Player;
import dev.reed.probe.quake3.Quake3Request;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.delay.DatagramDelayLine;
import dev.reed.probe.NanoTicker;
import dev.reed.testbed.world.World;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thousands of emulated game servers in one JVM, each bound to its own host address of a
 * {@link World}, answering A2S (with the December 2020 challenge) or Quake3 {@code getinfo} /
 * {@code getstatus} with the probe module's codecs, and delaying every reply by the world's RTT
 * between the prober's host and its own (plus jitter, or no reply when the world's noise loses
 * it). This is how the testbed reproduces the REED paper's setting, a master list of tens of
 * thousands of servers spread over the world (Armitage &amp; Heyde, TOMCCAP 2011, section 3), on
 * one 2-core machine without kernel network emulation (docs/design.md section 5).
 *
 * <p>Two threads whatever the number of servers: one selector loop receives on every server's
 * channel, decodes and schedules the reply; one {@link DatagramDelayLine} sends replies when due.
 * A2S challenges are a keyed hash of (server, client address), so the servers keep no per-client
 * state. The reply is due at receive time + RTT: the request itself crossed loopback instantly.
 * Probes from addresses outside the world are answered without delay and counted. Not emulated:
 * ioquake3's per-IP reply rate limit (put a real OpenArena server behind a
 * {@link dev.reed.testbed.relay.DelayingUdpRelay} for that).
 */
public final class EmulatedGameServers implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmulatedGameServers.class);
  private static final int MAX_DATAGRAM = 2048;
  private static final List<String> NAMES = List.of("Sarge", "Grunt", "Major", "Kyonshi", "Angelyss", "Arachna",
      "Gargoyle", "Merman", "Penguin", "Skelebot", "Smarine", "Sorceress", "Tony", "Ayumi", "Beret", "Liz");

  /**
   * @param port UDP port every server binds on its own address; 0 for an ephemeral port each
   *     (lets several worlds on the same addresses coexist, e.g. parallel test JVMs)
   * @param a2sShare share of servers that speak A2S; the rest speak Quake3
   * @param seed drives protocol assignment, server descriptions, challenges and jitter
   * @param queueCapacity most replies waiting for their delay at once
   */
  public record Options(int port, double a2sShare, long seed, int queueCapacity) {
    public Options {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port out of range: " + port);
      }
      if (!(a2sShare >= 0 && a2sShare <= 1)) {
        throw new IllegalArgumentException("a2sShare must be in [0,1]: " + a2sShare);
      }
      if (queueCapacity <= 0) {
        throw new IllegalArgumentException("queueCapacity must be positive");
      }
    }

    /** Ephemeral ports, half A2S and half Quake3, seed 1, 200,000 queued replies. */
    public static Options defaults() {
      return new Options(0, 0.5, 1, 200_000);
    }

    public Options withSeed(long s) {
      return new Options(port, a2sShare, s, queueCapacity);
    }

    public Options withA2sShare(double share) {
      return new Options(port, share, seed, queueCapacity);
    }

    public Options withPort(int p) {
      return new Options(p, a2sShare, seed, queueCapacity);
    }
  }

  /**
   * @param received datagrams received by all servers
   * @param replies replies scheduled (info, status, players, rules and challenges)
   * @param challenges A2S challenges issued (first contact, or a wrong/missing challenge)
   * @param badChallenges A2S queries that carried a wrong challenge
   * @param malformed datagrams that were not a query this server speaks (dropped)
   * @param unknownSource queries from an address outside the world (answered without delay)
   * @param lost replies the world's noise lost (or pairs the model cannot reach)
   * @param sent replies handed to the kernel
   * @param dropped replies dropped by a full queue or a failed send
   * @param lateOver1ms replies that left more than 1 ms after their due time
   * @param maxLatenessMicros worst lateness of a reply
   */
  public record Counters(long received, long replies, long challenges, long badChallenges, long malformed,
      long unknownSource, long lost, long sent, long dropped, long lateOver1ms, long maxLatenessMicros) {}

  /**
   * Told of every delayed reply as it is scheduled, on the receive thread (keep it cheap): what the
   * world intends the prober to measure. With the probers' own measurements it gives the
   * emulation's delay error (measured minus intended) without touching the wire.
   */
  @FunctionalInterface
  public interface ReplyTap {
    /** No one listens. */
    ReplyTap NONE = (proberHost, serverHost, intendedNanos) -> {};

    /**
     * @param proberHost the prober's host index in the world
     * @param serverHost the server's host index
     * @param intendedNanos the delay the reply gets after the query's receipt (the world's sampled RTT)
     */
    void scheduled(int proberHost, int serverHost, long intendedNanos);
  }

  private static final class Slot {
    final int index;
    final EmulatedServer server;
    final DatagramChannel channel;
    final byte[] a2sInfo;

    Slot(int index, EmulatedServer server, DatagramChannel channel) {
      this.index = index;
      this.server = server;
      this.channel = channel;
      this.a2sInfo = server.protocol() == GameProtocol.GAME_PROTOCOL_A2S
          ? A2sCodec.encodeInfo(server.info(), server.address().getPort()) : null;
    }
  }

  private final World world;
  private final Options options;
  private final NanoTicker ticker;
  private final List<Slot> slots;
  private final List<EmulatedServer> servers;
  private final Selector selector;
  private final DatagramDelayLine line;
  private final Thread loop;
  private final long challengeKey;
  private final ReplyTap tap;
  private volatile boolean running = true;
  // written by the loop thread only
  private volatile long received;
  private volatile long replies;
  private volatile long challenges;
  private volatile long badChallenges;
  private volatile long malformed;
  private volatile long unknownSource;
  private volatile long lost;

  private EmulatedGameServers(World world, int[] hosts, Options options, NanoTicker ticker, ReplyTap tap)
      throws IOException {
    this.world = world;
    this.tap = tap;
    this.options = options;
    this.ticker = ticker;
    this.challengeKey = new SplittableRandom(options.seed() ^ 0x5DEECE66DL).nextLong();
    this.selector = Selector.open();
    ServerInfoGenerator generator = new ServerInfoGenerator(options.seed());
    SplittableRandom protocols = new SplittableRandom(options.seed());
    List<Slot> bound = new ArrayList<>(hosts.length);
    try {
      for (int i = 0; i < hosts.length; i++) {
        int host = hosts[i];
        GameProtocol protocol = protocols.nextDouble() < options.a2sShare()
            ? GameProtocol.GAME_PROTOCOL_A2S : GameProtocol.GAME_PROTOCOL_QUAKE3;
        DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
          ch.bind(new InetSocketAddress(world.address(host), options.port()));
          ch.configureBlocking(false);
        } catch (IOException e) {
          ch.close();
          throw new IOException("cannot bind emulated server " + i + " at " + world.address(host) + ":"
              + options.port() + ": " + e.getMessage(), e);
        }
        InetSocketAddress address = (InetSocketAddress) ch.getLocalAddress();
        ServerInfo info = generator.generate(i, protocol, world.host(host));
        Slot slot = new Slot(i, new EmulatedServer(host, address, protocol, info), ch);
        ch.register(selector, SelectionKey.OP_READ, slot);
        bound.add(slot);
      }
    } catch (IOException | RuntimeException e) {
      for (Slot s : bound) {
        s.channel.close();
      }
      selector.close();
      throw e;
    }
    this.slots = List.copyOf(bound);
    this.servers = slots.stream().map(s -> s.server).toList();
    this.line = new DatagramDelayLine("emulated-servers-send", options.queueCapacity(), ticker);
    this.loop = new Thread(this::run, "emulated-servers-receive");
    loop.setDaemon(true);
    loop.setPriority(Thread.MAX_PRIORITY); // see DatagramDelayLine
    loop.start();
  }

  /**
   * Binds one emulated server on each given host of the world and starts answering.
   *
   * @param hosts world host indices, one server each (distinct unless {@code options.port()} is 0)
   * @throws IOException an address or port cannot be bound (nothing stays open)
   */
  public static EmulatedGameServers start(World world, int[] hosts, Options options) throws IOException {
    return start(world, hosts, options, ReplyTap.NONE);
  }

  /**
   * As {@link #start(World, int[], Options)}, telling {@code tap} of every delayed reply.
   *
   * @throws IOException an address or port cannot be bound (nothing stays open)
   */
  public static EmulatedGameServers start(World world, int[] hosts, Options options, ReplyTap tap) throws IOException {
    Objects.requireNonNull(tap, "tap");
    long t0 = System.nanoTime();
    EmulatedGameServers s = new EmulatedGameServers(world, hosts.clone(), options, NanoTicker.SYSTEM, tap);
    long a2s = s.servers.stream().filter(e -> e.protocol() == GameProtocol.GAME_PROTOCOL_A2S).count();
    log.info("{} emulated game servers ({} A2S, {} Quake3) bound in {} ms", hosts.length, a2s, hosts.length - a2s,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    return s;
  }

  /** The servers in the order of the hosts given to {@link #start}. */
  public List<EmulatedServer> servers() {
    return servers;
  }

  public World world() {
    return world;
  }

  public Counters counters() {
    DatagramDelayLine.Counters c = line.counters();
    return new Counters(received, replies, challenges, badChallenges, malformed, unknownSource, lost, c.sent(),
        c.droppedFull() + c.sendFailed(), c.lateOver1ms(), c.maxLatenessMicros());
  }

  private void run() {
    ByteBuffer in = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    SplittableRandom rng = new SplittableRandom(options.seed() + 1);
    try {
      while (running) {
        selector.select(500);
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
          SelectionKey key = it.next();
          it.remove();
          if (key.isValid()) {
            drain((Slot) key.attachment(), in, rng);
          }
        }
      }
    } catch (ClosedSelectorException closing) {
      // close() in progress
    } catch (IOException | RuntimeException e) {
      if (running) {
        log.error("emulated servers' receive loop failed", e);
      }
    }
  }

  private void drain(Slot slot, ByteBuffer in, SplittableRandom rng) {
    while (true) {
      in.clear();
      InetSocketAddress from;
      try {
        from = (InetSocketAddress) slot.channel.receive(in);
      } catch (IOException e) {
        log.debug("receive on {} failed: {}", slot.server.address(), e.toString());
        return;
      }
      if (from == null) {
        return;
      }
      long now = ticker.read();
      received++;
      in.flip();
      byte[] reply;
      try {
        reply = answer(slot, in, from);
      } catch (MalformedPacketException | IllegalArgumentException e) {
        malformed++;
        continue;
      }
      int prober = world.indexOf(from.getAddress());
      double rttMs;
      if (prober < 0) {
        unknownSource++;
        rttMs = 0;
      } else {
        rttMs = world.sampleRttMs(prober, slot.server.host(), rng);
        if (Double.isNaN(rttMs)) {
          lost++;
          continue;
        }
      }
      replies++;
      long delay = Math.round(rttMs * 1e6);
      if (prober >= 0) tap.scheduled(prober, slot.server.host(), delay);
      line.schedule(slot.channel, ByteBuffer.wrap(reply), from, now + delay);
    }
  }

  private byte[] answer(Slot slot, ByteBuffer in, InetSocketAddress from) {
    EmulatedServer s = slot.server;
    if (s.protocol() == GameProtocol.GAME_PROTOCOL_QUAKE3) {
      Quake3Request q = Quake3Codec.decodeRequest(in);
      return q.type() == Quake3Request.Type.GETINFO
          ? Quake3Codec.encodeInfoResponse(s.info(), q.challenge())
          : Quake3Codec.encodeStatusResponse(s.info(), q.challenge(), quake3Players(slot));
    }
    A2sRequest q = A2sCodec.decodeRequest(in);
    int expected = challengeFor(slot, from);
    if (!q.challenged() || q.challenge() != expected) {
      if (q.challenged() && q.challenge() != -1) {
        badChallenges++;
      }
      challenges++;
      return A2sCodec.encodeChallenge(expected);
    }
    return switch (q.type()) {
      case INFO -> slot.a2sInfo;
      case PLAYER -> A2sCodec.encodePlayers(a2sPlayers(slot));
      case RULES -> A2sCodec.encodeRules(rules(s.info()));
    };
  }

  /** A keyed hash of (server, client address): stateless, never -1 or 0 (the "ask" values). */
  private int challengeFor(Slot slot, InetSocketAddress from) {
    long z = challengeKey ^ ((long) slot.index << 40) ^ ((long) from.getPort() << 24)
        ^ (from.getAddress().hashCode() & 0xFFFF_FFFFL) * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    int c = (int) (z ^ (z >>> 31));
    return c == -1 || c == 0 ? 0x5EED : c;
  }

  private List<A2sPlayer> a2sPlayers(Slot slot) {
    int n = slot.server.info().getPlayers();
    List<A2sPlayer> players = new ArrayList<>(n);
    SplittableRandom r = new SplittableRandom(options.seed() * 31 + slot.index);
    for (int i = 0; i < n; i++) {
      players.add(new A2sPlayer(0, playerName(r, i), r.nextInt(60), (float) (r.nextDouble() * 3600)));
    }
    return players;
  }

  private List<Quake3Player> quake3Players(Slot slot) {
    ServerInfo info = slot.server.info();
    List<Quake3Player> players = new ArrayList<>(info.getPlayers());
    SplittableRandom r = new SplittableRandom(options.seed() * 31 + slot.index);
    for (int i = 0; i < info.getPlayers(); i++) {
      boolean bot = i < info.getBots();
      players.add(new Quake3Player(r.nextInt(40), bot ? 0 : 20 + r.nextInt(120), playerName(r, i)));
    }
    return players;
  }

  private static String playerName(SplittableRandom r, int i) {
    return NAMES.get(r.nextInt(NAMES.size())) + (i + 1);
  }

  private static Map<String, String> rules(ServerInfo info) {
    Map<String, String> rules = new LinkedHashMap<>();
    rules.put("mp_friendlyfire", "0");
    rules.put("mp_timelimit", "30");
    rules.put("sv_password", info.getPassword() ? "1" : "0");
    rules.put("sv_maxplayers", Integer.toString(info.getMaxPlayers()));
    return Collections.unmodifiableMap(rules);
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
    for (Slot s : slots) {
      try {
        s.channel.close();
      } catch (IOException e) {
        log.debug("closing {}: {}", s.server.address(), e.toString());
      }
    }
    try {
      selector.close();
    } catch (IOException e) {
      log.debug("closing selector: {}", e.toString());
    }
    Counters c = counters();
    log.info("{} emulated game servers stopped: {} queries, {} replies sent, {} malformed, {} lost, {} late > 1 ms",
        slots.size(), c.received(), c.sent(), c.malformed(), c.lost(), c.lateOver1ms());
  }
}
