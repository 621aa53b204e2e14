package dev.reed.cli.demo;

import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The demo's figures as JSON ({@code --json FILE}): {@code {"clients": [{"client", "region",
 * "method", "probes", "seconds", "mean_rtt_ms", "median_rtt_ms", "optimal_mean_rtt_ms", ...}]}}
 * plus the run's setting and rounds; REED rows also carry the client's position (components, then
 * the height) and every reply (probe index, measured, predicted and true RTT); {@code "target"}
 * holds the locations target per client figures (REED First's mean RTT above the optimum, nearest
 * found, probes). Written with Gson's
 * streaming {@link JsonWriter}, like the browse report and the evaluation's results.json.
 * Numbers keep at most four decimals; numbers that are not finite are written as {@code null}.
 */
final class JsonOutput {
  private JsonOutput() {}

  static void write(DemoResult r, Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) Files.createDirectories(parent);
    Files.writeString(file, render(r));
  }

  static String render(DemoResult r) {
    StringWriter out = new StringWriter();
    try (JsonWriter w = new JsonWriter(out)) {
      w.setIndent("  ");
      w.beginObject();
      w.name("world").value(r.world());
      w.name("servers").value(r.servers());
      w.name("landmarks").value(r.landmarks());
      w.name("n_close").value(r.nClose());
      w.name("kafka").value(r.kafka());
      w.name("coordinator").value(r.coordinator());
      w.name("geo").value(r.geo());
      w.name("converged").value(r.converged());
      number(w.name("seconds"), r.seconds());
      delayError(w.name("delay_error"), r.delayError());
      w.name("rounds").beginArray();
      for (RoundFigures f : r.rounds()) {
        w.beginObject();
        w.name("round").value(f.round());
        w.name("landmark_round").value(f.agentRound());
        w.name("probes").value((long) f.targets() * r.landmarks());
        w.name("replies").value(f.replies());
        w.name("timeouts").value(f.timeouts());
        number(w.name("measure_seconds"), f.measureSeconds());
        w.name("positioned").value(f.positioned());
        number(w.name("median_fit_error"), f.medianFitError());
        number(w.name("p90_fit_error"), f.p90FitError());
        number(w.name("median_pair_error"), f.medianPairError());
        delayError(w.name("delay_error"), f.delayError());
        number(w.name("seconds"), f.seconds());
        w.endObject();
      }
      w.endArray();
      w.name("clients").beginArray();
      for (MethodFigures m : r.methods()) client(w, m, r.traditional(m.client()));
      w.endArray();
      List<TargetFigures> targets = r.targets();
      w.name("target").beginObject();
      number(w.name("max_mean_rtt_above_optimal_ms"), TargetFigures.MAX_EXCESS_MS);
      w.name("min_nearest_found").value(targets.isEmpty() ? 0 : targets.getFirst().nearestWanted());
      w.name("all_met").value(!targets.isEmpty() && targets.stream().allMatch(TargetFigures::met));
      w.name("clients").beginArray();
      for (TargetFigures t : targets) {
        w.beginObject();
        w.name("client").value(t.client().id());
        w.name("place").value(t.client().place());
        w.name("first_probes").value(t.probes());
        number(w.name("first_mean_rtt_above_optimal_ms"), t.excessMs());
        w.name("first_nearest_found").value(t.nearestFound());
        w.name("met").value(t.met());
        w.endObject();
      }
      w.endArray();
      w.endObject();
      w.endObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return out.append('\n').toString();
  }

  private static void client(JsonWriter w, MethodFigures m, MethodFigures base) throws IOException {
    w.beginObject();
    w.name("client").value(m.client().id());
    w.name("region").value(m.client().region());
    w.name("place").value(m.client().place());
    w.name("address").value(m.address());
    w.name("method").value(m.method());
    w.name("probes").value(m.probes());
    w.name("calibration_probes").value(m.calibrationProbes());
    w.name("timeouts").value(m.timeouts());
    w.name("servers_found").value(m.found());
    number(w.name("seconds"), m.seconds140());
    w.name("seconds_rescaled_to_140").value(m.rescaled());
    number(w.name("wall_seconds"), m.wallSeconds());
    number(w.name("probe_rate"), m.rate());
    number(w.name("mean_rtt_ms"), m.meanRttMs());
    number(w.name("median_rtt_ms"), m.medianRttMs());
    number(w.name("optimal_mean_rtt_ms"), m.optimalMeanMs());
    number(w.name("optimal_median_rtt_ms"), m.optimalMedianMs());
    number(w.name("mean_rtt_above_optimal_ms"), m.excessMs());
    w.name("nearest_found").value(m.nearestFound());
    number(w.name("probe_reduction_percent"), m == base ? Double.NaN : m.probeReductionVs(base));
    number(w.name("time_reduction_percent"), m == base ? Double.NaN : m.timeReductionVs(base));
    w.name("stop_reason").value(m.stopReason());
    if (m.position() != null) {
      w.name("position").beginArray();
      for (double c : m.position()) number(w, c);
      w.endArray();
      number(w.name("position_fit_error"), m.positionError());
    }
    if (!m.method().equals("traditional")) {
      w.name("replies").beginArray();
      List<double[]> points = m.points();
      for (double[] p : points) {
        w.beginObject();
        w.name("probe").value((long) p[0]);
        number(w.name("rtt_ms"), p[1]);
        number(w.name("predicted_ms"), p[2]);
        number(w.name("true_rtt_ms"), p[3]);
        w.endObject();
      }
      w.endArray();
    }
    w.endObject();
  }

  /** {probes, p50_ms, p99_ms, max_ms}: measured minus intended RTT of the landmarks' answered probes. */
  private static void delayError(JsonWriter w, DelayError d) throws IOException {
    w.beginObject();
    w.name("probes").value(d.probes());
    number(w.name("p50_ms"), d.p50Ms());
    number(w.name("p99_ms"), d.p99Ms());
    number(w.name("max_ms"), d.maxMs());
    w.endObject();
  }

  private static void number(JsonWriter w, double v) throws IOException {
    if (Double.isFinite(v)) w.jsonValue(num(v));
    else w.nullValue();
  }

  /** At most four decimals, no trailing zeros; {@code null} for NaN and infinities (JSON has neither). */
  static String num(double v) {
    if (!Double.isFinite(v)) return "null";
    return String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
