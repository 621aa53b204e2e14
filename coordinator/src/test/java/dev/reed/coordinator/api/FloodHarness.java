package dev.reed.coordinator.api;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinator.location.ClientAddress;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.runtime.LoggedAddresses;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A flood on the HTTP face, bounded in time, server and load in separate processes on loopback.
 * {@code serve PORT [servers=36000] [rate=20]} runs the gRPC port's services behind the HTTP face
 * with the anonymous limit per network prefix, printing its heap and prefix table every 5 s.
 * {@code load HOST:PORT [quietSeconds=10] [floodSeconds=30] [attackers=200] [inFlight=64]}: honest
 * clients, each from its own /24 (127.1.N.1), call GetOrderedServers 5 times a second each
 * throughout; after the quiet phase one host floods from {@code attackers} addresses of 127.0.0.0/24
 * with {@code inFlight} calls always outstanding. Prints the honest clients' p50/p99 per phase, what
 * the attacker got through, and the honest calls refused (there should be none). {@code honest} and
 * {@code attack} (same arguments) run the two halves in processes of their own, as an attacker on a
 * machine of its own would: in one JVM the attacker's collections pause the honest clients' clocks.
 *
 * <pre>
 * ./reed bench coordinator dev.reed.coordinator.api.FloodHarness serve 47071 &amp;
 * ./reed bench coordinator dev.reed.coordinator.api.FloodHarness load 127.0.0.1:47071
 * </pre>
 */
public final class FloodHarness {
  private FloodHarness() {}

  private static final String BODY = "{\"client\":{\"components\":[120,80,40,20]},\"pageSize\":50}";
  private static final int HONEST = 4;
  private static final int HONEST_PER_SECOND = 5;

  public static void main(String[] a) throws Exception {
    if (a.length >= 2 && a[0].equals("serve")) {
      serve(Integer.parseInt(a[1]), a.length > 2 ? Integer.parseInt(a[2]) : 36_000, a.length > 3 ? Double.parseDouble(a[3]) : 20);
    } else if (a.length >= 2 && (a[0].equals("load") || a[0].equals("honest") || a[0].equals("attack"))) {
      load(a[1], arg(a, 2, 10), arg(a, 3, 30), a[0].equals("attack") ? 0 : HONEST, a[0].equals("honest") ? 0 : arg(a, 4, 200),
          arg(a, 5, 64));
    } else {
      System.err.println("usage: FloodHarness serve PORT [servers] [rate] | load|honest|attack HOST:PORT [quietSeconds] [floodSeconds]"
          + " [attackers] [inFlight]");
      System.exit(2);
    }
  }

  private static int arg(String[] a, int i, int dflt) {
    return a.length > i ? Integer.parseInt(a[i]) : dflt;
  }

  private static void serve(int port, int servers, double rate) throws Exception {
    ServingState state = GrpcLoadGenerator.world(servers, 4);
    ReedServiceImpl service = new ReedServiceImpl(ReedServiceImpl.Dependencies.of(() -> state, new CoordinateConfig(4, true),
        Clock.systemUTC()).withCalibration(Duration.ofMinutes(10), 0.15));
    AnonymousAccess anonymous = AnonymousAccess.of(rate, ClientAddress.trusting(List.of()), LoggedAddresses.HIDDEN, System::nanoTime);
    ApiServer grpc = ApiServer.start(new InetSocketAddress("127.0.0.1", 0), null, null, null, anonymous, List.of(service),
        m -> { }, m -> { });
    HttpApiServer http = HttpApiServer.start(new InetSocketAddress("0.0.0.0", port), List.of(),
        List.of(grpc.guard(ReedServiceGrpc.bindService(service))), anonymous);
    System.out.println("HTTP face on " + http.url() + ", " + servers + " servers, anonymous " + anonymous.describe());
    long t0 = System.nanoTime();
    while (true) {
      Thread.sleep(5_000);
      // the heap the last collection left, not garbage waiting for one; a System.gc() here paused the
      // server for 100+ ms every 5 s, which was most of the honest clients' p99 in both phases
      long afterGc = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
          .map(MemoryPoolMXBean::getCollectionUsage).filter(java.util.Objects::nonNull).mapToLong(MemoryUsage::getUsed).sum();
      System.out.printf(Locale.ROOT, "[%5.0f s] heap after the last collection %.1f MB, prefixes held %d, refused %d%n",
          (System.nanoTime() - t0) / 1e9, afterGc / 1e6, anonymous.buckets().size(), anonymous.buckets().refused());
    }
  }

  private static HttpClient from(String address) throws Exception {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).localAddress(InetAddress.getByName(address))
        .connectTimeout(Duration.ofSeconds(5)).build();
  }

  private static HttpRequest request(String target) {
    return HttpRequest.newBuilder(URI.create("http://" + target + "/reed.v1.ReedService/GetOrderedServers"))
        .header("content-type", "application/json").timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
  }

  private static void load(String target, int quietSeconds, int floodSeconds, int honestClients, int attackers, int inFlight)
      throws Exception {
    HttpRequest req = request(target);
    ConcurrentLinkedQueue<long[]> honest = new ConcurrentLinkedQueue<>(); // {startNanos, latencyNanos, status}
    long t0 = System.nanoTime();
    long floodStart = t0 + TimeUnit.SECONDS.toNanos(quietSeconds);
    long end = floodStart + TimeUnit.SECONDS.toNanos(floodSeconds);
    List<Thread> threads = new ArrayList<>();
    for (int h = 0; h < honestClients; h++) {
      HttpClient c = from("127.1." + (h + 1) + ".1");
      threads.add(Thread.ofPlatform().name("honest-" + h).start(() -> {
        long next = System.nanoTime();
        while (next < end) {
          long start = System.nanoTime();
          int status;
          try {
            status = c.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
          } catch (Exception e) {
            status = -1;
          }
          honest.add(new long[] {start, System.nanoTime() - start, status});
          next += 1_000_000_000L / HONEST_PER_SECOND;
          long wait = next - System.nanoTime();
          if (wait > 0) java.util.concurrent.locks.LockSupport.parkNanos(wait);
        }
      }));
    }
    AtomicLong sent = new AtomicLong();
    AtomicLong served = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    java.util.concurrent.locks.LockSupport.parkNanos(floodStart - System.nanoTime());
    List<HttpClient> attack = new ArrayList<>();
    for (int i = 0; i < attackers; i++) attack.add(from("127.0.0." + (2 + i % 250)));
    Semaphore window = new Semaphore(inFlight);
    for (long i = 0; attackers > 0 && System.nanoTime() < end; i++) {
      if (!window.tryAcquire(100, TimeUnit.MILLISECONDS)) continue;
      sent.incrementAndGet();
      attack.get((int) (i % attackers)).sendAsync(req, HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
        if (e != null) failed.incrementAndGet();
        else if (r.statusCode() == 200) served.incrementAndGet();
        else if (r.statusCode() == 429) refused.incrementAndGet();
        else failed.incrementAndGet();
        window.release();
      });
    }
    for (Thread t : threads) t.join();
    window.acquire(inFlight);
    if (honestClients > 0) {
      System.out.printf(Locale.ROOT, "honest clients (%d, each its own /24, %d calls/s each):%n", honestClients, HONEST_PER_SECOND);
      // the first seconds warm both JVMs' compilers up: slow for reasons no flood causes
      long warmUp = Math.min(TimeUnit.SECONDS.toNanos(5), (floodStart - t0) / 2);
      report("  quiet", honest, t0 + warmUp, floodStart);
      report("  flood", honest, floodStart, end);
    }
    if (attackers > 0) System.out.printf(Locale.ROOT, "attacker (%d addresses of 127.0.0.0/24, %d in flight): %d calls in %d s, %d served "
        + "(%.1f/s), %d refused (429), %d failed%n", attackers, inFlight, sent.get(), floodSeconds, served.get(),
        served.get() / (double) floodSeconds, refused.get(), failed.get());
  }

  private static void report(String phase, ConcurrentLinkedQueue<long[]> calls, long from, long to) {
    long[] ok = calls.stream().filter(c -> c[0] >= from && c[0] < to && c[2] == 200).mapToLong(c -> c[1]).sorted().toArray();
    long other = calls.stream().filter(c -> c[0] >= from && c[0] < to && c[2] != 200).count();
    if (ok.length == 0) {
      System.out.println(phase + ": no call served, " + other + " refused or failed");
      return;
    }
    System.out.printf(Locale.ROOT, "%s: %d calls, p50 %.2f ms, p99 %.2f ms, max %.2f ms; %d refused or failed%n", phase, ok.length,
        ok[ok.length / 2] / 1e6, ok[(int) Math.min(ok.length - 1, Math.ceil(ok.length * 0.99) - 1)] / 1e6,
        ok[ok.length - 1] / 1e6, other);
  }

}
