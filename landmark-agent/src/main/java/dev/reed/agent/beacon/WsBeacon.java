package dev.reed.agent.beacon;

import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.StreamTimeoutException;
import com.linecorp.armeria.common.stream.StreamTimeoutMode;
import com.linecorp.armeria.common.websocket.WebSocket;
import com.linecorp.armeria.common.websocket.WebSocketCloseStatus;
import com.linecorp.armeria.common.websocket.WebSocketFrame;
import com.linecorp.armeria.common.websocket.WebSocketWriter;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.ServerBuilder;
import com.linecorp.armeria.server.ServiceRequestContext;
import com.linecorp.armeria.server.websocket.WebSocketService;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The landmark's WebSocket beacon, for web pages that cannot send UDP: it echoes every text or
 * binary frame of at most {@value WsBeaconConfig#MAX_FRAME_BYTES} bytes verbatim over the open
 * connection, so a page measures the RTT without the TCP and TLS handshakes. Guards: an Origin
 * allow-list (HTTP 403 at the upgrade), open connections per remote address (HTTP 429 at the
 * upgrade), frames per second per remote address (close 1008), oversized (1009) and fragmented
 * (1008) frames, and an idle timeout. Built on Armeria's WebSocket server; no HTTP parsing here.
 */
public final class WsBeacon implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WsBeacon.class);

  /** A connection without a frame for this long is closed, so idle pages do not hold slots. */
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(60);
  /** Frames up to this size are decoded (and then refused with 1009 above 64 bytes); larger ones Armeria refuses itself. */
  private static final int DECODE_LIMIT = 4096;
  /** Remote addresses remembered with no open connection before the idle ones are forgotten. */
  private static final int MAX_REMEMBERED_PEERS = 10_000;

  /** Why a connection or frame was refused, as the metric tag {@code reason}. */
  public enum Rejection {
    /** Origin header not in the allow-list. */
    ORIGIN,
    /** The remote address already holds its maximum of open connections. */
    CONNECTIONS,
    /** The remote address sent frames faster than its rate. */
    RATE,
    /** A frame over 64 bytes. */
    OVERSIZE,
    /** A fragmented message (continuation frames). */
    FRAGMENTED
  }

  /** Totals since start. */
  public record Counters(long accepted, long open, long echoed, Map<Rejection, Long> rejected) {}

  private final WsBeaconConfig config;
  private final EchoDelay delay;
  private final LongSupplier nanos;
  private final Server server;
  private final String url;
  private final Map<InetAddress, Peer> peers = new ConcurrentHashMap<>();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong open = new AtomicLong();
  private final AtomicLong echoed = new AtomicLong();
  private final Map<Rejection, AtomicLong> rejected = new ConcurrentHashMap<>();

  /**
   * Starts listening.
   *
   * @param advertisedHost host for the URL when {@code config.advertise()} is null and the bound
   *     address is a wildcard (the UDP beacon's announced address)
   * @param delay echo delay (testbed WAN emulation); {@link EchoDelay#NONE} in production
   * @param nanos monotonic clock of the rate limits (System::nanoTime)
   */
  public WsBeacon(WsBeaconConfig config, InetAddress advertisedHost, EchoDelay delay, LongSupplier nanos) {
    this.config = config;
    this.delay = delay == null ? EchoDelay.NONE : delay;
    this.nanos = nanos;
    for (Rejection r : Rejection.values()) rejected.put(r, new AtomicLong());
    WebSocketService ws = WebSocketService.builder((ctx, in) -> handle(ctx, in))
        .maxFramePayloadLength(DECODE_LIMIT)
        // our own allow-list in admit() counts refusals; Armeria's default would allow same-origin only
        .allowedOrigin(origin -> true)
        .build();
    HttpService admitted = ws.decorate((delegate, ctx, req) -> {
      String origin = req.headers().get("origin");
      HttpResponse refused = admit(ctx, origin);
      if (refused != null) return refused;
      // Armeria refuses an upgrade without Origin; only browsers send one, and they are what the
      // allow-list is about: a program (the SDK, a test) may use the beacon without it
      return delegate.serve(ctx, origin != null ? req
          : req.withHeaders(req.headers().toBuilder().set("origin", "null").build()));
    });
    ServerBuilder b = Server.builder()
        .service("/", admitted)
        // echoes hold no state worth draining: close connections at once on shutdown
        .gracefulShutdownTimeout(Duration.ZERO, Duration.ZERO)
        // a global cap too, so that many addresses together cannot exhaust file descriptors
        .maxNumConnections(config.maxConnectionsPerAddress() * 1000);
    if (config.tls()) {
      b.https(config.bind()).tls(config.tlsCert().toFile(), config.tlsKey().toFile());
    } else {
      b.http(config.bind());
    }
    this.server = b.build();
    server.start().join();
    InetSocketAddress bound = localAddress();
    InetSocketAddress shown = config.advertise() != null ? config.advertise()
        : !bound.getAddress().isAnyLocalAddress() ? bound
        : new InetSocketAddress(advertisedHost, bound.getPort());
    String host = shown.getHostString();
    if (host.contains(":")) host = "[" + host + "]";
    this.url = (config.tls() ? "wss://" : "ws://") + host + ":" + shown.getPort() + "/";
    log.info("WebSocket beacon on {} (announced as {}), origins {}, at most {} connections and {} frames/s per address",
        bound, url, config.origins().isEmpty() ? "any" : config.origins(), config.maxConnectionsPerAddress(),
        config.messagesPerSecond());
  }

  /** The URL announced on reed.landmarks. */
  public String url() {
    return url;
  }

  public InetSocketAddress localAddress() {
    return server.activePorts().values().iterator().next().localAddress();
  }

  public Counters counters() {
    Map<Rejection, Long> r = new java.util.EnumMap<>(Rejection.class);
    rejected.forEach((k, v) -> r.put(k, v.get()));
    return new Counters(accepted.get(), open.get(), echoed.get(), Map.copyOf(r));
  }

  /** The per-address state: open connections and the frame token bucket shared by them. */
  private final class Peer {
    int connections;
    double tokens;
    long last;

    Peer(long now) {
      tokens = config.messagesPerSecond();
      last = now;
    }

    /** One frame from the bucket; false when the address is over its rate. */
    synchronized boolean take(long now) {
      double burst = config.messagesPerSecond();
      tokens = Math.min(burst, tokens + (now - last) / 1e9 * config.messagesPerSecond());
      last = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    }

    synchronized boolean idle(long now) {
      return connections == 0 && tokens + (now - last) / 1e9 * config.messagesPerSecond() >= config.messagesPerSecond();
    }
  }

  /** @return the refusal, or null when the upgrade may go ahead */
  private HttpResponse admit(ServiceRequestContext ctx, String origin) {
    if (!config.origins().isEmpty() && origin != null && !config.origins().contains(origin)) {
      rejected.get(Rejection.ORIGIN).incrementAndGet();
      log.debug("WebSocket from {} refused: origin {} not allowed", ctx.remoteAddress(), origin);
      return HttpResponse.of(HttpStatus.FORBIDDEN, MediaType.PLAIN_TEXT_UTF_8, "origin not allowed");
    }
    InetAddress address = ctx.remoteAddress().getAddress();
    long now = nanos.getAsLong();
    boolean[] admitted = {false};
    peers.compute(address, (k, p) -> {
      Peer peer = p == null ? new Peer(now) : p;
      synchronized (peer) {
        if (peer.connections < config.maxConnectionsPerAddress()) {
          peer.connections++;
          admitted[0] = true;
        }
      }
      return peer;
    });
    if (!admitted[0]) {
      rejected.get(Rejection.CONNECTIONS).incrementAndGet();
      log.debug("WebSocket from {} refused: {} connections open", address, config.maxConnectionsPerAddress());
      return HttpResponse.of(HttpStatus.TOO_MANY_REQUESTS, MediaType.PLAIN_TEXT_UTF_8, "too many connections from this address");
    }
    accepted.incrementAndGet();
    open.incrementAndGet();
    // the log completes when the connection's exchange ends, however it ends
    ctx.log().whenComplete().thenRun(() -> release(address));
    return null;
  }

  private void release(InetAddress address) {
    open.decrementAndGet();
    long now = nanos.getAsLong();
    peers.computeIfPresent(address, (k, p) -> {
      synchronized (p) {
        p.connections--;
      }
      return p.idle(now) ? null : p;
    });
    if (peers.size() > MAX_REMEMBERED_PEERS) peers.entrySet().removeIf(e -> e.getValue().idle(now));
  }

  private WebSocket handle(ServiceRequestContext ctx, WebSocket in) {
    WebSocketWriter out = WebSocket.streaming();
    InetSocketAddress remote = ctx.remoteAddress();
    Peer peer = peers.get(remote.getAddress());
    in.timeout(IDLE_TIMEOUT, StreamTimeoutMode.UNTIL_NEXT).subscribe(new Subscriber<WebSocketFrame>() {
      private Subscription subscription;
      private boolean refused;

      @Override
      public void onSubscribe(Subscription s) {
        subscription = s;
        s.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(WebSocketFrame frame) {
        try (frame) {
          if (refused) return; // frames already in flight after the close
          switch (frame.type()) {
            case TEXT, BINARY -> echo(frame);
            case PING -> out.tryWrite(WebSocketFrame.ofPong(frame.array()));
            case CLOSE -> out.close();
            case CONTINUATION -> refuse(Rejection.FRAGMENTED, WebSocketCloseStatus.POLICY_VIOLATION, "fragmented messages are not echoed");
            default -> { } // PONG: nothing to answer
          }
        }
      }

      private void echo(WebSocketFrame frame) {
        if (!frame.isFinalFragment()) {
          refuse(Rejection.FRAGMENTED, WebSocketCloseStatus.POLICY_VIOLATION, "fragmented messages are not echoed");
        } else if (frame.length() > WsBeaconConfig.MAX_FRAME_BYTES) {
          refuse(Rejection.OVERSIZE, WebSocketCloseStatus.MESSAGE_TOO_BIG,
              "frames over " + WsBeaconConfig.MAX_FRAME_BYTES + " bytes are not echoed");
        } else if (peer != null && !peer.take(nanos.getAsLong())) {
          refuse(Rejection.RATE, WebSocketCloseStatus.POLICY_VIOLATION,
              "over " + config.messagesPerSecond() + " frames/s from this address");
        } else {
          // copy out of the (pooled) frame before it is released
          WebSocketFrame reply = frame.type() == com.linecorp.armeria.common.websocket.WebSocketFrameType.TEXT
              ? WebSocketFrame.ofText(frame.text()) : WebSocketFrame.ofBinary(frame.array());
          Duration d = delay.delayFor(remote);
          if (d == null || d.isNegative() || d.isZero()) {
            send(reply);
          } else {
            ctx.eventLoop().schedule(() -> send(reply), d.toNanos(), TimeUnit.NANOSECONDS);
          }
        }
      }

      private void send(WebSocketFrame reply) {
        if (out.tryWrite(reply)) echoed.incrementAndGet();
      }

      private void refuse(Rejection why, WebSocketCloseStatus status, String reason) {
        refused = true;
        rejected.get(why).incrementAndGet();
        log.debug("WebSocket from {} closed: {}", remote, reason);
        out.close(status, reason);
        subscription.cancel();
      }

      @Override
      public void onError(Throwable t) {
        if (t instanceof StreamTimeoutException) {
          out.close(WebSocketCloseStatus.NORMAL_CLOSURE, "idle for " + IDLE_TIMEOUT.toSeconds() + " s");
        } else if (t instanceof io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException e
            && e.closeStatus().code() == WebSocketCloseStatus.MESSAGE_TOO_BIG.code()) {
          // over the decoder's limit: Armeria's decoder has refused it already
          rejected.get(Rejection.OVERSIZE).incrementAndGet();
          out.close(WebSocketCloseStatus.MESSAGE_TOO_BIG, "frames over " + WsBeaconConfig.MAX_FRAME_BYTES + " bytes are not echoed");
        } else {
          out.close(t);
        }
      }

      @Override
      public void onComplete() {
        out.close();
      }
    });
    return out;
  }

  /** Stops accepting and closes open connections within a second. */
  @Override
  public void close() {
    server.stop().join();
  }
}
