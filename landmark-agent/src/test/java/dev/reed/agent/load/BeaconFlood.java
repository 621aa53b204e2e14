package dev.reed.agent.load;

import dev.reed.agent.beacon.Beacon;
import dev.reed.agent.beacon.EchoDelay;
import dev.reed.agent.beacon.WsBeacon;
import dev.reed.agent.beacon.WsBeaconConfig;
import dev.reed.probe.responder.ReplyDelay;
import dev.reed.runtime.PrefixBuckets;
import java.lang.management.ManagementFactory;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A flood on a landmark's beacons, bounded in time, server and load in separate processes on
 * loopback. {@code serve WS_PORT UDP_PORT} runs the WebSocket and UDP beacons with the agent's
 * default limits per network prefix, printing heap and counters every 5 s. {@code load WS_PORT
 * UDP_PORT [quietSeconds=10] [floodSeconds=30] [attackers=200]}: honest clients, each from its own
 * /24 (127.1.N.1), echo a frame over a WebSocket and send a Quake3 getinfo 5 times a second each
 * throughout; after the quiet phase one host floods from {@code attackers} addresses of
 * 127.0.0.0/24: WebSocket connections re-opened as they are closed, each sending PINGs as fast as
 * it can, and getinfo datagrams as fast as one thread sends them. Prints the honest RTTs' p50/p99
 * per phase and what the attacker got through.
 *
 * <pre>
 * ./reed bench landmark-agent dev.reed.agent.load.BeaconFlood serve 47081 47082 &amp;
 * ./reed bench landmark-agent dev.reed.agent.load.BeaconFlood load 47081 47082
 * </pre>
 */
public final class BeaconFlood {
  private BeaconFlood() {}

  private static final int HONEST = 4;
  private static final int PER_SECOND = 5;
  private static final byte[] GETINFO = "\u00ff\u00ff\u00ff\u00ffgetinfo xyz\n".getBytes(StandardCharsets.ISO_8859_1);

  public static void main(String[] a) throws Exception {
    if (a.length >= 3 && a[0].equals("serve")) {
      serve(Integer.parseInt(a[1]), Integer.parseInt(a[2]));
    } else if (a.length >= 3 && a[0].equals("load")) {
      load(Integer.parseInt(a[1]), Integer.parseInt(a[2]), arg(a, 3, 10), arg(a, 4, 30), arg(a, 5, 200));
    } else {
      System.err.println("usage: BeaconFlood serve WS_PORT UDP_PORT | load WS_PORT UDP_PORT [quietSeconds] [floodSeconds] [attackers]");
      System.exit(2);
    }
  }

  private static int arg(String[] a, int i, int dflt) {
    return a.length > i ? Integer.parseInt(a[i]) : dflt;
  }

  private static void serve(int wsPort, int udpPort) throws Exception {
    PrefixBuckets udpLimit = PrefixBuckets.of(PrefixBuckets.Limit.perSecond(20), System::nanoTime);
    Beacon udp = Beacon.start(new InetSocketAddress("0.0.0.0", udpPort), "lm-flood", "test", "test", ReplyDelay.NONE, udpLimit);
    WsBeacon ws = new WsBeacon(WsBeaconConfig.of(new InetSocketAddress("0.0.0.0", wsPort)), InetAddress.getLoopbackAddress(),
        EchoDelay.NONE, System::nanoTime);
    System.out.println("beacons on udp " + udp.localAddress() + " and " + ws.url() + " (default limits per /24)");
    var memory = ManagementFactory.getMemoryMXBean();
    long t0 = System.nanoTime();
    while (true) {
      Thread.sleep(5_000);
      System.gc();
      WsBeacon.Counters c = ws.counters();
      System.out.printf(Locale.ROOT, "[%5.0f s] heap used %.1f MB; ws accepted %d open %d echoed %d rejected %s; udp answered %d "
          + "rate-limited %d, prefixes %d%n", (System.nanoTime() - t0) / 1e9, memory.getHeapMemoryUsage().getUsed() / 1e6,
          c.accepted(), c.open(), c.echoed(), c.rejected(), udp.responder().counters().answered(),
          udp.responder().counters().rateLimited(), udpLimit.size());
    }
  }

  /** A WebSocket whose received texts and close are queued. */
  private static final class Ws implements WebSocket.Listener {
    final ConcurrentLinkedQueue<String> texts = new ConcurrentLinkedQueue<>();
    final CompletableFuture<Integer> closed = new CompletableFuture<>();

    @Override
    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
      texts.add(data.toString());
      w.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
      closed.complete(code);
      return null;
    }

    @Override
    public void onError(WebSocket w, Throwable error) {
      closed.complete(-1);
    }
  }

  private static HttpClient from(String address) throws Exception {
    return HttpClient.newBuilder().localAddress(InetAddress.getByName(address)).connectTimeout(Duration.ofSeconds(5)).build();
  }

  private static void load(int wsPort, int udpPort, int quietSeconds, int floodSeconds, int attackers) throws Exception {
    URI url = URI.create("ws://127.0.0.1:" + wsPort + "/");
    InetSocketAddress udp = new InetSocketAddress("127.0.0.1", udpPort);
    ConcurrentLinkedQueue<long[]> wsRtts = new ConcurrentLinkedQueue<>(); // {start, rtt or -1}
    ConcurrentLinkedQueue<long[]> udpRtts = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    Ws[] listeners = new Ws[HONEST];
    WebSocket[] honestWs = new WebSocket[HONEST];
    DatagramSocket[] udpSockets = new DatagramSocket[HONEST];
    for (int h = 0; h < HONEST; h++) { // connected before the clock starts: the quiet phase is all measurement
      String address = "127.1." + (h + 1) + ".1";
      listeners[h] = new Ws();
      honestWs[h] = from(address).newWebSocketBuilder().buildAsync(url, listeners[h]).join();
      udpSockets[h] = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
      udpSockets[h].setSoTimeout(1000);
    }
    List<HttpClient> clients = new ArrayList<>();
    for (int i = 0; i < attackers; i++) clients.add(from("127.0.0." + (2 + i % 250)));
    long t0 = System.nanoTime();
    long floodStart = t0 + TimeUnit.SECONDS.toNanos(quietSeconds);
    long end = floodStart + TimeUnit.SECONDS.toNanos(floodSeconds);
    for (int h = 0; h < HONEST; h++) {
      Ws listener = listeners[h];
      WebSocket socket = honestWs[h];
      DatagramSocket datagrams = udpSockets[h];
      threads.add(Thread.ofPlatform().name("honest-" + h).start(() -> {
        byte[] buf = new byte[2048];
        long next = System.nanoTime();
        for (int i = 0; next < end; i++) {
          long start = System.nanoTime();
          String text = "p:" + i;
          socket.sendText(text, true).join();
          long deadline = start + TimeUnit.SECONDS.toNanos(1);
          String got = null;
          while (System.nanoTime() < deadline && !text.equals(got = listener.texts.poll())) Thread.onSpinWait();
          wsRtts.add(new long[] {start, text.equals(got) ? System.nanoTime() - start : -1});
          long u = System.nanoTime();
          try {
            datagrams.send(new DatagramPacket(GETINFO, GETINFO.length, udp));
            datagrams.receive(new DatagramPacket(buf, buf.length));
            udpRtts.add(new long[] {u, System.nanoTime() - u});
          } catch (SocketTimeoutException e) {
            udpRtts.add(new long[] {u, -1});
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          next += 1_000_000_000L / PER_SECOND;
          long wait = next - System.nanoTime();
          if (wait > 0) LockSupport.parkNanos(wait);
        }
        datagrams.close();
      }));
    }
    LockSupport.parkNanos(floodStart - System.nanoTime());
    AtomicLong wsOpened = new AtomicLong();
    AtomicLong wsRefused = new AtomicLong();
    AtomicLong pings = new AtomicLong();
    AtomicLong udpSent = new AtomicLong();
    AtomicLong udpAnswered = new AtomicLong();
    Thread ws = Thread.ofPlatform().name("flood-ws").start(() -> {
      for (int i = 0; System.nanoTime() < end; i++) {
        WebSocket w;
        try {
          w = clients.get(i % attackers).newWebSocketBuilder().buildAsync(url, new Ws()).get(2, TimeUnit.SECONDS);
        } catch (Exception e) {
          wsRefused.incrementAndGet();
          continue;
        }
        wsOpened.incrementAndGet();
        try {
          while (System.nanoTime() < end && !w.isOutputClosed() && !w.isInputClosed()) {
            w.sendPing(ByteBuffer.wrap(new byte[] {1})).get(1, TimeUnit.SECONDS);
            pings.incrementAndGet();
          }
        } catch (Exception closed) {
          // closed by the beacon (1008): open another
        }
        w.abort();
      }
    });
    Thread datagrams = Thread.ofPlatform().name("flood-udp").start(() -> {
      List<DatagramSocket> sockets = new ArrayList<>();
      try {
        for (int i = 0; i < Math.min(attackers, 250); i++) {
          DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.0." + (2 + i)), 0));
          s.setSoTimeout(1);
          sockets.add(s);
        }
        byte[] buf = new byte[2048];
        for (int i = 0; System.nanoTime() < end; i++) {
          DatagramSocket s = sockets.get(i % sockets.size());
          s.send(new DatagramPacket(GETINFO, GETINFO.length, udp));
          udpSent.incrementAndGet();
          try {
            s.receive(new DatagramPacket(buf, buf.length));
            udpAnswered.incrementAndGet();
          } catch (SocketTimeoutException e) {
            // dropped: over the rate
          }
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      } finally {
        sockets.forEach(DatagramSocket::close);
      }
    });
    for (Thread t : threads) t.join();
    ws.join();
    datagrams.join();
    System.out.printf(Locale.ROOT, "honest clients (%d, each its own /24, %d echoes and %d getinfo/s each):%n", HONEST, PER_SECOND,
        PER_SECOND);
    report("  websocket quiet", wsRtts, t0, floodStart);
    report("  websocket flood", wsRtts, floodStart, end);
    report("  udp quiet", udpRtts, t0, floodStart);
    report("  udp flood", udpRtts, floodStart, end);
    System.out.printf(Locale.ROOT, "attacker (%d addresses of 127.0.0.0/24, %d s): websocket %d connections opened, %d refused, "
        + "%d PINGs sent; udp %d getinfo sent, %d answered (%.1f/s)%n", attackers, floodSeconds, wsOpened.get(), wsRefused.get(),
        pings.get(), udpSent.get(), udpAnswered.get(), udpAnswered.get() / (double) floodSeconds);
  }

  private static void report(String phase, ConcurrentLinkedQueue<long[]> rtts, long from, long to) {
    long[] ok = rtts.stream().filter(r -> r[0] >= from && r[0] < to && r[1] >= 0).mapToLong(r -> r[1]).sorted().toArray();
    long lost = rtts.stream().filter(r -> r[0] >= from && r[0] < to && r[1] < 0).count();
    if (ok.length == 0) {
      System.out.println(phase + ": nothing answered, " + lost + " lost");
      return;
    }
    System.out.printf(Locale.ROOT, "%s: %d answered, p50 %.3f ms, p99 %.3f ms, max %.3f ms; %d lost%n", phase, ok.length,
        ok[ok.length / 2] / 1e6, ok[(int) Math.min(ok.length - 1, Math.ceil(ok.length * 0.99) - 1)] / 1e6, ok[ok.length - 1] / 1e6,
        lost);
  }
}
