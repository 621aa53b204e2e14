package dev.reed.cli.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One PNG per client: the RTT of every reply against the time its probe was sent at 140
 * probes/s, REED against traditional discovery, as in the REED paper's Figures 7-9 (Armitage
 * &amp; Heyde, TOMCCAP 2011). REED's replies are the low RTTs in the first second; traditional
 * discovery's are spread over the whole list. The time axis is logarithmic so both are visible.
 */
final class RttPlots {
  private RttPlots() {}

  /**
   * Renders a small chart in memory and drops it: the first PNG of a JVM loads Java2D, the fonts
   * and the encoder (~1 s of CPU quiet, 5 s under load, against ~1 s for each further plot), which
   * the demo does while its clients wait on their probes instead of after the table.
   */
  static void warmUp() {
    System.setProperty("java.awt.headless", "true");
    XYChart chart = new XYChartBuilder().width(200).height(120).title("warm-up").xAxisTitle("x").yAxisTitle("y").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setXAxisLogarithmic(true);
    chart.addSeries("s", new double[] {1, 2, 3}, new double[] {1, 2, 3}).setMarker(SeriesMarkers.CIRCLE);
    try {
      BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      // only a warm-up: the real plots report their own failure
    }
  }

  /**
   * Writes the plots into {@code dir}, one thread per client (encoding a PNG of thousands of points
   * takes a second or more of CPU each), and returns their paths in the table's client order.
   */
  static List<Path> write(DemoResult report, Path dir) throws IOException, InterruptedException {
    System.setProperty("java.awt.headless", "true");
    Files.createDirectories(dir);
    Map<String, List<MethodFigures>> byClient = new LinkedHashMap<>();
    for (MethodFigures m : report.methods()) byClient.computeIfAbsent(m.client().id(), k -> new ArrayList<>()).add(m);
    List<Callable<Path>> tasks = new ArrayList<>();
    for (List<MethodFigures> rows : byClient.values()) tasks.add(() -> plot(report, rows, dir));
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, tasks.size()),
        r -> Thread.ofPlatform().name("reed-demo-plot").daemon().unstarted(r));
    List<Path> files = new ArrayList<>();
    try {
      for (Future<Path> f : pool.invokeAll(tasks)) {
        try {
          files.add(f.get());
        } catch (ExecutionException e) {
          throw e.getCause() instanceof IOException io ? io : new IOException("plot failed: " + e.getCause(), e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return files;
  }

  private static Path plot(DemoResult report, List<MethodFigures> rows, Path dir) throws IOException {
    DemoWorld.Site c = rows.getFirst().client();
    XYChart chart = new XYChartBuilder().width(1000).height(560)
        .title(String.format(Locale.ROOT, "Probed RTT vs time, %s (%s, %s), %d servers, N_close = %d", c.id(), c.region(),
            c.place(), report.servers(), report.nClose()))
        .xAxisTitle("time since the start of discovery at 140 probes/s (s, log scale)").yAxisTitle("RTT (ms)").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setMarkerSize(4);
    // traditional first so REED's points are drawn on top
    List<MethodFigures> ordered = new ArrayList<>(rows);
    ordered.sort((a, b) -> Boolean.compare(!a.method().equals("traditional"), !b.method().equals("traditional")));
    for (MethodFigures m : ordered) {
      if (m.points().isEmpty()) continue;
      double[] x = new double[m.points().size()];
      double[] y = new double[x.length];
      for (int i = 0; i < x.length; i++) {
        x[i] = (m.points().get(i)[0] + 1) / DemoOptions.PAPER_RATE;
        y[i] = m.points().get(i)[1];
      }
      String name = String.format(Locale.ROOT, "%s: %d probes, mean RTT of best %d %.1f ms", switch (m.method()) {
        case "first" -> "REED First N_close";
        case "intelligent" -> "REED Intelligent N_close";
        case "reports-first" -> "REED + reports (a new player here), First N_close";
        case "reports-intelligent" -> "REED + reports (a new player here), Intelligent N_close";
        case "geo-first" -> "geo distance, First N_close";
        case "geo-intelligent" -> "geo distance, Intelligent N_close";
        case "zero-first" -> "REED zero-probe, First N_close";
        case "zero-intelligent" -> "REED zero-probe, Intelligent N_close";
        default -> "traditional";
      }, m.probes(), report.nClose(), m.meanRttMs());
      chart.addSeries(name, x, y).setMarker(switch (m.method()) {
        case "first" -> SeriesMarkers.DIAMOND;
        case "intelligent" -> SeriesMarkers.TRIANGLE_UP;
        case "reports-first", "reports-intelligent" -> SeriesMarkers.PLUS;
        case "geo-first" -> SeriesMarkers.SQUARE;
        case "geo-intelligent" -> SeriesMarkers.TRIANGLE_DOWN;
        case "zero-first", "zero-intelligent" -> SeriesMarkers.CROSS;
        default -> SeriesMarkers.CIRCLE;
      });
    }
    Path file = dir.resolve("probed-rtt-vs-time-" + c.id() + ".png");
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
