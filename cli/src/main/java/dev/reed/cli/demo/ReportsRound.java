package dev.reed.cli.demo;

import dev.reed.coordinator.reports.ReportLearning;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Client reports: the first REED discoveries report what they measured; once the coordinator has
 * learned the reports, a new player in each client's city (its own host and address, {@link
 * DemoWorld#neighbours()}) runs REED First and Intelligent N_close, without reporting. Its rows sit
 * under the city's REED rows, against the new player's own optimum and true nearest.
 */
final class ReportsRound {
  private final DemoEnvironment env;
  private final DemoOptions options;
  private final Progress progress;
  private final DiscoveryFigures figures;

  ReportsRound(DemoEnvironment env, DemoOptions options, Progress progress, DiscoveryFigures figures) {
    this.env = env;
    this.options = options;
    this.progress = progress;
    this.figures = figures;
  }

  /** True when the run has the round: the option, a coordinator that learns reports and new players to run it. */
  boolean enabled() {
    return options.reports() && env.coordinator().reportLearning() != null && !env.world().neighbours().isEmpty();
  }

  /** Reports the coordinator has learned so far. */
  long learned() {
    return env.coordinator().reportLearning().reports();
  }

  /**
   * Waits (at most 30 s) until the coordinator has learned {@code reports} reports, then runs the
   * new players, one after another.
   *
   * @return the new players' rows, in the rows of their city's client
   */
  Map<DemoWorld.Site, List<MethodFigures>> run(List<DemoWorld.Site> clients, long reports, Heartbeat heartbeat)
      throws IOException, InterruptedException {
    long t = progress.now();
    ReportLearning learning = env.coordinator().reportLearning();
    boolean learnedAll;
    try (var a = heartbeat.begin("reports", () -> learning.reports() + " of " + reports + " learned")) {
      learnedAll = DemoEnvironment.await(Duration.ofSeconds(30), () -> learning.reports() >= reports);
    }
    progress.line("reports: the coordinator learned %d reports (%d RTTs kept%s); a new player in each city discovers (%.1f s)",
        learning.reports(), learning.kept(), learnedAll ? "" : ", fewer than sent after 30 s", progress.secondsSince(t));
    ReedMethod reed = new ReedMethod(env, figures, options.clientRate(), "reports-", false);
    Map<DemoWorld.Site, List<MethodFigures>> out = new LinkedHashMap<>();
    try (var a = heartbeat.begin("new players")) {
      for (int i = 0; i < clients.size(); i++) {
        env.checkOpen();
        DemoWorld.Site client = clients.get(i);
        DemoWorld.Site next = env.world().neighbours().get(i);
        long tc = progress.now();
        List<MethodFigures> rows = reed.discover(next, figures.optimum(next)).stream().map(m -> m.inRowsOf(client)).toList();
        MethodFigures first = rows.get(0);
        MethodFigures intelligent = rows.get(1);
        progress.line("  %s (%s, a new player in %s's city): First %d probes (mean RTT %.1f ms, %+.1f ms from its optimum, %d/%d "
                + "nearest), Intelligent %d probes (%.1f ms) (%.1f s)", next.id(), first.address(), client.id(), first.probes(),
            first.meanRttMs(), first.excessMs(), first.nearestFound(), options.nClose(), intelligent.probes(),
            intelligent.meanRttMs(), progress.secondsSince(tc));
        out.put(client, rows);
      }
    }
    return out;
  }
}
