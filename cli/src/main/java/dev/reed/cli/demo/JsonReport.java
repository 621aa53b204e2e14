package dev.reed.cli.demo;

import com.google.gson.JsonPrimitive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The demo's figures as JSON ({@code --json FILE}): {@code {"clients": [{"client", "region",
 * "method", "probes", "seconds", "mean_rtt_ms", "median_rtt_ms", "optimal_mean_rtt_ms", ...}]}}
 * plus the run's setting and rounds; REED rows also carry the client's position (components, then
 * the height) and every reply (probe index, measured, predicted and true RTT). Written by hand: a flat, fixed schema needs no JSON library.
 * Numbers that are not finite are written as {@code null}.
 */
final class JsonReport {
  private JsonReport() {}

  static void write(DemoReport r, Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) Files.createDirectories(parent);
    Files.writeString(file, render(r));
  }

  static String render(DemoReport r) {
    StringBuilder b = new StringBuilder("{\n");
    b.append("  \"world\": ").append(str(r.world())).append(",\n");
    b.append("  \"servers\": ").append(r.servers()).append(",\n");
    b.append("  \"landmarks\": ").append(r.landmarks()).append(",\n");
    b.append("  \"n_close\": ").append(r.nClose()).append(",\n");
    b.append("  \"kafka\": ").append(str(r.kafka())).append(",\n");
    b.append("  \"coordinator\": ").append(str(r.coordinator())).append(",\n");
    b.append("  \"converged\": ").append(r.converged()).append(",\n");
    b.append("  \"seconds\": ").append(num(r.seconds())).append(",\n");
    b.append("  \"rounds\": [");
    List<RoundFigures> rounds = r.rounds();
    for (int i = 0; i < rounds.size(); i++) {
      RoundFigures f = rounds.get(i);
      b.append(i == 0 ? "\n" : ",\n").append("    {\"round\": ").append(f.round())
          .append(", \"landmark_round\": ").append(f.agentRound())
          .append(", \"probes\": ").append((long) f.targets() * r.landmarks())
          .append(", \"replies\": ").append(f.replies())
          .append(", \"timeouts\": ").append(f.timeouts())
          .append(", \"measure_seconds\": ").append(num(f.measureSeconds()))
          .append(", \"positioned\": ").append(f.positioned())
          .append(", \"median_fit_error\": ").append(num(f.medianFitError()))
          .append(", \"p90_fit_error\": ").append(num(f.p90FitError()))
          .append(", \"median_pair_error\": ").append(num(f.medianPairError()))
          .append(", \"seconds\": ").append(num(f.seconds())).append('}');
    }
    b.append(rounds.isEmpty() ? "],\n" : "\n  ],\n");
    b.append("  \"clients\": [");
    List<MethodFigures> ms = r.methods();
    for (int i = 0; i < ms.size(); i++) {
      MethodFigures m = ms.get(i);
      MethodFigures base = r.traditional(m.client());
      b.append(i == 0 ? "\n" : ",\n").append("    {\"client\": ").append(str(m.client().id()))
          .append(", \"region\": ").append(str(m.client().region()))
          .append(", \"place\": ").append(str(m.client().place()))
          .append(", \"address\": ").append(str(m.address()))
          .append(", \"method\": ").append(str(m.method()))
          .append(", \"probes\": ").append(m.probes())
          .append(", \"calibration_probes\": ").append(m.calibrationProbes())
          .append(", \"timeouts\": ").append(m.timeouts())
          .append(", \"servers_found\": ").append(m.found())
          .append(", \"seconds\": ").append(num(m.seconds140()))
          .append(", \"seconds_rescaled_to_140\": ").append(m.rescaled())
          .append(", \"wall_seconds\": ").append(num(m.wallSeconds()))
          .append(", \"probe_rate\": ").append(num(m.rate()))
          .append(", \"mean_rtt_ms\": ").append(num(m.meanRttMs()))
          .append(", \"median_rtt_ms\": ").append(num(m.medianRttMs()))
          .append(", \"optimal_mean_rtt_ms\": ").append(num(m.optimalMeanMs()))
          .append(", \"optimal_median_rtt_ms\": ").append(num(m.optimalMedianMs()))
          .append(", \"nearest_found\": ").append(m.nearestFound())
          .append(", \"probe_reduction_percent\": ").append(m == base ? "null" : num(m.probeReductionVs(base)))
          .append(", \"time_reduction_percent\": ").append(m == base ? "null" : num(m.timeReductionVs(base)))
          .append(", \"stop_reason\": ").append(str(m.stopReason()));
      if (m.position() != null) {
        b.append(", \"position\": [");
        for (int k = 0; k < m.position().length; k++) b.append(k == 0 ? "" : ", ").append(num(m.position()[k]));
        b.append("], \"position_fit_error\": ").append(num(m.positionError()));
      }
      if (!m.method().equals("traditional")) {
        b.append(", \"replies\": [");
        for (int k = 0; k < m.points().size(); k++) {
          double[] p = m.points().get(k);
          b.append(k == 0 ? "" : ", ").append("{\"probe\": ").append((long) p[0]).append(", \"rtt_ms\": ").append(num(p[1]))
              .append(", \"predicted_ms\": ").append(num(p[2])).append(", \"true_rtt_ms\": ").append(num(p[3])).append('}');
        }
        b.append(']');
      }
      b.append('}');
    }
    b.append(ms.isEmpty() ? "]\n" : "\n  ]\n");
    return b.append("}\n").toString();
  }

  static String num(double v) {
    if (!Double.isFinite(v)) return "null";
    return String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
  }

  static String str(String s) {
    return s == null ? "null" : new JsonPrimitive(s).toString(); // quoted and escaped, no HTML escaping
  }
}
