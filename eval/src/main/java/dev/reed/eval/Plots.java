package dev.reed.eval;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG plots in the style of the paper's figures (xchart, headless). */
final class Plots {
  private final EvalSettings s;

  Plots(EvalSettings s) {
    this.s = s;
  }

  void write(Path out, Evaluation.Result r, Evaluation.Sweep sweep) throws IOException {
    System.setProperty("java.awt.headless", "true");
    probedRttVsTime(out.resolve("probed-rtt-vs-time.png"), r.first());
    if (sweep != null) {
      cdf(out.resolve("relerr-cdf.png"), sweep.relErrorsByModel());
      vsLandmarks(out.resolve("relerr-vs-landmarks.png"), sweep.byLandmarks());
    }
  }

  /** Paper Figs 2, 7-9: RTT of each probe against the time it was sent, REED order vs random order. */
  private void probedRttVsTime(Path file, SeedRun.Output o) throws IOException {
    // the median client by probes-until-all-nearest-seen
    List<ClientResult> cs = new ArrayList<>(o.clients());
    cs.sort(Comparator.comparingInt(ClientResult::allNearestSeen));
    ClientResult median = cs.get(cs.size() / 2);
    SeedRun.Sequence q = o.sequences().get(median.client());
    int calib = median.calibrationProbes();
    int n = q.servers().length;
    List<Double> rx = new ArrayList<>();
    List<Double> ry = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      if (Double.isFinite(q.rtt()[k])) {
        rx.add((calib + k + 1) / s.rate());
        ry.add(q.rtt()[k]);
      }
    }
    double[] shuffled = q.rtt().clone();
    SplittableRandom rnd = new SplittableRandom(median.client());
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      double t = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = t;
    }
    List<Double> tx = new ArrayList<>();
    List<Double> ty = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      if (Double.isFinite(shuffled[k])) {
        tx.add((k + 1) / s.rate());
        ty.add(shuffled[k]);
      }
    }
    XYChart chart = new XYChartBuilder().width(900).height(520)
        .title(String.format(java.util.Locale.ROOT, "Probed RTT vs time, client %d (%.0f probes/s)", median.client(), s.rate()))
        .xAxisTitle("time since start of discovery (s)").yAxisTitle("RTT (ms)").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
    chart.getStyler().setMarkerSize(4);
    chart.getStyler().setXAxisDecimalPattern("0.0");
    chart.getStyler().setYAxisDecimalPattern("0");
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
    chart.addSeries("traditional (random order)", tx, ty).setMarker(SeriesMarkers.CIRCLE);
    chart.addSeries("REED (calibration " + calib + " probes, then predicted order)", rx, ry).setMarker(SeriesMarkers.DIAMOND);
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** Paper Fig 5: CDF of the relative error per coordinate model. */
  private void cdf(Path file, Map<String, double[]> byModel) throws IOException {
    XYChart chart = new XYChartBuilder().width(900).height(520).title("CDF of relative error by coordinate model")
        .xAxisTitle("relative error |predicted - measured| / measured").yAxisTitle("fraction of client-server pairs").build();
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    chart.getStyler().setXAxisMax(1.0);
    chart.getStyler().setXAxisDecimalPattern("0.00");
    chart.getStyler().setYAxisDecimalPattern("0.00");
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
    for (Map.Entry<String, double[]> e : byModel.entrySet()) {
      double[] v = Arrays.stream(e.getValue()).filter(Double::isFinite).sorted().toArray();
      int points = Math.min(400, v.length);
      double[] x = new double[points];
      double[] y = new double[points];
      for (int i = 0; i < points; i++) {
        int k = (int) ((long) i * (v.length - 1) / Math.max(1, points - 1));
        x[i] = Math.min(v[k], 1.0);
        y[i] = (k + 1) / (double) v.length;
      }
      String name = e.getKey().endsWith("h") ? e.getKey().replace("h", "-D+height") : e.getKey() + "-D";
      chart.addSeries(name, x, y).setMarker(SeriesMarkers.NONE);
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** Paper Fig 6: relative error against the number of landmarks. */
  private void vsLandmarks(Path file, Map<Integer, double[]> byL) throws IOException {
    XYChart chart = new XYChartBuilder().width(900).height(520).title("Relative error vs number of landmarks")
        .xAxisTitle("landmarks").yAxisTitle("relative error").build();
    chart.getStyler().setXAxisDecimalPattern("0");
    chart.getStyler().setYAxisDecimalPattern("0.000");
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNE);
    double[] x = byL.keySet().stream().mapToDouble(Integer::doubleValue).toArray();
    double[] med = byL.values().stream().mapToDouble(v -> v[0]).toArray();
    double[] p90 = byL.values().stream().mapToDouble(v -> v[1]).toArray();
    chart.addSeries("median", x, med);
    chart.addSeries("90th percentile", x, p90);
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
