package dev.reed.cli.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The demo's table as Markdown ({@code --markdown FILE}), for a README or a report: every row with
 * its probes, time, mean RTT, distance from the optimum and nearest found, then the locations target
 * per client. The same figures as {@link ResultTable} and {@link JsonOutput}.
 */
final class MarkdownOutput {
  private MarkdownOutput() {}

  static void write(DemoResult r, Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) Files.createDirectories(parent);
    Files.writeString(file, render(r));
  }

  static String render(DemoResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "REED vs traditional discovery: %d servers, %d landmarks, N_close = %d; world %s; locations: %s.%n%n",
        r.servers(), r.landmarks(), r.nClose(), cell(r.world()), cell(r.geo())));
    DelayError d = r.delayError();
    sb.append(String.format(Locale.ROOT, "Delay error of the emulation (a landmark's measured RTT minus the RTT the world intended "
        + "for that reply) over %d landmark probes: p50 %.3f ms, p99 %.3f ms, max %.1f ms.%n%n", d.probes(), d.p50Ms(), d.p99Ms(),
        d.maxMs()));
    sb.append("| client | place | method | probes | calibration | time at 140/s | mean RTT | above optimum | nearest found | stop |\n");
    sb.append("|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (MethodFigures m : r.methods()) {
      sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %.2f s%s | %.1f ms | %+.1f ms | %d/%d | %s |%n", cell(m.client().id()),
          cell(m.client().place()), ResultTable.label(m.method()), m.probes(), m.calibrationProbes(), m.seconds140(),
          m.rescaled() ? "*" : "", m.meanRttMs(), m.excessMs(), m.nearestFound(), r.nClose(), m.stopReason()));
    }
    sb.append("\nmean RTT: measured, of the N_close lowest-RTT servers found; above optimum: minus the world's true mean RTT to "
        + "the N_close nearest servers; geo distance: servers by great-circle distance from the client's location, no "
        + "calibration, the same stop rules; reed 0-probe: the coordinator's ranking from the client's stated location "
        + "alone, no calibration, the same stop rules.\n\n");
    var targets = r.targets();
    int wanted = targets.isEmpty() ? 0 : targets.getFirst().nearestWanted();
    sb.append(String.format(Locale.ROOT, "Target (locations), REED first: mean RTT within %.0f ms of the optimum and at least %d/%d "
        + "nearest, no more probes than without locations.%n%n", TargetFigures.MAX_EXCESS_MS, wanted, r.nClose()));
    sb.append("| client | place | above optimum | nearest found | probes | met |\n|---|---|---:|---:|---:|---|\n");
    for (TargetFigures t : targets) {
      sb.append(String.format(Locale.ROOT, "| %s | %s | %+.1f ms | %d/%d | %d | %s |%n", cell(t.client().id()), cell(t.client().place()),
          t.excessMs(), t.nearestFound(), r.nClose(), t.probes(), t.met() ? "yes" : "no"));
    }
    return sb.toString();
  }

  /** A table cell: no line breaks, pipes escaped. */
  private static String cell(String s) {
    return s == null ? "" : s.replace("\r", " ").replace("\n", " ").replace("|", "\\|");
  }
}
