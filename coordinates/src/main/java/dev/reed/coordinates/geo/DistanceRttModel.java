package dev.reed.coordinates.geo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * RTT as a function of distance for a deployment: one {@link DistanceRtt} line over every labelled
 * pair, and its own line for each region pair with at least {@link EstimatorModel#regionMinPairs}
 * pairs (routes between two regions share submarine cables and detours a global line averages
 * away).
 *
 * @param global the line over every pair
 * @param byRegionPair lines of the region pairs with enough pairs, keyed by {@link #regionPair}
 */
public record DistanceRttModel(DistanceRtt global, Map<String, DistanceRtt> byRegionPair) {

  public DistanceRttModel {
    byRegionPair = Map.copyOf(byRegionPair);
  }

  /**
   * Fits the model on labelled pairs.
   *
   * @throws IllegalArgumentException with fewer than 2 pairs
   */
  public static DistanceRttModel fit(List<LabelledPair> pairs, EstimatorModel cfg) {
    DistanceRtt global = line(pairs, cfg);
    Map<String, DistanceRtt> regional = new HashMap<>();
    if (cfg.regionMinPairs() > 0) {
      Map<String, List<LabelledPair>> byPair = new HashMap<>();
      for (LabelledPair p : pairs) {
        String k = p.regionPair();
        if (k != null) {
          byPair.computeIfAbsent(k, x -> new ArrayList<>()).add(p);
        }
      }
      byPair.forEach((k, ps) -> {
        if (ps.size() >= cfg.regionMinPairs()) {
          regional.put(k, line(ps, cfg));
        }
      });
    }
    return new DistanceRttModel(global, regional);
  }

  /** Predicted RTT over {@code km} between hosts in the two regions (either may be null). */
  public double ms(double km, String regionA, String regionB) {
    String k = regionPair(regionA, regionB);
    DistanceRtt line = k == null ? null : byRegionPair.get(k);
    return (line == null ? global : line).ms(km);
  }

  /** Predicted RTT between two places. */
  public double ms(Place a, Place b) {
    return ms(a.kmTo(b), a.region(), b.region());
  }

  /** The unordered pair of two regions as a key, or null when either is unknown. */
  static String regionPair(String a, String b) {
    if (a == null || b == null) {
      return null;
    }
    return a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a;
  }

  private static DistanceRtt line(List<LabelledPair> pairs, EstimatorModel cfg) {
    double[] km = new double[pairs.size()];
    double[] ms = new double[pairs.size()];
    for (int i = 0; i < km.length; i++) {
      km[i] = pairs.get(i).km();
      ms[i] = pairs.get(i).rttMs();
    }
    return DistanceRtt.fit(km, ms, cfg.quantile(), cfg.minMsPerKm(), cfg.maxMsPerKm());
  }
}
