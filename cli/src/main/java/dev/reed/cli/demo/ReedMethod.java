package dev.reed.cli.demo;

import dev.reed.client.DiscoveryRequest;
import dev.reed.client.DiscoveryResult;
import dev.reed.client.ReedClient;
import dev.reed.client.StopRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * REED through the real client SDK: First N_close, then Intelligent N_close, each a discovery of
 * its own (calibration, the coordinator's ordered list, the stop rule) from the client's address.
 */
final class ReedMethod implements DiscoveryMethod {
  private final DemoEnvironment env;
  private final DiscoveryFigures figures;
  private final double rate;
  private final String prefix;
  private final boolean report;

  /**
   * @param prefix the rows' method prefix: "" gives "first" and "intelligent", "reports-" gives "reports-first" ...
   * @param report the discoveries report what they measured (the SDK sends it in the background; close waits for it)
   */
  ReedMethod(DemoEnvironment env, DiscoveryFigures figures, double rate, String prefix, boolean report) {
    this.env = env;
    this.figures = figures;
    this.rate = rate;
    this.prefix = prefix;
    this.report = report;
  }

  @Override
  public String name() {
    return prefix.isEmpty() ? "REED" : "REED after the reports";
  }

  @Override
  public List<MethodFigures> discover(DemoWorld.Site client, ClientOptimum optimum) {
    int n = figures.nClose();
    return List.of(run(client, prefix + "first", StopRule.first(n), optimum), run(client, prefix + "intelligent",
        StopRule.intelligent(n, env.model()), optimum));
  }

  private MethodFigures run(DemoWorld.Site client, String method, StopRule rule, ClientOptimum optimum) {
    List<double[]> points = new ArrayList<>();
    try (ReedClient c = env.client(client, rate).reportMeasurements(report).build()) {
      DiscoveryResult r = c.discover(DiscoveryRequest.defaults().withStop(rule).withMaxDuration(Duration.ofMinutes(2)),
          e -> figures.collect(client, e, points));
      return figures.of(client, method, r, rate, optimum, points);
    }
  }
}
