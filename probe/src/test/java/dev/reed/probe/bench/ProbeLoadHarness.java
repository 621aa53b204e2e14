package dev.reed.probe.bench;

import dev.reed.probe.ProbeCounters;
import dev.reed.probe.ProbeEngine;
import dev.reed.probe.ProbeTarget;
import dev.reed.proto.v1.GameProtocol;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Load generator for the probe engine through loopback servers (a load harness rather than JMH:
 * the quantities are sustained probes/s and RTT error distributions of a multi-threaded system).
 *
 * <pre>
 * ./mvnw -q -B -pl probe test-compile dependency:build-classpath -Dmdep.includeScope=test \
 *   -Dmdep.outputFile=$PWD/probe/target/bench.cp
 * java -XX:+UseZGC -cp probe/target/test-classes:probe/target/classes:$(cat probe/target/bench.cp) \
 *   dev.reed.probe.bench.ProbeLoadHarness mode=accuracy rate=5000 seconds=20
 * ./mvnw -q -pl probe exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.reed.probe.bench.ProbeLoadHarness -Dexec.args="mode=throughput rate=25000 seconds=20"
 * ./mvnw -q -pl probe exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.reed.probe.bench.ProbeLoadHarness -Dexec.args="mode=accuracy rate=5000 seconds=20"
 * </pre>
 *
 * Options (key=value): mode (throughput | accuracy), rate (engine probes/s), seconds (measured
 * window, after a 3 s warm-up), targets, protocol (quake3 | a2s), spacingMs (per-target spacing),
 * delaysMs (accuracy: comma-separated injected delays, cycled over the targets).
 */
public final class ProbeLoadHarness {
  private ProbeLoadHarness() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = new HashMap<>();
    for (String a : args) {
      String[] kv = a.split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException("expected key=value, got " + a);
      }
      o.put(kv[0], kv[1]);
    }
    String mode = o.getOrDefault("mode", "throughput");
    boolean accuracy = mode.equals("accuracy");
    double rate = Double.parseDouble(o.getOrDefault("rate", accuracy ? "5000" : "25000"));
    int seconds = Integer.parseInt(o.getOrDefault("seconds", "20"));
    GameProtocol protocol = o.getOrDefault("protocol", "quake3").equals("a2s")
        ? GameProtocol.GAME_PROTOCOL_A2S : GameProtocol.GAME_PROTOCOL_QUAKE3;
    long spacingMs = Long.parseLong(o.getOrDefault("spacingMs", accuracy ? "1100" : "0"));
    long[] delaysMs = Arrays.stream(o.getOrDefault("delaysMs", accuracy ? "1,2,5,10,20,40" : "0").split(","))
        .mapToLong(Long::parseLong).toArray();
    int targets = Integer.parseInt(o.getOrDefault("targets",
        accuracy ? Integer.toString((int) Math.ceil(rate * (spacingMs / 1000.0 + 0.2)) + 100) : "256"));
    int warmup = 3;

    long[] delayNanos = new long[targets];
    for (int i = 0; i < targets; i++) {
      delayNanos[i] = TimeUnit.MILLISECONDS.toNanos(delaysMs[i % delaysMs.length]);
    }
    int maxHolds = (int) Math.min(1_000_000, (long) (rate * (seconds + warmup + 2) / targets) * 3 + 10);
    System.out.printf("mode=%s rate=%.0f/s seconds=%d targets=%d protocol=%s spacing=%d ms delays=%s ms load=%s%n",
        mode, rate, seconds, targets, protocol, spacingMs, Arrays.toString(delaysMs), loadAverage());

    try (LoopbackServers servers = new LoopbackServers(delayNanos, maxHolds);
         ProbeEngine engine = ProbeEngine.builder().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
             .rate(rate).perTargetSpacing(Duration.ofMillis(spacingMs)).maxOutstanding(10_000).build()) {
      List<ProbeTarget> list = new ArrayList<>();
      for (InetSocketAddress a : servers.addresses()) {
        list.add(new ProbeTarget(a, protocol));
      }
      Map<InetSocketAddress, Integer> index = new HashMap<>();
      for (int i = 0; i < list.size(); i++) {
        index.put(list.get(i).address(), i);
      }
      // per target, RTTs in completion order (completions run on one thread, in order per target)
      Map<Integer, ConcurrentLinkedQueue<long[]>> measured = new ConcurrentHashMap<>();
      long measureFrom = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmup);
      long end = measureFrom + TimeUnit.SECONDS.toNanos(seconds);

      // Keeps a bounded backlog queued and sleeps 1 ms in between instead of blocking in probe()
      // on every freed slot: one wake-up per millisecond, not one per completed probe, so the
      // generator steals as little CPU from the engine as possible on this 2-core machine.
      long highWater = (long) Math.min(9_000, Math.max(100, rate));
      Thread producer = Thread.ofPlatform().name("bench-producer").start(() -> {
        int i = 0;
        while (System.nanoTime() < end) {
          if (engine.counters().outstanding() >= highWater) {
            LockSupport.parkNanos(1_000_000);
            continue;
          }
          ProbeTarget t = list.get(i++ % list.size());
          int ti = index.get(t.address());
          var f = engine.probe(t);
          if (accuracy) {
            f.thenAccept(r -> measured.computeIfAbsent(ti, k -> new ConcurrentLinkedQueue<>())
                .add(new long[] {r.ok() ? r.rttNanos() : -1, System.nanoTime()}));
          }
        }
      });

      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(measureFrom - System.nanoTime()));
      ProbeCounters start = engine.counters();
      long t0 = System.nanoTime();
      ProbeCounters prev = start;
      for (int s = 1; s <= seconds; s++) {
        Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(t0 + TimeUnit.SECONDS.toNanos(s) - System.nanoTime())));
        ProbeCounters c = engine.counters();
        System.out.printf("  t=%2ds sent/s %6d replies/s %6d timeouts %d errors %d outstanding %d%n", s,
            c.sent() - prev.sent(), c.replies() - prev.replies(), c.timeouts() - prev.timeouts(),
            c.errors() - prev.errors(), c.outstanding());
        prev = c;
      }
      ProbeCounters stop = engine.counters();
      double elapsed = (System.nanoTime() - t0) / 1e9;
      producer.join();
      long drainUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      while (engine.counters().outstanding() > 0 && System.nanoTime() < drainUntil) {
        Thread.sleep(50);
      }
      Thread.sleep(200);
      ProbeCounters fin = engine.counters();
      System.out.printf("RESULT sustained replies %.0f/s (sent %.0f/s) over %.1f s; timeouts %d errors %d unexpected %d"
              + " malformed %d in window; load %s%n",
          (stop.replies() - start.replies()) / elapsed, (stop.sent() - start.sent()) / elapsed, elapsed,
          stop.timeouts() - start.timeouts(), stop.errors() - start.errors(), fin.unexpected(), fin.malformed(),
          loadAverage());

      if (accuracy) {
        reportAccuracy(servers, list.size(), delayNanos, measured, measureFrom, end);
      }
    }
  }

  private static void reportAccuracy(LoopbackServers servers, int targets, long[] delayNanos,
      Map<Integer, ConcurrentLinkedQueue<long[]>> measured, long from, long to) {
    List<Long> vsNominal = new ArrayList<>();
    List<Long> vsHold = new ArrayList<>();
    int seconds = (int) ((to - from) / 1_000_000_000L) + 1;
    int[] lateBySecond = new int[seconds];
    int skippedTargets = 0;
    for (int i = 0; i < targets; i++) {
      List<long[]> results = new ArrayList<>(measured.getOrDefault(i, new ConcurrentLinkedQueue<>()));
      long[] holds = servers.holds(i);
      boolean allOk = results.stream().allMatch(r -> r[0] >= 0);
      boolean paired = allOk && holds.length == results.size();
      if (!paired) {
        skippedTargets++;
      }
      for (int k = 0; k < results.size(); k++) {
        long[] r = results.get(k);
        if (r[0] < 0 || r[1] < from || r[1] > to) {
          continue;
        }
        vsNominal.add(r[0] - delayNanos[i]);
        if (paired) {
          vsHold.add(r[0] - holds[k]);
          if (r[0] - holds[k] > 300_000) {
            lateBySecond[(int) ((r[1] - from) / 1_000_000_000L)]++;
          }
        }
      }
    }
    System.out.println("RTT error = measured RTT - injected delay (loopback transit, responder timer lateness and "
        + "engine timestamping all count as error):");
    print("  vs nominal delay      ", vsNominal);
    System.out.println("RTT error = measured RTT - actual responder hold (receive to send, same clock; the prober's "
        + "own error plus loopback transit):");
    print("  vs actual reply hold  ", vsHold);
    System.out.println("  probes with error > 0.3 ms (vs hold), per second of the window: " + Arrays.toString(lateBySecond));
    if (skippedTargets > 0) {
      System.out.println("  (" + skippedTargets + " targets had a timeout or unmatched count and are left out of the "
          + "paired figures)");
    }
  }

  private static void print(String label, List<Long> errs) {
    if (errs.isEmpty()) {
      System.out.println(label + "no samples");
      return;
    }
    long[] a = errs.stream().mapToLong(Long::longValue).sorted().toArray();
    System.out.printf("%s n=%d  p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  p99.9 %.3f ms  max %.3f ms  min %.3f ms%n",
        label, a.length, ms(pct(a, 0.5)), ms(pct(a, 0.9)), ms(pct(a, 0.99)), ms(pct(a, 0.999)), ms(a[a.length - 1]),
        ms(a[0]));
  }

  private static long pct(long[] sorted, double q) {
    return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (Exception e) {
      return "unknown";
    }
  }
}
