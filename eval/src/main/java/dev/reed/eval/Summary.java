package dev.reed.eval;

import dev.reed.coordinates.Stats;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Aggregate figures of one seed (and their mean over seeds), as flat named values: the names are
 * the keys of results.json's "overall" object and of report.md's tables.
 */
final class Summary {
  private Summary() {}

  /** Bins of the client's RTT to its nearest landmark (ms): ordering quality follows it. */
  static final double[] NEAREST_LANDMARK_BINS = {0, 5, 10, 20, 40, Double.POSITIVE_INFINITY};

  /** The key prefix of one nearest-landmark bin, e.g. "byNearestLandmark.5-10" or ".40-". */
  static String nearestLandmarkBin(int i) {
    double hi = NEAREST_LANDMARK_BINS[i + 1];
    return "byNearestLandmark." + (int) NEAREST_LANDMARK_BINS[i] + "-" + (Double.isInfinite(hi) ? "" : (int) hi);
  }

  static final String[] POLICY_ORDER = {"first", "intelligent", "rttstop40", "rttstop80", "rttstop120", "rttstop160",
      "exhaustive"};

  static Map<String, Double> of(SeedRun.Output o, EvalSettings s) {
    Map<String, Double> v = new LinkedHashMap<>();
    List<ClientResult> cs = o.clients();
    double[] pooled = o.relErrors().clone();
    Arrays.sort(pooled);
    v.put("clients", (double) cs.size());
    v.put("failedClients", (double) o.failedClients());
    v.put("unpositionedServers", (double) o.unpositioned());
    v.put("landmarkEmbeddingError", o.embedding().medianRelativeError());
    v.put("relErrMedian", Stats.quantile(pooled, 0.5));
    v.put("relErrP90", Stats.quantile(pooled, 0.9));
    v.put("relErrClientMedianMean", mean(cs, ClientResult::relErrMedian));
    v.put("relErrCalibrationMedian", mean(cs, ClientResult::relErrCalibration));
    v.put("relErrFinalMedian", mean(cs, ClientResult::relErrFinal));
    v.put("relErrServedMedian", mean(cs, ClientResult::relErrServed));
    v.put("spearman", mean(cs, ClientResult::spearman));
    v.put("precisionAt10", mean(cs, ClientResult::precisionAt10));
    v.put("allNearestSeen", mean(cs, c -> c.allNearestSeen()));
    v.put("allNearestSeenRandom", mean(cs, c -> c.randomAllNearestSeen()));
    v.put("calibrationProbes", mean(cs, c -> c.calibrationProbes()));
    v.put("optimalMeanMs", mean(cs, ClientResult::optimalMeanMs));
    double servers = mean(cs, c -> c.servers());
    v.put("servers", servers);
    for (String p : POLICY_ORDER) {
      double probes = mean(cs, c -> c.policies().get(p).probes());
      v.put(p + ".probes", probes);
      v.put(p + ".seconds", probes / s.rate());
      v.put(p + ".foundMeanMs", mean(cs, c -> c.policies().get(p).foundMeanMs()));
      v.put(p + ".foundMedianMs", mean(cs, c -> c.policies().get(p).foundMedianMs()));
      v.put(p + ".precision", mean(cs, c -> c.policies().get(p).precision()));
      v.put(p + ".reductionPct", 100 * (1 - probes / servers));
      if (p.startsWith("rttstop")) {
        double found = cs.stream().mapToDouble(c -> c.policies().get(p).playableFound()).sum();
        double total = cs.stream().mapToDouble(c -> c.policies().get(p).playableTotal()).sum();
        v.put(p + ".playableFoundPct", total == 0 ? Double.NaN : 100 * found / total);
        v.put(p + ".playableFound", found / Math.max(1, cs.size()));
      }
    }
    for (int i = 0; i + 1 < NEAREST_LANDMARK_BINS.length; i++) {
      double lo = NEAREST_LANDMARK_BINS[i];
      double hi = NEAREST_LANDMARK_BINS[i + 1];
      List<ClientResult> in = cs.stream().filter(c -> c.nearestLandmarkMs() >= lo && c.nearestLandmarkMs() < hi).toList();
      String k = nearestLandmarkBin(i);
      v.put(k + ".clients", (double) in.size());
      v.put(k + ".precisionAt10", mean(in, ClientResult::precisionAt10));
      v.put(k + ".intelligent.probes", mean(in, c -> c.policies().get("intelligent").probes()));
      v.put(k + ".allNearestSeen", mean(in, c -> c.allNearestSeen()));
    }
    return v;
  }

  /** Mean of each key over the seeds (NaN entries skipped). */
  static Map<String, Double> meanOver(List<Map<String, Double>> perSeed) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String k : perSeed.get(0).keySet()) {
      out.put(k, Ranks.mean(perSeed.stream().mapToDouble(m -> m.getOrDefault(k, Double.NaN)).toArray()));
    }
    return out;
  }

  private static double mean(List<ClientResult> cs, java.util.function.ToDoubleFunction<ClientResult> f) {
    return Ranks.mean(cs.stream().mapToDouble(f).toArray());
  }
}
