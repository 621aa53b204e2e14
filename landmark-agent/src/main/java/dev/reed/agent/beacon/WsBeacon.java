package dev.reed.agent.beacon;

import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.StreamTimeoutException;
import com.linecorp.armeria.common.stream.StreamTimeoutMode;
import com.linecorp.armeria.common.websocket.WebSocket;
import com.linecorp.armeria.common.websocket.WebSocketCloseStatus;
import com.linecorp.armeria.common.websocket.WebSocketFrame;
import com.linecorp.armeria.common.websocket.WebSocketFrameType;
import com.linecorp.armeria.common.websocket.WebSocketWriter;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.ServerBuilder;
import com.linecorp.armeria.server.ServiceRequestContext;
import com.linecorp.armeria.server.websocket.WebSocketService;
import dev.reed.runtime.LoggedAddresses;
import dev.reed.runtime.PrefixBuckets;
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
 * allow-list (HTTP 403 at the upgrade), open connections per network prefix (HTTP 429 at the
 * upgrade), frames per second per network prefix (close 1008; every frame spends a token, PINGs
 * too, so a connection kept open costs its holder the rate), oversized (1009) and fragmented
 * (1008) frames, and an idle timeout. Limits count per prefix ({@link PrefixBuckets}: /24 of IPv4,
 * /56 of IPv6), not per address: one host holds a whole IPv6 /64. No client address is logged
 * unless {@link WsBeaconConfig#logClientAddresses()}. Built on Armeria's WebSocket server.
 */
public final class WsBeacon implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WsBeacon.class);

  /** A connection without a frame for this long is closed, so idle pages do not hold slots. */
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(60);
  /** Frames up to this size are decoded (and then refused with 1009 above 64 bytes); larger ones Armeria refuses itself. */
  private static final int DECODE_LIMIT = 4096;

  /** Why a connection or frame was refused, as the metric tag {@code reason}. */
  public enum Rejection {
    /** Origin header not in the allow-list. */
    ORIGIN,
    /** The remote address's prefix already holds its maximum of open connections. */
    CONNECTIONS,
    /** The remote address's prefix sent frames faster than its rate. */
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
  private final Server server;
  private final String url;
  private final PrefixBuckets frames;
  private final LoggedAddresses shown;
  /** Open connections per prefix; a prefix leaves the map when its last connection closes. */
  private final Map<PrefixBuckets.Prefix, Integer> connections = new ConcurrentHashMap<>();
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
    this.frames = PrefixBuckets.of(PrefixBuckets.Limit.perSecond(config.messagesPerSecond()), nanos);
    this.shown = new LoggedAddresses(config.logClientAddresses());
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
        // a global cap too, so that many prefixes together cannot exhaust file descriptors
        .maxNumConnections(config.maxConnectionsPerPrefix() * 1000);
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
    log.info("WebSocket beacon on {} (announced as {}), origins {}, at most {} connections and {} frames/s (burst {}) "
        + "per /24 or /56; client addresses {}", bound, url, config.origins().isEmpty() ? "any" : config.origins(),
        config.maxConnectionsPerPrefix(), config.messagesPerSecond(), frames.limit().burst(),
        config.logClientAddresses() ? "logged" : "not logged");
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

  /** @return the refusal, or null when the upgrade may go ahead */
  private HttpResponse admit(ServiceRequestContext ctx, String origin) {
    if (!config.origins().isEmpty() && origin != null && !config.origins().contains(origin)) {
      rejected.get(Rejection.ORIGIN).incrementAndGet();
      log.debug("WebSocket from {} refused: origin {} not allowed", shown.of(ctx.remoteAddress()), origin);
      return HttpResponse.of(HttpStatus.FORBIDDEN, MediaType.PLAIN_TEXT_UTF_8, "origin not allowed");
    }
    PrefixBuckets.Prefix prefix = frames.prefix(ctx.remoteAddress().getAddress());
    boolean[] admitted = {false};
    connections.compute(prefix, (k, n) -> {
      int open = n == null ? 0 : n;
      if (open >= config.maxConnectionsPerPrefix()) return n;
      admitted[0] = true;
      return open + 1;
    });
    if (!admitted[0]) {
      rejected.get(Rejection.CONNECTIONS).incrementAndGet();
      log.debug("WebSocket from {} refused: its prefix holds {} connections", shown.of(ctx.remoteAddress()),
          config.maxConnectionsPerPrefix());
      return HttpResponse.of(HttpStatus.TOO_MANY_REQUESTS, MediaType.PLAIN_TEXT_UTF_8, "too many connections from this network");
    }
    accepted.incrementAndGet();
    open.incrementAndGet();
    // the log completes when the connection's exchange ends, however it ends
    ctx.log().whenComplete().thenRun(() -> release(prefix));
    return null;
  }

  private void release(PrefixBuckets.Prefix prefix) {
    open.decrementAndGet();
    connections.computeIfPresent(prefix, (k, n) -> n <= 1 ? null : n - 1);
  }

  private WebSocket handle(ServiceRequestContext ctx, WebSocket in) {
    WebSocketWriter out = WebSocket.streaming();
    InetSocketAddress remote = ctx.remoteAddress();
    PrefixBuckets.Prefix prefix = frames.prefix(remote.getAddress());
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
          if (frame.type() == WebSocketFrameType.CLOSE) {
            out.close();
            return;
          }
          // every other frame spends a token, PINGs and PONGs too: they cost the beacon as much as
          // an echo, and a free PING would hold a connection open forever at no cost
          if (!frames.take(prefix)) {
            refuse(Rejection.RATE, WebSocketCloseStatus.POLICY_VIOLATION,
                "over " + config.messagesPerSecond() + " frames/s from this network");
            return;
          }
          switch (frame.type()) {
            case TEXT, BINARY -> echo(frame);
            case PING -> out.tryWrite(WebSocketFrame.ofPong(frame.array()));
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
        } else {
          // copy out of the (pooled) frame before it is released
          WebSocketFrame reply = frame.type() == WebSocketFrameType.TEXT
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
        log.debug("WebSocket from {} closed: {}", shown.of(remote), reason);
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
