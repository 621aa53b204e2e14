package dev.reed.eval;

import dev.reed.coordinates.Stats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The figures every method of the comparison table shares, for one seed, as flat named values
 * (the keys of results.json's {@code baselines.<method>} objects): over all its clients and, when
 * the nodes have regions, per region of the client ({@code byRegion.<region>.<figure>}; every
 * region of the node list appears, so seeds average key by key).
 */
final class MethodSummary {
  private MethodSummary() {}

  static Map<String, Double> of(Baselines.MethodRun run, NodeTable nodes) {
    Map<String, Double> v = new LinkedHashMap<>();
    List<MethodOutcome> cs = run.clients();
    v.put("clients", (double) cs.size());
    v.put("calibrationProbes", mean(cs, MethodOutcome::calibrationProbes));
    v.put("relErrMedian", run.relErrors().length == 0 ? Double.NaN : Stats.quantileOf(run.relErrors(), 0.5));
    figures(v, "", cs);
    v.put("first.probes", mean(cs, c -> c.policies().get("first").probes()));
    v.put("first.foundMeanMs", mean(cs, c -> c.policies().get("first").foundMeanMs()));
    v.put("intelligent.foundMeanMs", mean(cs, c -> c.policies().get("intelligent").foundMeanMs()));
    for (String region : new TreeSet<>(nodes.nodes().stream().map(NodeTable.Node::region).filter(Objects::nonNull).toList())) {
      List<MethodOutcome> in = cs.stream().filter(c -> region.equals(nodes.node(c.client()).region())).toList();
      String k = "byRegion." + region + ".";
      v.put(k + "clients", (double) in.size());
      figures(v, k, in);
    }
    return v;
  }

  private static void figures(Map<String, Double> v, String prefix, List<MethodOutcome> cs) {
    v.put(prefix + "precisionAt10", mean(cs, MethodOutcome::precisionAt10));
    v.put(prefix + "intelligent.probes", mean(cs, c -> c.policies().get("intelligent").probes()));
    v.put(prefix + "intelligent.precision", mean(cs, c -> c.policies().get("intelligent").precision()));
    v.put(prefix + "allNearestSeen", mean(cs, MethodOutcome::allNearestSeen));
  }

  private static double mean(List<MethodOutcome> cs, ToDoubleFunction<MethodOutcome> f) {
    return Ranks.mean(cs.stream().mapToDouble(f).toArray());
  }

  /** The regions the keys of a summary name, in order. */
  static List<String> regions(Map<String, Double> summary) {
    return summary.keySet().stream().filter(k -> k.startsWith("byRegion.") && k.endsWith(".clients"))
        .map(k -> k.substring("byRegion.".length(), k.length() - ".clients".length())).toList();
  }
}
