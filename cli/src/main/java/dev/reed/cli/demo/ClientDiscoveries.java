package dev.reed.cli.demo;

import dev.reed.client.ListedServer;
import dev.reed.client.ReedClient;
import dev.reed.testbed.emulated.EmulatedServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo's clients discovering servers, each from its own address and sockets as players
 * browse. Traditional discovery of the whole shuffled list runs from every client at once, in the
 * background from the moment the coordinates are measured (it needs no coordinator): at 140
 * probes/s a list of thousands takes most of a minute, the demo's longest phase. Beside it, each
 * client in turn runs its {@link DiscoveryMethod}s (REED, then the geo distance and zero-probe
 * orders), then the {@link ReportsRound}: one short discovery at a time, so that few probe engines
 * share the CPU while they time replies. Rows come out per client in table order, traditional last.
 */
final class ClientDiscoveries {
  private final DemoEnvironment env;
  private final DemoOptions options;
  private final Progress progress;
  private final Heartbeat heartbeat;
  private final DiscoveryFigures figures;

  ClientDiscoveries(DemoEnvironment env, DemoOptions options, Progress progress, Heartbeat heartbeat) {
    this.env = env;
    this.options = options;
    this.progress = progress;
    this.heartbeat = heartbeat;
    this.figures = new DiscoveryFigures(env, options.nClose());
  }

  /** Traditional discovery from every client, running in the background until {@link Traditional#join()}. */
  Traditional startTraditional() {
    List<ListedServer> master = new ArrayList<>();
    for (EmulatedServer s : env.servers()) master.add(new ListedServer(s.address(), s.protocol()));
    Collections.shuffle(master, new Random(options.seed()));   // a master list is in no useful order
    List<DemoWorld.Site> clients = env.world().clients();
    progress.line("traditional discovery from all %d clients at once, in the background: the whole list of %d servers, "
        + "shuffled, at %.0f probes/s each ...", clients.size(), master.size(), options.traditionalRate());
    TraditionalMethod method = new TraditionalMethod(env, figures, options.traditionalRate(), master);
    long total = (long) master.size() * clients.size();
    Heartbeat.Activity activity = heartbeat.begin("traditional discovery", () -> String.format(java.util.Locale.ROOT,
        "%d of %d replies", method.answered(), total));
    Map<DemoWorld.Site, Callable<List<MethodFigures>>> tasks = new LinkedHashMap<>();
    for (DemoWorld.Site c : clients) tasks.put(c, () -> method.discover(c, figures.optimum(c)));
    return new Traditional(new Parallel<>("reed-demo-traditional", tasks), activity, progress.now());
  }

  /**
   * REED and the ordered lists from every client, then the reports round, then the traditional
   * rows.
   *
   * @return every row, per client in table order, traditional last
   */
  List<MethodFigures> run(Traditional traditional) throws IOException, InterruptedException {
    long t = progress.now();
    List<DemoWorld.Site> clients = env.world().clients();
    ReportsRound reports = new ReportsRound(env, options, progress, figures);
    boolean reporting = reports.enabled();
    long reportsBefore = reporting ? reports.learned() : 0;
    List<DiscoveryMethod> methods = new ArrayList<>();
    methods.add(new ReedMethod(env, figures, options.clientRate(), "", reporting));
    if (env.world().located()) methods.add(OrderedListMethod.geoDistance(env, figures, progress, options.clientRate()));
    if (env.statesLocation()) methods.add(OrderedListMethod.zeroProbe(env, figures, progress, options.clientRate()));
    progress.line("client discoveries through the client SDK (ReedClient bound to the client's address, real probes), "
        + "N_close=%d at %.0f probes/s, one client after another: %s", options.nClose(), options.clientRate(),
        String.join(", ", methods.stream().map(DiscoveryMethod::name).toList()));
    AtomicInteger done = new AtomicInteger();
    int total = clients.size() * methods.size();
    Map<DemoWorld.Site, List<List<MethodFigures>>> byClient = new LinkedHashMap<>();
    try (var a = heartbeat.begin("client discoveries", () -> done.get() + " of " + total + " done")) {
      for (DemoWorld.Site client : clients) {
        ClientOptimum optimum = figures.optimum(client);
        List<List<MethodFigures>> rows = new ArrayList<>();
        for (DiscoveryMethod m : methods) {
          env.checkOpen();
          long tm = progress.now();
          List<MethodFigures> r = m.discover(client, optimum);
          rows.add(r);
          done.incrementAndGet();
          if (!r.isEmpty()) summary(client, m.name(), r, progress.secondsSince(tm));
        }
        byClient.put(client, rows);
      }
    }
    Map<DemoWorld.Site, List<MethodFigures>> second = reporting
        ? reports.run(clients, reportsBefore + 2L * clients.size(), heartbeat) : Map.of();
    Map<DemoWorld.Site, List<MethodFigures>> traditionalRows = traditional.join();
    List<MethodFigures> out = new ArrayList<>();
    for (DemoWorld.Site client : clients) {
      List<List<MethodFigures>> rows = byClient.get(client);
      out.addAll(rows.getFirst());                       // REED
      out.addAll(second.getOrDefault(client, List.of()));   // REED after the reports, right under it
      for (List<MethodFigures> r : rows.subList(1, rows.size())) out.addAll(r);
      out.addAll(traditionalRows.get(client));
    }
    progress.line("discovery done (%.1f s; traditional %.1f s)", progress.secondsSince(t), traditional.seconds());
    return out;
  }

  /**
   * One calibration from the first client, not counted: the first gRPC call of a JVM loads and
   * compiles the whole Netty stack, which a server browser pays once at start, not per discovery.
   */
  void warmUp() {
    long t = progress.now();
    DemoWorld.Site client = env.world().clients().getFirst();
    try (ReedClient c = env.client(client, options.clientRate()).build()) {
      c.locate();
    }
    progress.line("client SDK warmed up: one calibration from %s, not counted (%.1f s)", client.id(), progress.secondsSince(t));
  }

  /** A progress line for a method's First and Intelligent rows. */
  void summary(DemoWorld.Site client, String method, List<MethodFigures> rows, double seconds) {
    MethodFigures first = rows.get(0);
    MethodFigures intelligent = rows.get(1);
    progress.line("  %s (%s, %s, %s) %s: First %d probes (mean RTT %.1f ms, %+.1f ms from the optimum %.1f ms, %d/%d nearest), "
            + "Intelligent %d probes (%.1f ms) (%.1f s)", client.id(), client.region(), client.place(), first.address(), method,
        first.probes(), first.meanRttMs(), first.excessMs(), first.optimalMeanMs(), first.nearestFound(), options.nClose(),
        intelligent.probes(), intelligent.meanRttMs(), seconds);
  }

  /** Traditional discovery running in the background. */
  final class Traditional implements AutoCloseable {
    private final Parallel<List<MethodFigures>> running;
    private final Heartbeat.Activity activity;
    private final long started;
    private double seconds = Double.NaN;

    private Traditional(Parallel<List<MethodFigures>> running, Heartbeat.Activity activity, long started) {
      this.running = running;
      this.activity = activity;
      this.started = started;
    }

    /** Waits for every client's traditional discovery; returns each client's row. */
    Map<DemoWorld.Site, List<MethodFigures>> join() throws IOException, InterruptedException {
      Map<DemoWorld.Site, List<MethodFigures>> rows = running.join();
      activity.close();
      seconds = progress.secondsSince(started);
      for (var e : rows.entrySet()) {
        MethodFigures m = e.getValue().getFirst();
        progress.line("  %s traditional: %d probes, %d servers answered, mean RTT of the best %d %.1f ms (%.1f s)", e.getKey().id(),
            m.probes(), m.found(), options.nClose(), m.meanRttMs(), seconds);
      }
      return rows;
    }

    double seconds() {
      return seconds;
    }

    @Override
    public void close() throws InterruptedException {
      activity.close();
      running.close();
    }
  }

  /** Tasks per client, each on a thread of its own, started at once. */
  private static final class Parallel<T> implements AutoCloseable {
    private final ExecutorService pool;
    private final Map<DemoWorld.Site, Future<T>> running = new LinkedHashMap<>();

    Parallel(String threadName, Map<DemoWorld.Site, Callable<T>> tasks) {
      pool = Executors.newFixedThreadPool(Math.max(1, tasks.size()), r -> Thread.ofPlatform().name(threadName).daemon().unstarted(r));
      tasks.forEach((site, task) -> running.put(site, pool.submit(task)));
    }

    /** Every task's result, in the tasks' order; the first failure as an IOException. */
    Map<DemoWorld.Site, T> join() throws IOException, InterruptedException {
      Map<DemoWorld.Site, T> out = new LinkedHashMap<>();
      try {
        for (var e : running.entrySet()) {
          try {
            out.put(e.getKey(), e.getValue().get());
          } catch (ExecutionException ex) {
            throw new IOException("discovery from " + e.getKey().id() + " failed: " + ex.getCause(), ex.getCause());
          }
        }
      } finally {
        close();
      }
      return out;
    }

    @Override
    public void close() throws InterruptedException {
      pool.shutdownNow();
      pool.awaitTermination(10, TimeUnit.SECONDS);
    }
  }
}
