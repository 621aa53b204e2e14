package dev.reed.cli.scale;

import dev.reed.coordinator.CoordinatorConfig;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.GetOrderedServersRequest;
import dev.reed.proto.v1.ReedServiceGrpc;
import dev.reed.testbed.kafka.EmbeddedKafka;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * One step of the scale harness: a broker (embedded or given), the synthetic feed publishing T x L
 * samples a round at the agents' cadence, R coordinator replicas as separate processes sharing the
 * sample partitions, and the measurements of {@link ScaleResult}, taken every half second. The
 * phases: start and wait until the replicas read the landmarks; {@code rounds} steady rounds with
 * the query load from the first served round on; a check that every sample was counted once and
 * every target is served; then, the feed still running, SIGKILL one replica (a follower when there
 * are several) and time until its partitions are served again, and start it again and time until it
 * serves. Everything started here is stopped at the end, also on failure.
 */
final class ScaleRun {
  private static final long TICK_MILLIS = 500;

  private final ScaleSettings s;
  private final PrintStream out;
  private final List<ScaleResult.Tick> ticks = new CopyOnWriteArrayList<>();
  private final long t0 = System.nanoTime();
  private final List<Monitor> monitors = new ArrayList<>();
  private final List<Thread> hooks = new ArrayList<>();

  ScaleRun(ScaleSettings settings, PrintStream out) {
    this.s = settings;
    this.out = out;
  }

  private double now() {
    return (System.nanoTime() - t0) / 1e9;
  }

  private void progress(String fmt, Object... args) {
    out.printf(Locale.ROOT, "[%6.1f s] %s%n", now(), String.format(Locale.ROOT, fmt, args));
    out.flush();
  }

  /**
   * Deletes what an earlier run left in the output directory: its broker's data, the replicas'
   * index checkpoints and logs, the leader lock. Left in place, a run measured a restart instead of
   * a first round: replicas served the old checkpoint, the broker kept the old samples, and the
   * consumer group replayed the last minutes of them (counted twice, round 1 several times slower).
   * Only the names this harness writes are deleted, so {@code --out} may point at a shared directory.
   *
   * @return whether there was anything to delete
   */
  static boolean clearPreviousRun(Path out) throws IOException {
    Path kafka = out.resolve("kafka");
    boolean any = Files.exists(kafka);
    if (any) {
      try (Stream<Path> tree = Files.walk(kafka)) {
        for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
      }
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(out,
        "{replica-*,serving-*,query-load*,leader.lock}")) {
      for (Path p : files) {
        if (Files.isRegularFile(p)) {
          Files.delete(p);
          any = true;
        }
      }
    }
    return any;
  }

  ScaleResult run() throws Exception {
    Files.createDirectories(s.out());
    if (clearPreviousRun(s.out())) {
      progress("cleared the previous run's broker data, index checkpoints and logs in %s", s.out());
    }
    EmbeddedKafka broker = null;
    List<ReplicaProcess> replicas = new ArrayList<>();
    List<ReplicaProcess> serving = new ArrayList<>();
    List<ReplicaProcess> all = new ArrayList<>(); // both kinds, in start order
    Publisher publisher = null;
    KafkaProducer<byte[], byte[]> producer = null;
    try {
      String bootstrap = s.bootstrap();
      if (bootstrap == null) {
        // the broker stands for a Kafka cluster on other machines, as the feed below for the agents: started
        // from a MIN_PRIORITY thread, its threads inherit nice 10 under ./reed scale and take the CPU the
        // coordinators leave (the replicas, spawned from this thread, keep nice 0). At nice 0 it shared the
        // replicas' cores with their queries (docs/research/scale.md)
        java.util.concurrent.FutureTask<EmbeddedKafka> starting =
            new java.util.concurrent.FutureTask<>(() -> new EmbeddedKafka(0, s.out().resolve("kafka"), true).start());
        Thread.ofPlatform().name("broker-start").priority(Thread.MIN_PRIORITY).start(starting);
        broker = started(starting);
        bootstrap = broker.bootstrapServers();
        progress("embedded broker on %s (data %s), its threads at the lowest priority", bootstrap, broker.dataDir());
      }
      long tw = System.nanoTime();
      SyntheticFeed feed = new SyntheticFeed(new SyntheticFeed.Plan(s.targets(), s.landmarks(), s.timeoutRate(), 2.0, 19));
      progress("world of %,d targets x %d landmarks built in %.1f s", s.targets(), s.landmarks(),
          (System.nanoTime() - tw) / 1e9);
      // the feed stands for agents on other machines: its thread and the producer's network thread (which
      // inherits its creator's priority) run at MIN_PRIORITY (nice 10 under ./reed scale), so that here it
      // takes the CPU the coordinators leave instead of competing with their queries
      String target = bootstrap;
      java.util.concurrent.FutureTask<KafkaProducer<byte[], byte[]>> create =
          new java.util.concurrent.FutureTask<>(() -> SyntheticFeed.producer(target));
      Thread.ofPlatform().name("feed-producer").priority(Thread.MIN_PRIORITY).start(create);
      producer = started(create);
      feed.announce(producer, s.round().toMillis());
      Path lease = s.out().resolve("leader.lock");
      // Ctrl-C or SIGTERM of the harness must not leave replica processes behind
      Thread cleanup = new Thread(() -> all.forEach(r -> {
        if (r.alive()) ProcessHandle.of(r.pid()).ifPresent(ProcessHandle::destroyForcibly);
      }));
      Runtime.getRuntime().addShutdownHook(cleanup);
      hooks.add(cleanup);
      for (int i = 1; i <= s.replicas() + s.servingReplicas(); i++) {
        boolean serveOnly = i > s.replicas();
        ReplicaProcess r = new ReplicaProcess(serveOnly ? i - s.replicas() : i, serveOnly, bootstrap, s.out(), s.replicaHeap(),
            s.replicaGcOptions(), s.coordinatorRound(), s.replay(), lease);
        r.start();
        (serveOnly ? serving : replicas).add(r);
        all.add(r);
      }
      progress("started %d coordinator replica(s)%s, -Xmx%s each, round interval %s", replicas.size(),
          serving.isEmpty() ? "" : " and " + serving.size() + " serving replica(s) (--serve-only)", s.replicaHeap(),
          s.coordinatorRound());
      awaitCondition("replicas up with " + s.landmarks() + " landmarks", Duration.ofSeconds(120), () -> {
        for (ReplicaProcess r : all) {
          Double lm = r.metrics().get("reed_index_landmarks");
          if (lm == null) return false;
        }
        return true;
      });
      List<Long> baselineHeap = new ArrayList<>();
      for (ReplicaProcess r : replicas) baselineHeap.add(r.heapAfterGcBytes());

      try (GroupLag lag = new GroupLag(bootstrap, CoordinatorConfig.Kafka.DEFAULT_GROUP_ID);
          QueryLoad queries = new QueryLoad((serving.isEmpty() ? replicas : serving).stream().map(ReplicaProcess::grpcTarget)
              .toList(), s.queryRate(), s.pageSize(), 4, s.queryWarmup(), s.out().resolve("query-load.log"))) {
        long queriesFrom = System.nanoTime();
        if (s.queryRate() > 0) {
          // queries run from before the first sample on, as on a deployment that serves while it ingests, and the
          // load generator's JVM start and warm-up come before round 1: started at round 1's end (until the seventh
          // pass) they took about a core from the positioning round 1's served time waits for, and started with
          // round 1 they took it from the first embedding (docs/research/scale.md)
          queries.start();
          progress("query load started in its own JVM: %.0f GetOrderedServers/s, pages of %d, round robin over the %s "
              + "(first %d s not measured: warm-up, before the first sample; round 1's figures are reported apart, the "
              + "summary's are from round 2 on)", s.queryRate(), s.pageSize(), serving.isEmpty() ? "replicas" : "serving replicas",
              s.queryWarmup().toSeconds());
        }
        // samples published while the group still rebalances would be replayed by a partition's next
        // owner and counted twice; the invariant needs a settled group first: every member joined, every
        // partition held, and the same assignment for 5 s (a cooperative rebalance moves partitions in
        // two steps, the first of which already looks complete)
        String[] settled = {""};
        long[] since = {0};
        awaitCondition("consumer group stable: " + s.replicas() + " member(s) hold all "
            + dev.reed.proto.Topic.SAMPLES.partitions() + " sample partitions", Duration.ofSeconds(120), () -> {
          GroupLag.State g = lag.read();
          if (g.members() != s.replicas() || g.assigned() != dev.reed.proto.Topic.SAMPLES.partitions()) return false;
          if (!g.assignment().equals(settled[0])) {
            settled[0] = g.assignment();
            since[0] = System.nanoTime();
            return false;
          }
          return System.nanoTime() - since[0] >= 5_000_000_000L;
        });
        Monitor monitor = new Monitor(replicas, lag);
        monitors.add(monitor);
        if (s.queryRate() > 0) {
          long left = s.queryWarmup().toNanos() - (System.nanoTime() - queriesFrom);
          if (left > 0) TimeUnit.NANOSECONDS.sleep(left);
          queries.take(); // what came back before the first sample is not round 1's
        }
        publisher = new Publisher(feed, producer, s.rounds() + (s.killAndRestart() ? 3 : 0));
        publisher.start();
        List<ScaleResult.RoundFigures> rounds = new ArrayList<>();
        List<QueryLoad.Window> queryWindows = new ArrayList<>();
        for (int round = 1; round <= s.rounds(); round++) {
          Publisher.RoundEnd end = publisher.awaitRound(round, s.round().multipliedBy(4).plusMinutes(2));
          progress("round %d published: %,d samples in %.1f s (%,.0f samples/s offered)", round, end.samples(),
              end.seconds(), end.samples() / end.seconds());
          QueryLoad.Window w = s.queryRate() > 0 ? queries.take() : null;
          // round 1 serves from an index still filling, with the first embedding: its queries are not the steady figure
          if (w != null && round > 1) queryWindows.add(w);
          double served = monitor.awaitServed(end, feed.targets(), s.round().multipliedBy(3));
          if (w != null) {
            progress("round %d: all %,d targets served %.1f s after the round's last sample; queries %,.0f req/s p50 %.2f ms "
                + "p99 %.2f ms errors %d%s", round, feed.targets(), served, w.rate(), w.quantileMs(0.5), w.quantileMs(0.99),
                w.errors(), w.errors() > 0 ? " (the first: " + queries.firstError() + ")" : "");
          } else {
            progress("round %d: all %,d targets served %.1f s after the round's last sample", round, feed.targets(), served);
          }
          rounds.add(new ScaleResult.RoundFigures(round, end.samples(), end.seconds(), served, w));
        }
        // invariants at the end of the steady phase: wait until the feed's count is ingested
        long publishedNow = publisher.awaitQuiet();
        monitor.awaitIngested(publishedNow, Duration.ofMinutes(2));
        Map<Integer, Map<String, Double>> m = monitor.scrapeAll();
        long counted = 0;
        long dead = 0;
        boolean allServed = true;
        for (ReplicaProcess r : replicas) {
          Map<String, Double> mr = m.get(r.index());
          counted += mr.getOrDefault("reed_ingest_samples_total", 0.0).longValue();
          dead += mr.getOrDefault("reed_dead_letters_total", 0.0).longValue();
          if (mr.getOrDefault("reed_index_servers", 0.0).intValue() != feed.targets()) allServed = false;
        }
        List<ScaleResult.ServingFigures> servingFigures = new ArrayList<>();
        for (ReplicaProcess r : serving) {
          int servers = r.metrics().getOrDefault("reed_index_servers", 0.0).intValue();
          if (servers != feed.targets()) allServed = false;
          long heap = r.heapAfterGcBytes();
          long rss = r.rssBytes();
          servingFigures.add(new ScaleResult.ServingFigures(r.index(), servers, heap, rss));
          progress("serving replica %d: %,d servers in its index, heap after GC %,d MB, RSS %,d MB", r.index(), servers,
              heap >> 20, rss >> 20);
        }
        progress("steady phase: published %,d samples, coordinators counted %,d, dead letters %d, every replica serves "
            + "all %,d targets: %s", publishedNow, counted, dead, feed.targets(), allServed);
        List<ScaleResult.ReplicaFigures> memory = new ArrayList<>();
        long windowBytes = 0;
        for (ReplicaProcess r : replicas) {
          Map<String, Double> mr = m.get(r.index());
          long heap = r.heapAfterGcBytes();
          long rss = r.rssBytes();
          long wb = mr.getOrDefault("reed_window_bytes", 0.0).longValue();
          windowBytes += wb;
          memory.add(new ScaleResult.ReplicaFigures(r.index(), mr.getOrDefault("reed_leader", 0.0) > 0,
              mr.getOrDefault("reed_window_targets", 0.0).intValue(), wb, heap, baselineHeap.get(r.index() - 1), rss));
          progress("replica %d: %,d targets in windows (%,d window bytes), heap after GC %,d MB (%,d MB at start), RSS %,d MB",
              r.index(), mr.getOrDefault("reed_window_targets", 0.0).intValue(), wb, heap >> 20,
              baselineHeap.get(r.index() - 1) >> 20, rss >> 20);
        }
        QueryLoad.Window allQueries = QueryLoad.Window.merge(queryWindows);
        queryWindows.clear();

        double steadyEnd = now();
        long sampleLogBytes = broker == null ? -1 : sampleLogBytes(broker.dataDir());
        if (sampleLogBytes >= 0) {
          progress("reed.samples on the broker's disk: %,d bytes, %.1f bytes per sample (lz4 batches)", sampleLogBytes,
              (double) sampleLogBytes / publishedNow);
        }
        ScaleResult.Failover failover = null;
        if (s.killAndRestart()) {
          publisher.resume();
          failover = failover(replicas, monitor, feed.targets());
        }
        publisher.stop();
        return new ScaleResult(s, feed.samplesPerRound(), rounds, publishedNow, counted, dead, allServed, memory,
            servingFigures, windowBytes, allQueries, failover, List.copyOf(ticks), uptime(), steadyEnd, sampleLogBytes);
      } finally {
        if (publisher != null) publisher.stop();
      }
    } finally {
      for (Monitor m : monitors) m.close();
      for (ReplicaProcess r : all) r.close();
      for (Thread h : hooks) Runtime.getRuntime().removeShutdownHook(h);
      if (producer != null) producer.close(Duration.ofSeconds(5)); // before the broker: its threads would retry it forever
      if (broker != null) broker.close();
    }
  }

  private ScaleResult.Failover failover(List<ReplicaProcess> replicas, Monitor monitor, int targets) throws Exception {
    ReplicaProcess victim = replicas.getFirst();
    if (replicas.size() > 1) {
      for (ReplicaProcess r : replicas) {
        if (r.metrics().getOrDefault("reed_leader", 0.0) == 0) {
          victim = r;
          break;
        }
      }
    }
    List<ReplicaProcess> survivors = replicas.stream().filter(r -> r.alive()).toList();
    int victimTargets = victim.metrics().getOrDefault("reed_window_targets", 0.0).intValue();
    long k0 = System.nanoTime();
    victim.kill();
    progress("SIGKILLed replica %d (%,d targets in its windows)", victim.index(), victimTargets);
    double shareServed = -1;
    if (replicas.size() > 1) {
      List<ReplicaProcess> live = new ArrayList<>(survivors);
      live.remove(victim);
      shareServed = monitor.awaitShareServed(live, targets, k0, Duration.ofMinutes(2));
      progress("its partitions were served again %.1f s after the kill (all %,d targets in the survivors' windows and "
          + "positioned)", shareServed, targets);
    }
    victim.start();
    double restart = monitor.awaitRestartServing(victim, targets, Duration.ofMinutes(2));
    progress("replica %d started again: serving all %,d targets %.1f s after the process started", victim.index(), targets,
        restart);
    if (replicas.size() == 1) {
      shareServed = monitor.awaitShareServed(List.of(victim), targets, k0, Duration.ofMinutes(2));
      progress("its partitions were served again %.1f s after the kill (restart included)", shareServed);
    }
    return new ScaleResult.Failover(victim.index(), victimTargets, shareServed, restart);
  }

  private void awaitCondition(String what, Duration timeout, java.util.function.BooleanSupplier ok)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ok.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
      Thread.sleep(TICK_MILLIS);
    }
    progress("%s", what);
  }

  /** What a task started on a thread of its own returned, or the task's own exception. */
  private static <T> T started(java.util.concurrent.FutureTask<T> task) throws Exception {
    try {
      return task.get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception x ? x : e;
    }
  }

  /** Bytes of reed.samples' log segments in the embedded broker's data directory. */
  private static long sampleLogBytes(Path dataDir) throws IOException {
    long n = 0;
    try (var dirs = Files.list(dataDir)) {
      for (Path d : dirs.filter(p -> p.getFileName().toString().startsWith(dev.reed.proto.Topic.SAMPLES.name() + "-")).toList()) {
        try (var files = Files.list(d)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) n += Files.size(f);
        }
      }
    }
    return n;
  }

  private static String uptime() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Publishes rounds back to back on its own thread and notes when each one's last sample was acknowledged. */
  final class Publisher {
    record RoundEnd(int round, long endNanos, long samples, double seconds, long publishedTotal) {}

    private final SyntheticFeed feed;
    private final KafkaProducer<byte[], byte[]> producer;
    private final int rounds;
    private final List<RoundEnd> ends = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.CountDownLatch resume = new java.util.concurrent.CountDownLatch(1);
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Exception failure;

    Publisher(SyntheticFeed feed, KafkaProducer<byte[], byte[]> producer, int rounds) {
      this.feed = feed;
      this.producer = producer;
      this.rounds = rounds;
      this.thread = Thread.ofPlatform().name("feed").priority(Thread.MIN_PRIORITY).daemon().unstarted(this::run);
    }

    void start() {
      thread.start();
    }

    private void run() {
      try {
        for (int r = 1; r <= rounds && !stopped; r++) {
          if (r == s.rounds() + 1) resume.await();
          long b = System.nanoTime();
          feed.publishRound(producer, r, s.round().toMillis(), System::nanoTime, slice -> {});
          long e = System.nanoTime();
          ends.add(new RoundEnd(r, e, feed.samplesPerRound(), (e - b) / 1e9, feed.published()));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        failure = e;
      }
    }

    RoundEnd awaitRound(int round, Duration timeout) throws Exception {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (ends.size() < round) {
        if (failure != null) throw failure;
        if (System.nanoTime() > deadline) throw new IllegalStateException("round " + round + " not published within " + timeout);
        Thread.sleep(50);
      }
      return ends.get(round - 1);
    }

    /**
     * Waits for the steady rounds to be published; the feed then holds the next round back until
     * {@link #resume}, so the count returned is exact. Returns the samples published so far.
     */
    long awaitQuiet() throws Exception {
      return awaitRound(s.rounds(), s.round().multipliedBy(4).plusMinutes(2)).publishedTotal();
    }

    void resume() {
      resume.countDown();
    }

    void stop() throws InterruptedException {
      stopped = true;
      thread.interrupt();
      thread.join(10_000);
    }
  }

  /** Reads every replica and the group every half second on its own thread; answers the phases' questions. */
  final class Monitor implements AutoCloseable {
    record Scrape(double t, Map<Integer, Map<String, Double>> metrics, int assigned) {}

    private final List<ReplicaProcess> replicas;
    private final GroupLag lag;
    private final Map<Integer, Double> lastIngested = new java.util.HashMap<>();
    private double lastTick = -1;
    private volatile Scrape latest;
    private final Thread thread;
    private volatile boolean closed;

    Monitor(List<ReplicaProcess> replicas, GroupLag lag) {
      this.replicas = replicas;
      this.lag = lag;
      latest = tick();
      thread = Thread.ofPlatform().name("monitor").daemon().start(() -> {
        while (!closed) {
          try {
            Thread.sleep(TICK_MILLIS);
          } catch (InterruptedException e) {
            return;
          }
          latest = tick();
        }
      });
    }

    Map<Integer, Map<String, Double>> scrapeAll() {
      Map<Integer, Map<String, Double>> m = new java.util.HashMap<>();
      for (ReplicaProcess r : replicas) m.put(r.index(), r.metrics());
      return m;
    }

    private Scrape tick() {
      Map<Integer, Map<String, Double>> m = scrapeAll();
      GroupLag.State g = lag.read();
      double t = now();
      List<ScaleResult.ReplicaTick> rt = new ArrayList<>();
      for (ReplicaProcess r : replicas) {
        Map<String, Double> mr = m.get(r.index());
        double ingested = mr.getOrDefault("reed_ingest_samples_total", Double.NaN);
        Double prev = lastIngested.get(r.index());
        double rate = prev == null || lastTick < 0 || Double.isNaN(ingested) ? Double.NaN
            : Math.max(0, (ingested - prev) / (t - lastTick));
        if (!Double.isNaN(ingested)) lastIngested.put(r.index(), ingested);
        else lastIngested.remove(r.index());
        rt.add(new ScaleResult.ReplicaTick(r.index(), r.alive(), ingested, rate,
            mr.getOrDefault("jvm_memory_used_bytes", Double.NaN), r.rssBytes(),
            mr.getOrDefault("reed_index_servers", Double.NaN), mr.getOrDefault("reed_window_targets", Double.NaN),
            mr.getOrDefault("reed_rounds_total", Double.NaN)));
      }
      lastTick = t;
      ticks.add(new ScaleResult.Tick(t, g.lag(), g.assigned(), rt));
      return new Scrape(t, m, g.assigned());
    }

    /** The next scrape that started after this call. */
    private Scrape next() throws InterruptedException {
      double after = now();
      Scrape sc = latest;
      while (sc.t() <= after) {
        Thread.sleep(50);
        sc = latest;
      }
      return sc;
    }

    private long sum(Map<Integer, Map<String, Double>> m, List<ReplicaProcess> which, String name) {
      long n = 0;
      for (ReplicaProcess r : which) n += m.get(r.index()).getOrDefault(name, 0.0).longValue();
      return n;
    }

    /**
     * Seconds from the round's last sample until (a) the coordinators ingested every sample
     * published up to then, (b) every replica completed a positioning round after that, which
     * started after the last sample entered its windows (ingest and rounds share one thread), and
     * (c) every replica's index holds all targets. -1 if not within the timeout.
     */
    double awaitServed(Publisher.RoundEnd end, int targets, Duration timeout) throws InterruptedException {
      long deadline = end.endNanos() + timeout.toNanos();
      Map<Integer, Double> roundsAtIngest = null;
      while (System.nanoTime() < deadline) {
        Map<Integer, Map<String, Double>> m = next().metrics();
        if (roundsAtIngest == null) {
          if (sum(m, replicas, "reed_ingest_samples_total") >= end.publishedTotal()) {
            roundsAtIngest = new java.util.HashMap<>();
            for (ReplicaProcess r : replicas) roundsAtIngest.put(r.index(), m.get(r.index()).getOrDefault("reed_rounds_total", 0.0));
          }
          continue;
        }
        boolean done = true;
        for (ReplicaProcess r : replicas) {
          Map<String, Double> mr = m.get(r.index());
          if (mr.getOrDefault("reed_rounds_total", 0.0) <= roundsAtIngest.get(r.index())
              || mr.getOrDefault("reed_index_servers", 0.0) < targets) done = false;
        }
        if (done) return (System.nanoTime() - end.endNanos()) / 1e9;
      }
      progress("round %d: not all targets served within %s of its end", end.round(), timeout);
      return -1;
    }

    void awaitIngested(long published, Duration timeout) throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        if (sum(next().metrics(), replicas, "reed_ingest_samples_total") >= published) return;
      }
    }

    /**
     * Seconds from the kill until the live replicas hold every partition and every target in their
     * windows, and each completed a positioning round after that. -1 if not within the timeout.
     */
    double awaitShareServed(List<ReplicaProcess> live, int targets, long killNanos, Duration timeout)
        throws InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      Map<Integer, Double> roundsAt = null;
      while (System.nanoTime() < deadline) {
        Scrape sc = next();
        Map<Integer, Map<String, Double>> m = sc.metrics();
        if (roundsAt == null) {
          if (sc.assigned() == dev.reed.proto.Topic.SAMPLES.partitions() && sum(m, live, "reed_window_targets") >= targets) {
            roundsAt = new java.util.HashMap<>();
            for (ReplicaProcess r : live) roundsAt.put(r.index(), m.get(r.index()).getOrDefault("reed_rounds_total", 0.0));
          }
          continue;
        }
        boolean done = true;
        for (ReplicaProcess r : live) {
          if (m.get(r.index()).getOrDefault("reed_rounds_total", 0.0) <= roundsAt.get(r.index())) done = false;
        }
        if (done) return (System.nanoTime() - killNanos) / 1e9;
      }
      return -1;
    }

    /** Seconds from the process start until its gRPC port answers over an index of every target; -1 if not in time. */
    double awaitRestartServing(ReplicaProcess r, int targets, Duration timeout) throws InterruptedException {
      long deadline = r.startedNanos() + timeout.toNanos();
      ManagedChannel ch = ManagedChannelBuilder.forTarget(r.grpcTarget()).usePlaintext().build();
      try {
        GetOrderedServersRequest q = GetOrderedServersRequest.newBuilder()
            .setClient(Coordinate.newBuilder().addComponents(0).addComponents(0).addComponents(0).addComponents(0))
            .setPageSize(1).build();
        while (System.nanoTime() < deadline) {
          try {
            int total = ReedServiceGrpc.newBlockingStub(ch).withDeadlineAfter(1, TimeUnit.SECONDS).getOrderedServers(q)
                .getTotalMatching();
            if (total >= targets) return (System.nanoTime() - r.startedNanos()) / 1e9;
          } catch (io.grpc.StatusRuntimeException e) {
            // not listening yet, or the index is still being read
          }
          Thread.sleep(100);
        }
        return -1;
      } finally {
        ch.shutdownNow();
      }
    }

    @Override
    public void close() throws InterruptedException {
      closed = true;
      thread.interrupt();
      thread.join(5000);
    }
  }
}
