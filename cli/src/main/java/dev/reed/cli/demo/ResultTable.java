package dev.reed.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The demo's results as a text table in the shape of the REED paper's Tables III-VI (Armitage
 * &amp; Heyde, TOMCCAP 2011): per client and method the probes (calibration included), the time at
 * 140 probes/s, mean and median RTT of the N_close best servers found, the optimal mean RTT
 * (the true N_close nearest), and the reduction against traditional discovery. Beside REED, the
 * "geo distance" rows: the list ordered by great-circle distance from the client's
 * location, no calibration, with the same stop rules; after the table, the locations target per client.
 */
final class ResultTable {
  private ResultTable() {}

  static List<String> lines(DemoResult report) {
    List<String> out = new ArrayList<>();
    boolean anyRescaled = report.methods().stream().anyMatch(MethodFigures::rescaled);
    out.add(String.format(Locale.ROOT, "REED vs traditional discovery, %d servers, %d landmarks, N_close = %d", report.servers(),
        report.landmarks(), report.nClose()));
    String header = String.format(Locale.ROOT, "%-11s %-3s %-14s %-20s %7s %11s %9s %10s %12s %9s %8s %8s",
        "client", "reg", "place", "method", "probes", "time@140/s", "mean RTT", "median RTT", "optimal mean", "probes -%",
        "time -%", "nearest");
    out.add(header);
    out.add("-".repeat(header.length()));
    String lastClient = null;
    for (MethodFigures m : report.methods()) {
      boolean firstRow = !m.client().id().equals(lastClient);
      lastClient = m.client().id();
      MethodFigures base = report.traditional(m.client());
      boolean isBase = m == base;
      out.add(String.format(Locale.ROOT, "%-11s %-3s %-14s %-20s %7d %10.2fs%s %6.1f ms %7.1f ms %9.1f ms %9s %8s %4d/%-3d",
          firstRow ? m.client().id() : "", firstRow ? m.client().region() : "", firstRow ? clip(m.client().place(), 14) : "",
          label(m.method()), m.probes(), m.seconds140(), m.rescaled() ? "*" : " ", m.meanRttMs(), m.medianRttMs(),
          m.optimalMeanMs(), isBase ? "-" : pct(m.probeReductionVs(base)), isBase ? "-" : pct(m.timeReductionVs(base)),
          m.nearestFound(), report.nClose()));
    }
    out.add("");
    out.add("probes: calibration included. mean/median RTT: measured, of the N_close lowest-RTT servers found. optimal mean:");
    out.add("the world's true RTT to the N_close nearest servers. nearest: how many of those true N_close nearest were found.");
    if (report.methods().stream().anyMatch(m -> m.method().startsWith("geo-"))) {
      out.add("geo distance: servers by great-circle distance from the client's location, no calibration, the same stop rules.");
    }
    if (report.methods().stream().anyMatch(m -> m.method().startsWith("reports-"))) {
      out.add("REED + reports: REED from a new player in the same city (its own address, optimum and nearest), after the first");
      out.add("REED discoveries reported what they measured and the coordinator learned it (client reports).");
    }
    if (report.methods().stream().anyMatch(m -> m.method().startsWith("zero-"))) {
      out.add("reed 0-probe: the coordinator's ranking from the client's stated location alone, no calibration, the same stop rules.");
    }
    out.add("locations: " + report.geo() + ".");
    out.add("");
    List<TargetFigures> targets = report.targets();
    int wanted = targets.isEmpty() ? 0 : targets.getFirst().nearestWanted();
    out.add(String.format(Locale.ROOT, "target (locations), REED first: mean RTT within %.0f ms of the optimum and >= %d/%d nearest, "
        + "no more probes than without locations:", TargetFigures.MAX_EXCESS_MS, wanted, report.nClose()));
    for (TargetFigures t : targets) {
      out.add(String.format(Locale.ROOT, "  %-11s %-14s %+6.1f ms %4d/%-3d %4d probes  %s", t.client().id(), clip(t.client().place(), 14),
          t.excessMs(), t.nearestFound(), report.nClose(), t.probes(), t.met() ? "met" : "not met"));
    }
    if (anyRescaled) {
      MethodFigures r = report.methods().stream().filter(MethodFigures::rescaled).findFirst().orElseThrow();
      out.add(String.format(Locale.ROOT, "* probes really sent at %.0f probes/s to fit the demo's time budget; the time shown is "
          + "probes / 140 plus the measured wait for the last replies.", r.rate()));
    }
    return out;
  }

  static String label(String method) {
    return switch (method) {
      case "first" -> "REED first";
      case "intelligent" -> "REED intelligent";
      case "reports-first" -> "REED + reports first";
      case "reports-intelligent" -> "REED + reports int.";
      case "geo-first" -> "geo distance first";
      case "geo-intelligent" -> "geo distance intell.";
      case "zero-first" -> "reed 0-probe first";
      case "zero-intelligent" -> "reed 0-probe intell.";
      default -> method;
    };
  }

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%.1f %%", v);
  }

  private static String clip(String s, int n) {
    return s == null ? "" : s.length() <= n ? s : s.substring(0, n);
  }
}
