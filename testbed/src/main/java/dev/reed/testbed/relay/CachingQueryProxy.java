package dev.reed.testbed.relay;

import dev.reed.probe.NanoTicker;
import dev.reed.probe.a2s.A2sChallenge;
import dev.reed.probe.a2s.A2sCodec;
import dev.reed.probe.a2s.A2sInfo;
import dev.reed.probe.a2s.A2sReply;
import dev.reed.probe.a2s.A2sRequest;
import dev.reed.probe.packet.MalformedPacketException;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A caching game-query proxy in front of a real server, the kind DDoS-protection front ends run:
 * it fetches the server's info reply once, keeps its bytes for {@code ttl} and answers every query
 * from them without asking the server. Naive in the two ways the probe engine's reply forensics
 * catch: a Quake3 getinfo gets the stored bytes verbatim, echoing the challenge of whoever asked
 * first; an A2S_INFO without a challenge gets a challenge of the proxy's own (so it reflects
 * nothing), and one with any challenge at all gets the stored info, never checked. For the tests
 * of those forensics; one thread, a cache miss waits for the server (at most 1 s per exchange).
 */
public final class CachingQueryProxy implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CachingQueryProxy.class);
  private static final int UPSTREAM_TIMEOUT_MS = 1000;

  /**
   * @param fromCache queries answered from the stored reply
   * @param fetched queries answered by asking the server (cache misses)
   * @param challenges A2S challenges the proxy issued
   * @param failed queries not answered: undecodable, or the server did not answer
   */
  public record ProxyCounters(long fromCache, long fetched, long challenges, long failed) {}

  private final DatagramChannel channel;
  private final DatagramSocket upstreamSocket;
  private final InetSocketAddress upstream;
  private final InetSocketAddress localAddress;
  private final NanoTicker ticker;
  private final long ttlNanos;
  private final int ownChallenge;
  private final Thread thread;
  private final LongAdder fromCache = new LongAdder();
  private final LongAdder fetched = new LongAdder();
  private final LongAdder challenges = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private byte[] quake3Reply;
  private long quake3At;
  private byte[] a2sReply;
  private long a2sAt;
  private volatile boolean closed;

  private CachingQueryProxy(DatagramChannel channel, DatagramSocket upstreamSocket, InetSocketAddress upstream,
      NanoTicker ticker, Duration ttl) throws IOException {
    this.channel = channel;
    this.upstreamSocket = upstreamSocket;
    this.upstream = upstream;
    this.localAddress = (InetSocketAddress) channel.getLocalAddress();
    this.ticker = ticker;
    this.ttlNanos = ttl.toNanos();
    int c;
    do {
      c = new SecureRandom().nextInt();
    } while (c == 0 || c == -1);
    this.ownChallenge = c;
    this.thread = Thread.ofPlatform().daemon().name("reed-caching-proxy-" + localAddress.getPort()).unstarted(this::serve);
  }

  /**
   * Binds {@code bind} and starts answering for {@code upstream}.
   *
   * @param ttl how long a stored reply is served before the server is asked again (positive)
   */
  public static CachingQueryProxy start(InetSocketAddress bind, InetSocketAddress upstream, Duration ttl,
      NanoTicker ticker) throws IOException {
    if (ttl.isNegative() || ttl.isZero()) throw new IllegalArgumentException("ttl must be positive: " + ttl);
    DatagramChannel ch = DatagramChannel.open();
    DatagramSocket up = null;
    try {
      ch.bind(bind);
      up = new DatagramSocket(new InetSocketAddress(bind.getAddress(), 0));
      up.setSoTimeout(UPSTREAM_TIMEOUT_MS);
      CachingQueryProxy p = new CachingQueryProxy(ch, up, upstream, ticker, ttl);
      p.thread.start();
      log.info("caching query proxy on {} for {}, ttl {} ms", p.localAddress, upstream, ttl.toMillis());
      return p;
    } catch (IOException | RuntimeException e) {
      ch.close();
      if (up != null) up.close();
      throw e;
    }
  }

  public InetSocketAddress localAddress() {
    return localAddress;
  }

  public ProxyCounters counters() {
    return new ProxyCounters(fromCache.sum(), fetched.sum(), challenges.sum(), failed.sum());
  }

  private void serve() {
    ByteBuffer buf = ByteBuffer.allocate(65536);
    while (!closed) {
      try {
        buf.clear();
        InetSocketAddress from = (InetSocketAddress) channel.receive(buf);
        buf.flip();
        byte[] reply = answer(buf);
        if (reply != null) channel.send(ByteBuffer.wrap(reply), from);
        else failed.increment();
      } catch (ClosedChannelException e) {
        break;
      } catch (IOException | RuntimeException e) {
        if (closed) break;
        failed.increment();
        log.warn("caching proxy {}: {}", localAddress, e.toString());
      }
    }
  }

  private byte[] answer(ByteBuffer query) throws IOException {
    int type = query.remaining() >= 5 ? query.get(query.position() + 4) : -1;
    long now = ticker.read();
    if (type != 'T') {
      if (quake3Reply != null && now - quake3At < ttlNanos) {
        fromCache.increment();
        return quake3Reply;
      }
      byte[] request = new byte[query.remaining()];
      query.get(request);
      byte[] reply = exchange(request);
      if (reply == null) return null;
      fetched.increment();
      quake3Reply = reply;
      quake3At = now;
      return reply;
    }
    A2sRequest req;
    try {
      req = A2sCodec.decodeRequest(query);
    } catch (MalformedPacketException e) {
      return null;
    }
    if (!req.challenged() || req.challenge() == -1) {
      challenges.increment();
      return A2sCodec.encodeChallenge(ownChallenge);
    }
    if (a2sReply != null && now - a2sAt < ttlNanos) {
      fromCache.increment();
      return a2sReply;
    }
    byte[] reply = exchange(A2sCodec.encodeInfoRequest());
    if (reply != null && A2sCodec.decodeReply(reply) instanceof A2sChallenge c) {
      reply = exchange(A2sCodec.encodeInfoRequest(c.challenge()));
    }
    if (reply == null) return null;
    A2sReply decoded = A2sCodec.decodeReply(reply);
    if (!(decoded instanceof A2sInfo)) return null;
    fetched.increment();
    a2sReply = reply;
    a2sAt = now;
    return reply;
  }

  /** One request to the server and its reply, or null after the timeout. */
  private byte[] exchange(byte[] request) throws IOException {
    upstreamSocket.send(new DatagramPacket(request, request.length, upstream));
    DatagramPacket in = new DatagramPacket(new byte[65536], 65536);
    try {
      upstreamSocket.receive(in);
    } catch (SocketTimeoutException e) {
      return null;
    }
    return Arrays.copyOf(in.getData(), in.getLength());
  }

  @Override
  public void close() {
    if (closed) return;
    closed = true;
    try {
      channel.close();
      thread.join(5_000);
    } catch (IOException e) {
      log.warn("closing caching proxy {}: {}", localAddress, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    upstreamSocket.close();
    ProxyCounters c = counters();
    log.info("caching query proxy on {} closed: from cache {}, fetched {}, challenges {}, failed {}", localAddress,
        c.fromCache(), c.fetched(), c.challenges(), c.failed());
  }
}
