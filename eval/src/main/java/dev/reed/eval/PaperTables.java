package dev.reed.eval;

import dev.reed.coordinates.Stats;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** report.md: the paper's Tables I-VI layout, filled with this run's numbers (mean over seeds). */
final class PaperTables {
  private final RttMatrix m;
  private final EvalSettings s;

  PaperTables(RttMatrix m, EvalSettings s) {
    this.m = m;
    this.s = s;
  }

  String render(Evaluation.Result r, Evaluation.Sweep sweep) {
    Map<String, Double> o = r.overall();
    StringBuilder b = new StringBuilder();
    int l = s.landmarkList() != null ? s.landmarkList().length : s.landmarks();
    b.append("# REED offline evaluation\n\n");
    b.append(f("%d nodes, %d landmarks (%s), %d-D%s, robust threshold %.2f, clients `%s`, N_close %d, W %d, "
            + "%.0f probes/s, calibration %s, re-positioning %s, landmark comparison %s; mean over %d landmark "
            + "seed(s) from %d.%n%n",
        m.size(), l, s.landmarkList() != null ? "listed" : s.strategy().name().toLowerCase(Locale.ROOT),
        s.coordinates().dimensions(), s.coordinates().height() ? "+height" : "", s.coordinates().robustThreshold(),
        s.clients().name().toLowerCase(Locale.ROOT), s.nClose(), s.window(), s.rate(),
        s.model().calibrationProbes() + " (" + s.model().spreadProbes(s.coordinates().dimensions())
            + " spread by Algorithm 3, then the nearest " + switch (s.model().near()) {
              case BEACONS -> "beacons within " + Math.round(s.model().nearBeaconMaxMs()) + " ms, then any)";
              case ANY -> "calibration points of any kind)";
            },
        s.model().refitLimit() > 0 ? "on" : "off", s.model().comparison() ? "on" : "off", s.seeds(), s.seed()));

    b.append("## Table I: setup\n\n| clients | servers per client | calibration probes | landmark embedding error (median) | unpositioned servers | failed clients |\n|---|---|---|---|---|---|\n");
    b.append(f("| %.0f | %.0f | %.1f | %.3f | %.1f | %.1f |%n%n", o.get("clients"), o.get("servers"),
        o.get("calibrationProbes"), o.get("landmarkEmbeddingError"), o.get("unpositionedServers"), o.get("failedClients")));

    b.append("## Table II: prediction accuracy (client placed from every landmark)\n\n| relative error median | p90 | mean of per-client medians | as calibrated | after the last re-fit | as served (the probe order's prediction) | Spearman | First P@" + s.nClose()
        + " |\n|---|---|---|---|---|---|---|---|\n");
    b.append(f("| %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |%n%n", o.get("relErrMedian"), o.get("relErrP90"),
        o.get("relErrClientMedianMean"), o.get("relErrCalibrationMedian"), o.get("relErrFinalMedian"),
        o.get("relErrServedMedian"), o.get("spearman"), o.get("precisionAt10")));

    b.append("## Table III: First and Intelligent N_close\n\n| policy | probes (incl. calibration) | time (s) | mean RTT found (ms) | median RTT found (ms) | optimal mean (ms) | precision | reduction vs exhaustive |\n|---|---|---|---|---|---|---|---|\n");
    for (String p : new String[] {"first", "intelligent"}) {
      b.append(f("| %s | %.1f | %.2f | %.1f | %.1f | %.1f | %.3f | %.1f %% |%n",
          p.equals("first") ? "First N_close (" + s.nClose() + ")" : "Intelligent N_close (" + s.nClose() + ", W " + s.window()
              + (s.windowMarginMs() > 0 ? f(", margin %.1f ms", s.windowMarginMs()) : "") + ")",
          o.get(p + ".probes"), o.get(p + ".seconds"), o.get(p + ".foundMeanMs"), o.get(p + ".foundMedianMs"),
          o.get("optimalMeanMs"), o.get(p + ".precision"), o.get(p + ".reductionPct")));
    }
    b.append('\n');

    b.append("## Table IV: Algorithm 5 (RTT_stop, 2nd percentile of the last " + s.model().rttStopWindow()
        + " probes)\n\n| RTT_stop (ms) | probes | time (s) | playable found per client | playable found | reduction |\n|---|---|---|---|---|---|\n");
    for (double st : EvalSettings.RTT_STOPS) {
      String p = "rttstop" + (int) st;
      b.append(f("| %.0f | %.1f | %.2f | %.1f | %.1f %% | %.1f %% |%n", st, o.get(p + ".probes"), o.get(p + ".seconds"),
          o.get(p + ".playableFound"), o.get(p + ".playableFoundPct"), o.get(p + ".reductionPct")));
    }
    b.append('\n');

    b.append("## Table V: REED order vs traditional (random) order\n\n| | probes until all " + s.nClose()
        + " nearest seen | time (s) |\n|---|---|---|\n");
    b.append(f("| REED (incl. calibration) | %.1f | %.2f |%n", o.get("allNearestSeen"), o.get("allNearestSeen") / s.rate()));
    b.append(f("| traditional, random order | %.1f | %.2f |%n", o.get("allNearestSeenRandom"),
        o.get("allNearestSeenRandom") / s.rate()));
    b.append(f("| exhaustive | %.1f | %.2f |%n%n", o.get("exhaustive.probes"), o.get("exhaustive.seconds")));

    b.append("## Table VI: per landmark seed\n\n| seed | landmark nodes | rel. error median | P@" + s.nClose()
        + " | intelligent probes | intelligent precision | all nearest seen |\n|---|---|---|---|---|---|---|\n");
    List<Map<String, Double>> ps = r.perSeed();
    for (int i = 0; i < ps.size(); i++) {
      Map<String, Double> v = ps.get(i);
      StringBuilder lms = new StringBuilder();
      for (long x : r.seedLandmarks().get(i)) {
        lms.append(lms.isEmpty() ? "" : " ").append(x);
      }
      b.append(f("| %d | %s | %.3f | %.3f | %.1f | %.3f | %.1f |%n", s.seed() + i, lms, v.get("relErrMedian"),
          v.get("precisionAt10"), v.get("intelligent.probes"), v.get("intelligent.precision"), v.get("allNearestSeen")));
    }
    b.append('\n');
    b.append("## Table VII: ordering quality by the client's RTT to its nearest landmark (mean over seeds)\n\n"
        + "| nearest landmark (ms) | clients | First P@" + s.nClose() + " | intelligent probes | all nearest seen |\n"
        + "|---|---|---|---|---|\n");
    for (int i = 0; i + 1 < Summary.NEAREST_LANDMARK_BINS.length; i++) {
      String k = Summary.nearestLandmarkBin(i);
      b.append(f("| %s | %.1f | %s | %s | %s |%n", k.substring(k.indexOf('.') + 1), o.get(k + ".clients"),
          orDash("%.3f", o.get(k + ".precisionAt10")), orDash("%.1f", o.get(k + ".intelligent.probes")),
          orDash("%.1f", o.get(k + ".allNearestSeen"))));
    }
    b.append('\n');

    baselines(b, r.methods());
    if (sweep != null) {
      b.append("## Sweep: relative error by coordinate model (" + sweep.seeds() + " seed(s))\n\n| model | median | p90 |\n|---|---|---|\n");
      for (Map.Entry<String, double[]> e : sweep.relErrorsByModel().entrySet()) {
        String name = e.getKey().endsWith("h") ? e.getKey().replace("h", "-D+height") : e.getKey() + "-D";
        b.append(f("| %s | %.3f | %.3f |%n", name, Stats.quantileOf(e.getValue(), 0.5), Stats.quantileOf(e.getValue(), 0.9)));
      }
      b.append("\n## Sweep: relative error by number of landmarks\n\n| landmarks | median | p90 |\n|---|---|---|\n");
      for (Map.Entry<Integer, double[]> e : sweep.byLandmarks().entrySet()) {
        b.append(f("| %d | %.3f | %.3f |%n", e.getKey(), e.getValue()[0], e.getValue()[1]));
      }
      b.append('\n');
    }
    b.append("Plots: probed-rtt-vs-time.png").append(sweep != null ? ", relerr-cdf.png, relerr-vs-landmarks.png" : "")
        .append(".\n");
    return b.toString();
  }

  /** The baselines table: every method side by side, overall and per region of the client. */
  private void baselines(StringBuilder b, Map<String, Map<String, Double>> methods) {
    if (methods.isEmpty()) {
      return;
    }
    b.append("## Baselines: the same clients, server lists and truth (mean over seeds)\n\n"
        + "Probes include calibration; a static order's probes are its positions."
        + (methods.containsKey("geoExact") ? " Geo rows predict RTT through a line fitted on the landmarks' RTTs to"
            + " located nodes." : "")
        + (methods.containsKey("gnp") ? " GNP uses its own random landmarks, so its clients differ." : "") + "\n\n"
        + "| method | clients | calibration probes | median rel. error | P@" + s.nClose() + " | Intelligent probes"
        + " (precision) | all " + s.nClose() + " nearest seen after |\n|---|---|---|---|---|---|---|\n");
    for (Map.Entry<String, Map<String, Double>> e : methods.entrySet()) {
      Map<String, Double> v = e.getValue();
      b.append(f("| %s | %.1f | %.1f | %s | %.3f | %.1f (%.3f) | %.1f |%n", Baselines.LABELS.get(e.getKey()), v.get("clients"),
          v.get("calibrationProbes"), orDash("%.3f", v.get("relErrMedian")), v.get("precisionAt10"),
          v.get("intelligent.probes"), v.get("intelligent.precision"), v.get("allNearestSeen")));
    }
    for (String geo : List.of("fusedZero", "geoNoisy")) {
      Double w = methods.get("reed").get("worseThan." + geo);
      if (w != null && Double.isFinite(w)) {
        b.append(f("Clients for whom reed's Intelligent N_close needs more than %.0f probes beyond %s: %.1f %%.%n",
            Evaluation.WORSE_BY_PROBES, geo, 100 * w));
      }
    }
    b.append('\n');
    List<String> regions = MethodSummary.regions(methods.values().iterator().next());
    if (regions.isEmpty()) {
      return;
    }
    b.append("### By region of the client: P@" + s.nClose() + " / Intelligent probes / all " + s.nClose()
        + " nearest seen after\n\n| region | clients |");
    methods.keySet().forEach(k -> b.append(' ').append(k).append(" |"));
    b.append("\n|---|---|").append("---|".repeat(methods.size())).append('\n');
    for (String region : regions) {
      String k = "byRegion." + region + ".";
      b.append(f("| %s | %.1f |", region, methods.get("reed").get(k + "clients")));
      for (Map<String, Double> v : methods.values()) {
        b.append(' ').append(Double.isFinite(v.getOrDefault(k + "precisionAt10", Double.NaN))
            ? f("%.2f / %.1f / %.1f", v.get(k + "precisionAt10"), v.get(k + "intelligent.probes"), v.get(k + "allNearestSeen"))
            : "-").append(" |");
      }
      b.append('\n');
    }
    b.append('\n');
  }

  /** A bin without clients has no figures: "-" rather than NaN. */
  private static String orDash(String fmt, double v) {
    return Double.isFinite(v) ? f(fmt, v) : "-";
  }

  private static String f(String fmt, Object... args) {
    return String.format(Locale.ROOT, fmt, args);
  }
}
