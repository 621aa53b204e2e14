package dev.reed.eval;

import dev.reed.coordinates.Stats;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.discovery.DiscoveryModel;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/** Runs the seeds (and the optional sweep) and reports progress on stderr. */
final class Evaluation {

  /**
   * @param methods REED and each baseline the data allow, in report order: {@link MethodSummary}'s
   *     figures, mean over seeds (empty without baselines)
   */
  record Result(List<Map<String, Double>> perSeed, Map<String, Double> overall, SeedRun.Output first,
      List<long[]> seedLandmarks, Map<String, Map<String, Double>> methods) {}

  /**
   * @param relErrorsByModel pooled relative errors per coordinate model ("2", "3", ..., "2h")
   * @param byLandmarks per landmark count: {median, p90} of the relative error
   */
  record Sweep(Map<String, double[]> relErrorsByModel, Map<Integer, double[]> byLandmarks, int seeds) {}

  private final RttMatrix m;
  private final EvalSettings s;
  private final PrintWriter err;

  Evaluation(RttMatrix m, EvalSettings s, PrintWriter err) {
    this.m = m;
    this.s = s;
    this.err = err;
  }

  Result run(ExecutorService pool) throws Exception {
    List<Map<String, Double>> perSeed = new ArrayList<>();
    List<long[]> lms = new ArrayList<>();
    SeedRun.Output first = null;
    Map<String, List<Map<String, Double>>> methodSeeds = new LinkedHashMap<>();
    for (int i = 0; i < s.seeds(); i++) {
      long seed = s.seed() + i;
      long t0 = System.nanoTime();
      SeedRun.Output o = new SeedRun(m, s, false).run(seed, i == 0, pool);
      Map<String, Double> sum = Summary.of(o, s);
      perSeed.add(sum);
      lms.add(Arrays.stream(o.landmarks()).asLongStream().toArray());
      if (i == 0) {
        first = o;
      }
      progress("seed %d (%d/%d): %d clients in %.1f s: rel.err %.3f, P@%d %.2f, intelligent %.1f probes (%.2f), all-nearest %.1f",
          seed, i + 1, s.seeds(), o.clients().size(), (System.nanoTime() - t0) / 1e9, sum.get("relErrMedian"),
          s.nClose(), sum.get("precisionAt10"), sum.get("intelligent.probes"), sum.get("intelligent.precision"),
          sum.get("allNearestSeen"));
      if (o.lying() != null) {
        LyingLandmarks.Outcome l = o.lying();
        sum.put("lying.detected", l.liar() < 0 ? Double.NaN : l.detectedAfter() > 0 ? 1.0 : 0.0);
        sum.put("lying.detectionRounds", l.detectedAfter() > 0 ? l.detectedAfter() : Double.NaN);
        sum.put("lying.falseQuarantines", (double) l.falseQuarantines());
        progress("seed %d %s", seed, new LyingLandmarks(s.lying(), s.coordinates()).describe(l));
      }
      if (s.reports().half()) {
        SeedRun.Reports r = o.reports();
        progress("seed %d reports: %d sent (%d by liars), %d RTTs learned, %d dropped %s", seed, r.sent(), r.liars(),
            r.kept(), r.droppedCount(), r.dropped());
        sum.putAll(ReportAttack.summary(r, o.servers().length));
        progress("seed %d reports: %s", seed, ReportAttack.describe(r, o.servers().length));
      }
      if (s.baselines()) {
        Map<String, Map<String, Double>> methods = methods(o, seed, pool);
        methods.forEach((k, v) -> methodSeeds.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
        StringBuilder line = new StringBuilder();
        methods.forEach((k, v) -> line.append(line.isEmpty() ? "" : ", ").append(k)
            .append(String.format(Locale.ROOT, " %.2f", v.get("precisionAt10"))));
        progress("seed %d baselines, P@%d: %s", seed, s.nClose(), line);
      }
    }
    Map<String, Map<String, Double>> methods = new LinkedHashMap<>();
    for (String k : Baselines.LABELS.keySet()) {
      if (methodSeeds.containsKey(k)) {
        methods.put(k, Summary.meanOver(methodSeeds.get(k)));
      }
    }
    return new Result(perSeed, Summary.meanOver(perSeed), first, lms, methods);
  }

  /** REED and every baseline on one seed, in report order. */
  private Map<String, Map<String, Double>> methods(SeedRun.Output o, long seed, ExecutorService pool) throws Exception {
    Map<String, Baselines.MethodRun> runs = new LinkedHashMap<>();
    runs.put("reed", new Baselines.MethodRun(o.clients().stream().map(MethodOutcome::of).toList(), o.relErrors()));
    runs.putAll(new Baselines(m, s, line -> progress("%s", line)).run(o));
    EvalSettings gnp = gnpSettings();
    if (gnp != null) {
      SeedRun.Output g = new SeedRun(m, gnp, false).run(seed, false, pool);
      runs.put("gnp", new Baselines.MethodRun(g.clients().stream().map(MethodOutcome::of).toList(), g.relErrors()));
    }
    Map<String, Map<String, Double>> out = new LinkedHashMap<>();
    for (String k : Baselines.LABELS.keySet()) {
      if (runs.containsKey(k)) {
        out.put(k, MethodSummary.of(runs.get(k), m.nodes()));
      }
    }
    for (String geo : List.of("fusedZero", "geoNoisy")) {
      if (runs.containsKey(geo)) {
        out.get("reed").put("worseThan." + geo, worseShare(runs.get("reed").clients(), runs.get(geo).clients()));
      }
    }
    return out;
  }

  /** Intelligent N_close probes beyond which a client counts as worse served than by another order. */
  static final double WORSE_BY_PROBES = 5;

  /**
   * The share of clients for whom REED's Intelligent N_close needed more than
   * {@link #WORSE_BY_PROBES} probes beyond what the other order needed: "never worse than geography"
   * per client, not only on average.
   */
  static double worseShare(List<MethodOutcome> reed, List<MethodOutcome> other) {
    Map<Integer, Double> theirs = new java.util.HashMap<>();
    other.forEach(o -> theirs.put(o.client(), (double) o.policies().get("intelligent").probes()));
    int n = 0;
    int worse = 0;
    for (MethodOutcome r : reed) {
      Double t = theirs.get(r.client());
      if (t != null) {
        n++;
        if (r.policies().get("intelligent").probes() > t + WORSE_BY_PROBES) {
          worse++;
        }
      }
    }
    return n == 0 ? Double.NaN : (double) worse / n;
  }

  /**
   * Straightforward GNP as a client would run it (models/gnp-baseline.properties with every
   * landmark calibrating): random landmarks, plain LM, the served order, no locations. Its own landmarks make
   * its clients differ from REED's. Null when more landmarks than a client may probe.
   */
  private EvalSettings gnpSettings() {
    int l = s.landmarkList() != null ? s.landmarkList().length : s.landmarks();
    if (l > 64) {
      return null;
    }
    java.util.Properties p = new java.util.Properties();
    p.setProperty("calibrationProbes", Integer.toString(l));
    p.setProperty("spreadProbes", Integer.toString(l));
    p.setProperty("comparison", "false");
    p.setProperty("refitLimit", "0");
    p.setProperty("geo", "false"); // GNP as published knows no locations
    return s.toBuilder().strategy(LandmarkStrategy.RANDOM).coordinates(s.coordinates().withRobustThreshold(0))
        .model(DiscoveryModel.of(p), s.pageSize()).baselines(false, s.geoError()).build();
  }

  Sweep sweep(ExecutorService pool) throws Exception {
    int seeds = Math.min(s.seeds(), 3);
    Map<String, double[]> byModel = new LinkedHashMap<>();
    CoordinateConfig base = s.coordinates();
    List<CoordinateConfig> models = new ArrayList<>();
    for (int d : new int[] {2, 3, 4, 5, 8, 10}) {
      models.add(base.withDimensions(d).withHeight(false));
    }
    models.add(base.withDimensions(2).withHeight(true));
    if (!(base.dimensions() == 2 && base.height())) {
      models.add(base);
    }
    for (CoordinateConfig c : models) {
      String name = c.dimensions() + (c.height() ? "h" : "");
      int landmarks = s.landmarkList() != null ? s.landmarkList().length : s.landmarks();
      if (byModel.containsKey(name) || landmarks < c.dimensions() + 2) {
        continue;
      }
      List<double[]> errs = new ArrayList<>();
      for (int i = 0; i < seeds; i++) {
        errs.add(new SeedRun(m, s.toBuilder().coordinates(c).build(), true).run(s.seed() + i, false, pool).relErrors());
      }
      double[] all = errs.stream().flatMapToDouble(Arrays::stream).toArray();
      byModel.put(name, all);
      progress("sweep: model %s: median relative error %.3f", name, Stats.quantileOf(all, 0.5));
    }
    Map<Integer, double[]> byL = new LinkedHashMap<>();
    int maxL = Math.min(40, m.size() / 3);
    for (int l : new int[] {6, 8, 10, 12, 15, 20, 25, 30, 40}) {
      if (l < base.dimensions() + 2 || l > maxL) {
        continue;
      }
      List<double[]> errs = new ArrayList<>();
      for (int i = 0; i < seeds; i++) {
        errs.add(new SeedRun(m, s.toBuilder().landmarks(l, null).build(), true).run(s.seed() + i, false, pool).relErrors());
      }
      double[] all = errs.stream().flatMapToDouble(Arrays::stream).toArray();
      byL.put(l, new double[] {Stats.quantileOf(all, 0.5), Stats.quantileOf(all, 0.9)});
      progress("sweep: %d landmarks: median relative error %.3f", l, byL.get(l)[0]);
    }
    return new Sweep(byModel, byL, seeds);
  }

  private void progress(String fmt, Object... args) {
    err.println("eval: " + String.format(Locale.ROOT, fmt, args));
    err.flush();
  }
}
