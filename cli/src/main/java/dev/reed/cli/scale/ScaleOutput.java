package dev.reed.cli.scale;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Writes a step's {@code report.md}, its PNG plots over time and one {@code summary.tsv} line. */
final class ScaleOutput {
  private ScaleOutput() {}

  static final String TSV_HEADER = "targets\tlandmarks\treplicas\tround_s\toffered_per_s\tingested_per_s\tmax_lag"
      + "\tserved_s_max\tcounted_once\tall_served\twindow_bytes_per_pair\theap_bytes_per_pair_max\trss_mb_max"
      + "\tquery_rate\tquery_p50_ms\tquery_p99_ms\tshare_served_s\trestart_s\tload";

  static Path write(ScaleResult r, String command) throws IOException {
    System.setProperty("java.awt.headless", "true");
    Path dir = r.settings().out();
    List<String> plots = new ArrayList<>();
    plots.add(plot(dir, "ingest.png", "Samples ingested per second", "samples/s", r,
        t -> t.samplesPerSecond(), true, r.settings().offeredRate()));
    plots.add(plotLag(dir, r));
    plots.add(plot(dir, "heap.png", "Heap in use (MB, sawtooth: between collections)", "MB", r, t -> t.heapUsed() / (1 << 20),
        false, Double.NaN));
    plots.add(plot(dir, "rss.png", "Resident set size (MB)", "MB", r, t -> t.rss() < 0 ? Double.NaN : t.rss() / (double) (1 << 20),
        false, Double.NaN));
    plots.add(plot(dir, "served.png", "Servers in each replica's index (served)", "servers", r, ScaleResult.ReplicaTick::indexServers,
        false, Double.NaN));
    plots.add(plot(dir, "windows.png", "Targets in each replica's windows (its partitions)", "targets", r,
        ScaleResult.ReplicaTick::windowTargets, false, Double.NaN));
    Path md = dir.resolve("report.md");
    Files.writeString(md, markdown(r, command, plots));
    Files.writeString(dir.resolve("summary.tsv"), TSV_HEADER + "\n" + tsv(r) + "\n");
    return md;
  }

  static String tsv(ScaleResult r) {
    ScaleSettings s = r.settings();
    double servedMax = r.rounds().stream().mapToDouble(ScaleResult.RoundFigures::served).max().orElse(-1);
    if (r.rounds().stream().anyMatch(x -> x.served() < 0)) servedMax = -1;
    double heapMax = r.replicas().stream().mapToDouble(r::heapBytesPerPair).max().orElse(Double.NaN);
    long rssMax = r.replicas().stream().mapToLong(ScaleResult.ReplicaFigures::rss).max().orElse(-1);
    return String.format(Locale.ROOT, "%d\t%d\t%d\t%d\t%.0f\t%.0f\t%d\t%.1f\t%s\t%s\t%.1f\t%.1f\t%d\t%.0f\t%.2f\t%.2f\t%.1f\t%.1f\t%s",
        s.targets(), s.landmarks(), s.replicas(), s.round().toSeconds(), s.offeredRate(), r.ingestRate(), r.maxLag(),
        servedMax, r.countedOnce(), r.allServed(), r.windowBytesPerPair(), heapMax, rssMax >> 20, r.queries().rate(),
        r.queries().quantileMs(0.5), r.queries().quantileMs(0.99),
        r.failover() == null ? Double.NaN : r.failover().shareServed(),
        r.failover() == null ? Double.NaN : r.failover().restartToServing(), r.load());
  }

  private static String markdown(ScaleResult r, String command, List<String> plots) {
    ScaleSettings s = r.settings();
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "# Scale run: %,d targets x %d landmarks, %d replica(s)%s, %d s rounds%n%n",
        s.targets(), s.landmarks(), s.replicas(), s.servingReplicas() == 0 ? "" : " + " + s.servingReplicas() + " serving",
        s.round().toSeconds()));
    b.append("Command: `").append(command).append("`  \n");
    b.append(String.format(Locale.ROOT, "Load average at the end (/proc/loadavg): %s; %d cores.%n%n", r.load(),
        Runtime.getRuntime().availableProcessors()));
    b.append("| figure | value |\n|---|---|\n");
    row(b, "offered (T x L per round)", "%,.0f samples/s (%,d a round)", s.offeredRate(), r.samplesPerRound());
    row(b, "ingested, sustained over the steady phase", "%,.0f samples/s", r.ingestRate());
    row(b, "consumer lag, max over the steady phase (committed offsets: up to 5 s high)", "%,d records", r.maxLag());
    row(b, "every sample counted once (published = counted, no dead letters)", "%s (%,d published, %,d counted, %d dead letters)",
        r.countedOnce(), r.published(), r.counted(), r.deadLetters());
    row(b, "every target served by every replica", "%s", r.allServed());
    row(b, "window bytes per (landmark, target) pair", "%.1f", r.windowBytesPerPair());
    if (r.sampleLogBytes() >= 0) {
      row(b, "reed.samples on the broker's disk (lz4 batches, the feed's mix)", "%.1f bytes per sample",
          (double) r.sampleLogBytes() / r.published());
    }
    for (ScaleResult.ReplicaFigures m : r.replicas()) {
      row(b, "replica " + m.index() + (m.leader() ? " (leader)" : ""),
          "%,d targets in windows; heap after GC %,d MB (start %,d MB): %.1f bytes per pair of the deployment; RSS %,d MB",
          m.windowTargets(), m.heapAfterGc() >> 20, m.heapAtStart() >> 20, r.heapBytesPerPair(m), m.rss() >> 20);
    }
    for (ScaleResult.ServingFigures m : r.serving()) {
      row(b, "serving replica " + m.index() + " (--serve-only)", "%,d servers in its index; heap after GC %,d MB; RSS %,d MB",
          m.indexServers(), m.heapAfterGc() >> 20, m.rss() >> 20);
    }
    row(b, "GetOrderedServers during ingest (load in its own JVM" + (r.serving().isEmpty() ? "" : ", to the serving replicas") + ")",
        "%,.0f req/s offered, %,.0f served, p50 %.2f ms, p99 %.2f ms, %d errors, page %d", s.queryRate(), r.queries().rate(),
        r.queries().quantileMs(0.5), r.queries().quantileMs(0.99), r.queries().errors(), s.pageSize());
    if (r.failover() != null) {
      row(b, "SIGKILLed replica " + r.failover().replica() + "'s share served again", "%.1f s (%,d targets)",
          r.failover().shareServed(), r.failover().targets());
      row(b, "restart to serving (process start to a full index on gRPC)", "%.1f s", r.failover().restartToServing());
    }
    b.append("\n## Rounds\n\n| round | samples | published in | all targets served after the round's last sample | queries p50 / p99 |\n"
        + "|---|---|---|---|---|\n");
    for (ScaleResult.RoundFigures f : r.rounds()) {
      b.append(String.format(Locale.ROOT, "| %d | %,d | %.1f s | %s | %s |%n", f.round(), f.samples(), f.publishSeconds(),
          f.served() < 0 ? "not within the timeout" : String.format(Locale.ROOT, "%.1f s", f.served()),
          f.queries() == null ? "-" : String.format(Locale.ROOT, "%.2f / %.2f ms", f.queries().quantileMs(0.5),
              f.queries().quantileMs(0.99))));
    }
    b.append("""

        "Served" = the replicas counted every sample published up to the round's end, then each completed a
        positioning round (which started after the last sample entered its windows: ingest and rounds share one
        thread) and each replica's index holds every target. The first round includes the first landmark
        embedding.

        ## Plots

        """);
    for (String p : plots) b.append("![").append(p).append("](").append(p).append(")\n");
    b.append("\nReplica logs: `replica-N.log` beside this file.\n");
    return b.toString();
  }

  private static void row(StringBuilder b, String name, String fmt, Object... args) {
    b.append("| ").append(name).append(" | ").append(String.format(Locale.ROOT, fmt, args)).append(" |\n");
  }

  private static String plot(Path dir, String file, String title, String y, ScaleResult r,
      ToDoubleFunction<ScaleResult.ReplicaTick> value, boolean total, double reference) throws IOException {
    XYChart c = new XYChartBuilder().width(900).height(420).title(title).xAxisTitle("time since start (s)").yAxisTitle(y).build();
    c.getStyler().setMarkerSize(0);
    c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    for (int i = 1; i <= r.settings().replicas(); i++) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (ScaleResult.Tick t : r.ticks()) {
        for (ScaleResult.ReplicaTick rt : t.replicas()) {
          if (rt.index() != i) continue;
          double v = rt.alive() ? value.applyAsDouble(rt) : Double.NaN;
          xs.add(t.t());
          ys.add(v); // NaN (process down, metrics not up yet): a gap in the line
        }
      }
      if (!xs.isEmpty()) c.addSeries("replica " + i, xs, ys).setMarker(SeriesMarkers.NONE);
    }
    if (total && r.settings().replicas() > 1) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (ScaleResult.Tick t : r.ticks()) {
        double sum = 0;
        for (ScaleResult.ReplicaTick rt : t.replicas()) {
          double v = value.applyAsDouble(rt);
          if (!Double.isNaN(v)) sum += v;
        }
        xs.add(t.t());
        ys.add(sum);
      }
      if (!xs.isEmpty()) c.addSeries("all replicas", xs, ys).setMarker(SeriesMarkers.NONE);
    }
    if (!Double.isNaN(reference) && !r.ticks().isEmpty()) {
      c.addSeries("offered (T x L / round)", new double[] {r.ticks().getFirst().t(), r.ticks().getLast().t()},
          new double[] {reference, reference}).setMarker(SeriesMarkers.NONE);
    }
    if (c.getSeriesMap().isEmpty()) return file;
    BitmapEncoder.saveBitmap(c, dir.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  private static String plotLag(Path dir, ScaleResult r) throws IOException {
    XYChart c = new XYChartBuilder().width(900).height(420).title("Consumer lag on reed.samples (group reed-coordinator)")
        .xAxisTitle("time since start (s)").yAxisTitle("records").build();
    c.getStyler().setMarkerSize(0);
    List<Double> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    for (ScaleResult.Tick t : r.ticks()) {
      if (t.lag() < 0) continue;
      xs.add(t.t());
      ys.add((double) t.lag());
    }
    if (!xs.isEmpty()) {
      c.addSeries("lag", xs, ys).setMarker(SeriesMarkers.NONE);
      BitmapEncoder.saveBitmap(c, dir.resolve("lag.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }
    return "lag.png";
  }
}
