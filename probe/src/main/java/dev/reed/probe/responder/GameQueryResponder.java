package dev.reed.probe.responder;

import dev.reed.probe.NanoTicker;
import dev.reed.probe.a2s.A2sCodec;
import dev.reed.probe.a2s.A2sRequest;
import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Player;
import dev.reed.probe.quake3.Quake3Request;
import dev.reed.proto.v1.ServerInfo;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers game-server queries for a {@link ServerInfo} it is given: A2S_INFO (issuing and
 * checking the December 2020 challenge), A2S_PLAYER/RULES, and Quake3 getinfo/getstatus echoing
 * the client's challenge. Landmark agents run one as their calibration beacon, as the REED paper's
 * PlanetLab landmarks answered game queries themselves (Armitage &amp; Heyde 2011, section 6.3),
 * so clients and other landmarks measure them with the same protocol they use for game servers.
 *
 * <p>One UDP socket, one receiving thread. A reply whose {@link ReplyDelay} is non-zero is sent
 * later by a scheduler thread, timed from the moment the query was received, so a slow
 * (emulated-distant) client never holds up the others. Player lists are synthetic ("player N",
 * "bot N" with ping 0) because only counts are known.
 */
public final class GameQueryResponder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GameQueryResponder.class);
  private static final long CHALLENGE_ROTATION_NANOS = TimeUnit.SECONDS.toNanos(30);
  private static final int MAX_PENDING_REPLIES = 65_536;

  private final DatagramChannel channel;
  private final InetSocketAddress localAddress;
  private final Supplier<ServerInfo> info;
  private final ReplyDelay delay;
  private final NanoTicker ticker = NanoTicker.SYSTEM;
  private final ChallengeIssuer challenges;
  private final ScheduledThreadPoolExecutor delayed;
  private final Thread thread;
  private final LongAdder answered = new LongAdder();
  private final LongAdder challengesIssued = new LongAdder();
  private final LongAdder malformed = new LongAdder();
  private final LongAdder dropped = new LongAdder();
  private final LongAdder limited = new LongAdder();
  private final Predicate<InetAddress> admit;
  private volatile boolean closed;

  private GameQueryResponder(DatagramChannel channel, Supplier<ServerInfo> info, ReplyDelay delay,
      Predicate<InetAddress> admit) throws IOException {
    this.channel = channel;
    this.admit = admit;
    this.localAddress = (InetSocketAddress) channel.getLocalAddress();
    this.info = info;
    this.delay = delay;
    this.challenges = new ChallengeIssuer(ticker, CHALLENGE_ROTATION_NANOS);
    String name = "reed-responder-" + localAddress.getPort();
    this.delayed = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon().name(name + "-delay").factory());
    delayed.setRemoveOnCancelPolicy(true);
    this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::serve);
  }

  /**
   * Binds {@code bind} and starts answering.
   *
   * @param info called for every answered query (cheap, thread-safe)
   * @param delay reply delay per client; {@link ReplyDelay#NONE} in production
   */
  public static GameQueryResponder start(InetSocketAddress bind, Supplier<ServerInfo> info, ReplyDelay delay)
      throws IOException {
    return start(bind, info, delay, client -> true);
  }

  /**
   * The same, answering only the datagrams {@code admit} lets through (a rate limit per network
   * prefix: the landmark beacon); the others are dropped unanswered and counted as
   * {@link ResponderCounters#rateLimited()}.
   *
   * @param admit called once per datagram on the receiving thread, before it is parsed
   */
  public static GameQueryResponder start(InetSocketAddress bind, Supplier<ServerInfo> info, ReplyDelay delay,
      Predicate<InetAddress> admit) throws IOException {
    Objects.requireNonNull(admit, "admit");
    Objects.requireNonNull(info, "info");
    Objects.requireNonNull(delay, "delay");
    DatagramChannel ch = DatagramChannel.open(bind.getAddress() instanceof Inet6Address
        ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
    try {
      ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
      ch.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
      ch.bind(bind);
      GameQueryResponder r = new GameQueryResponder(ch, info, delay, admit);
      r.thread.start();
      LOG.info("game query responder on {}", r.localAddress);
      return r;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  public InetSocketAddress localAddress() {
    return localAddress;
  }

  public ResponderCounters counters() {
    return new ResponderCounters(answered.sum(), challengesIssued.sum(), malformed.sum(), dropped.sum(), limited.sum());
  }

  private void serve() {
    ByteBuffer buf = ByteBuffer.allocateDirect(65536);
    while (!closed) {
      try {
        buf.clear();
        SocketAddress from = channel.receive(buf);
        long received = ticker.read();
        buf.flip();
        handle((InetSocketAddress) from, buf, received);
      } catch (ClosedChannelException e) {
        break;
      } catch (IOException | RuntimeException e) {
        if (closed) {
          break;
        }
        LOG.warn("responder {}: {}", localAddress, e.toString());
      }
    }
  }

  private void handle(InetSocketAddress from, ByteBuffer packet, long receivedNanos) {
    if (!admit.test(from.getAddress())) {
      limited.increment();
      return;
    }
    byte[] reply;
    try {
      reply = isA2s(packet) ? answerA2s(from, packet) : answerQuake3(packet);
    } catch (MalformedPacketException e) {
      malformed.increment();
      return;
    } catch (IllegalArgumentException e) {
      dropped.increment();
      LOG.warn("responder {}: cannot encode reply: {}", localAddress, e.getMessage());
      return;
    }
    Duration d = delay.delayFor(from);
    if (d == null || d.isZero() || d.isNegative()) {
      send(reply, from);
      return;
    }
    if (delayed.getQueue().size() >= MAX_PENDING_REPLIES) {
      dropped.increment();
      return;
    }
    long wait = receivedNanos + d.toNanos() - ticker.read();
    delayed.schedule(() -> send(reply, from), wait, TimeUnit.NANOSECONDS);
  }

  private static boolean isA2s(ByteBuffer p) {
    if (p.remaining() < 5) {
      return true; // let the A2S decoder name the truncation
    }
    int type = p.get(p.position() + 4);
    return type == 'T' || type == 'U' || type == 'V';
  }

  private byte[] answerA2s(InetSocketAddress from, ByteBuffer packet) {
    A2sRequest req = A2sCodec.decodeRequest(packet);
    if (!req.challenged() || req.challenge() == -1 || !challenges.valid(from, req.challenge())) {
      challengesIssued.increment();
      return A2sCodec.encodeChallenge(challenges.issue(from));
    }
    ServerInfo si = info.get();
    byte[] reply = switch (req.type()) {
      case INFO -> A2sCodec.encodeInfo(si, localAddress.getPort());
      case PLAYER -> A2sCodec.encodePlayers(List.of());
      case RULES -> A2sCodec.encodeRules(si.getGameType().isEmpty() ? Map.of() : Map.of("gametype", si.getGameType()));
    };
    answered.increment();
    return reply;
  }

  private byte[] answerQuake3(ByteBuffer packet) {
    Quake3Request req = Quake3Codec.decodeRequest(packet);
    ServerInfo si = info.get();
    byte[] reply = switch (req.type()) {
      case GETINFO -> Quake3Codec.encodeInfoResponse(si, req.challenge());
      case GETSTATUS -> Quake3Codec.encodeStatusResponse(si, req.challenge(), syntheticPlayers(si));
    };
    answered.increment();
    return reply;
  }

  private static List<Quake3Player> syntheticPlayers(ServerInfo si) {
    int bots = Math.min(si.getBots(), si.getPlayers());
    List<Quake3Player> players = new ArrayList<>(si.getPlayers());
    for (int i = 1; i <= si.getPlayers() - bots; i++) {
      players.add(new Quake3Player(0, 1, "player " + i));
    }
    for (int i = 1; i <= bots; i++) {
      players.add(new Quake3Player(0, 0, "bot " + i));
    }
    return players;
  }

  private void send(byte[] reply, InetSocketAddress to) {
    try {
      channel.send(ByteBuffer.wrap(reply), to);
    } catch (IOException e) {
      if (!closed) {
        dropped.increment();
        // no client address: a player's address is not logged
        LOG.warn("responder {}: a reply failed: {}", localAddress, e.toString());
      }
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    delayed.shutdownNow();
    try {
      channel.close();
      thread.join(5_000);
      delayed.awaitTermination(5, TimeUnit.SECONDS);
    } catch (IOException e) {
      LOG.warn("closing responder {}: {}", localAddress, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ResponderCounters c = counters();
    LOG.info("game query responder on {} closed: answered {}, challenges {}, malformed {}, dropped {}, rate-limited {}",
        localAddress, c.answered(), c.challengesIssued(), c.malformed(), c.dropped(), c.rateLimited());
  }
}
