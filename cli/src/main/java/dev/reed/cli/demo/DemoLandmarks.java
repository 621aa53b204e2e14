package dev.reed.cli.demo;

import dev.reed.agent.AgentConfig;
import dev.reed.agent.LandmarkAgent;
import dev.reed.agent.beacon.EchoDelay;
import dev.reed.agent.round.RoundReport;
import dev.reed.coordinates.geo.Place;
import dev.reed.testbed.world.Noise;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo's landmark agents, one per landmark of the world, each probing from its landmark's
 * address with its beacon delayed by the world (and, with the web face, a WebSocket beacon delayed
 * by the world's RTT to the browser). They run in the {@link EmulationChild}, away from the
 * allocation of Kafka and the coordinator.
 */
final class DemoLandmarks implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DemoLandmarks.class);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
  /** A WebSocket echo from a host the world cannot reach: never, as far as the page waits. */
  private static final Duration UNREACHABLE = Duration.ofHours(1);

  private final List<LandmarkAgent> agents;
  private final ExecutorService pool;

  private DemoLandmarks(List<LandmarkAgent> agents, ExecutorService pool) {
    this.agents = List.copyOf(agents);
    this.pool = pool;
  }

  /**
   * Starts every landmark's agent, in parallel.
   *
   * @param world the demo's world
   * @param bootstrap Kafka
   * @param workDir where the agents' spools go
   * @param agentRate probes per second of each agent
   * @param seed the demo's seed
   * @param jitterMs the world's mean jitter (the WebSocket beacons' echoes get it too)
   * @param browser where the web page's browser is; null without the web face (no WebSocket beacons)
   * @throws IOException an agent failed to start (the others are closed)
   */
  static DemoLandmarks start(DemoWorld world, String bootstrap, Path workDir, double agentRate, long seed, double jitterMs,
      DemoWorld.Site browser) throws IOException, InterruptedException {
    AtomicInteger n = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(world.landmarks().size(),
        r -> Thread.ofPlatform().name("reed-demo-round-" + n.incrementAndGet()).daemon().unstarted(r));
    List<Future<LandmarkAgent>> starting = new ArrayList<>();
    int i = 0;
    for (DemoWorld.Site site : world.landmarks()) {
      AgentConfig.Builder config = AgentConfig.builder(site.id(), bootstrap)
          .loopback()
          .region(site.region())
          .bind(new InetSocketAddress(world.address(site), 0))
          .beacon(new InetSocketAddress(world.address(site), 0))
          .rate(agentRate)
          .probeTimeout(PROBE_TIMEOUT)
          .spoolDir(workDir.resolve("agent-" + site.id()))
          .beaconDelay(world.world().replyDelayFor(site.host(), seed * 1_000 + i))
          .seed(seed * 1_000 + i + 1);
      if (browser != null) {
        config.wsBeacon(new InetSocketAddress(world.address(site), 0))
            .wsEchoDelay(browserDelay(world, site, browser, jitterMs, seed * 1_000 + 500 + i));
        Place at = world.location(site.host());
        // announced, so the page can pick the beacons nearest its location prior and plot them on a map
        if (at != null) config.location(AgentConfig.location(at.lat(), at.lon()));
      }
      starting.add(pool.submit(() -> LandmarkAgent.start(config.build())));
      i++;
    }
    List<LandmarkAgent> agents = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (Future<LandmarkAgent> f : starting) {
      try {
        agents.add(f.get());
      } catch (ExecutionException e) {
        failures.add(e.getCause());
      }
    }
    DemoLandmarks landmarks = new DemoLandmarks(agents, pool);
    if (!failures.isEmpty()) {
      landmarks.close();
      throw new IOException(failures.size() + " landmark agents failed to start: " + failures.getFirst(), failures.getFirst());
    }
    return landmarks;
  }

  /**
   * The echo delay of a landmark's WebSocket beacon: the world's RTT between the landmark and the
   * browser's host, with the world's jitter, whoever connects (the browser runs on this machine and
   * connects from 127.0.0.1, outside the world's address plan).
   */
  private static EchoDelay browserDelay(DemoWorld world, DemoWorld.Site landmark, DemoWorld.Site browser, double jitterMs,
      long seed) {
    double base = world.world().rttMs(landmark.host(), browser.host());
    Noise jitter = new Noise(jitterMs, 0);
    SplittableRandom rng = new SplittableRandom(seed);
    return remote -> {
      if (Double.isNaN(base)) return UNREACHABLE;
      double ms;
      synchronized (rng) {
        ms = jitter.sample(base, rng);
      }
      return Duration.ofNanos(Math.round(ms * 1e6));
    };
  }

  List<LandmarkAgent> agents() {
    return agents;
  }

  /**
   * One round of every landmark, all at once (each agent paces its own probes), then waits until
   * each has published it, so that its samples are in Kafka when this returns.
   *
   * @return each agent's report, in {@link #agents()} order
   * @throws IOException a round failed or did not end within 10 minutes
   */
  List<RoundReport> round() throws IOException, InterruptedException {
    List<Future<RoundReport>> fs = new ArrayList<>();
    for (LandmarkAgent a : agents) fs.add(pool.submit(a::runRound));
    List<RoundReport> out = new ArrayList<>();
    for (int i = 0; i < fs.size(); i++) {
      try {
        out.add(fs.get(i).get(10, TimeUnit.MINUTES));
      } catch (ExecutionException e) {
        throw new IOException("round of landmark " + agents.get(i).config().id() + " failed: " + e.getCause(), e.getCause());
      } catch (TimeoutException e) {
        throw new IOException("round of landmark " + agents.get(i).config().id() + " did not end within 10 minutes");
      }
    }
    for (LandmarkAgent a : agents) {
      if (!a.awaitPublished(Duration.ofSeconds(30))) log.warn("landmark {}: samples still spooled after 30 s", a.config().id());
    }
    return out;
  }

  /** Stops the agents in parallel (each ends its running round and drains its spool), then the round pool. */
  @Override
  public void close() throws InterruptedException {
    List<Thread> closing = new ArrayList<>();
    for (LandmarkAgent a : agents) {
      closing.add(Thread.ofPlatform().name("reed-demo-stop-" + a.config().id()).start(a::close));
    }
    for (Thread th : closing) th.join(60_000);
    pool.shutdownNow();
    pool.awaitTermination(30, TimeUnit.SECONDS);
  }
}
