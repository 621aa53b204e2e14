package dev.reed.cli.demo;

import dev.reed.client.DiscoveryRequest;
import dev.reed.client.DiscoveryResult;
import dev.reed.client.ListedServer;
import dev.reed.client.ReedClient;
import dev.reed.client.ServerListSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Traditional discovery: the whole master list, in its (shuffled) order, probed from the client's address. */
final class TraditionalMethod implements DiscoveryMethod {
  private final DemoEnvironment env;
  private final DiscoveryFigures figures;
  private final double rate;
  private final List<ListedServer> master;
  private final AtomicLong answered = new AtomicLong();

  TraditionalMethod(DemoEnvironment env, DiscoveryFigures figures, double rate, List<ListedServer> master) {
    this.env = env;
    this.figures = figures;
    this.rate = rate;
    this.master = List.copyOf(master);
  }

  @Override
  public String name() {
    return "traditional";
  }

  /** Replies received so far, over every client (for the heartbeat). */
  long answered() {
    return answered.get();
  }

  @Override
  public List<MethodFigures> discover(DemoWorld.Site client, ClientOptimum optimum) {
    List<double[]> points = new ArrayList<>();
    try (ReedClient c = env.client(client, rate).traditionalList(ServerListSource.of(master)).build()) {
      DiscoveryResult r = c.discoverTraditional(DiscoveryRequest.defaults().withMaxDuration(Duration.ofMinutes(10)), e -> {
        int before = points.size();
        figures.collect(client, e, points);
        if (points.size() > before) answered.incrementAndGet();
      });
      return List.of(figures.of(client, "traditional", r, rate, optimum, points));
    }
  }
}
