package dev.reed.coordinates.integrity;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.PositionFit;
import dev.reed.coordinates.Stats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Measures each landmark against the others ({@link LandmarkEvidence}). A lying landmark distorts
 * whatever it takes part in, so nothing it measured is used to judge it: it is placed among the
 * other trusted landmarks from its mesh RTTs alone, and each server is positioned from the other
 * landmarks' RTTs alone (leave one landmark out, as {@code coordinates.geo.LeaveOneOutCoordinates}
 * does for the fusion's cross-validation); its residuals are what it reports minus what those
 * positions predict. Quarantined landmarks are no anchors here (the caller leaves them out of
 * {@code trusted}) but are still measured, so they can be readmitted.
 *
 * <p>Cost: one host fit per (landmark, server) pair, L x min(S, maxServers) fits; 3,000 fits for 15
 * landmarks and the default 200 servers, 13 ms (LandmarkResidualsBenchmark). Stateless and thread-safe.
 */
public final class LandmarkResiduals {
  private final HostPositioner positioner;
  private final QuarantineConfig config;

  public LandmarkResiduals(HostPositioner positioner, QuarantineConfig config) {
    this.positioner = positioner;
    this.config = config;
  }

  /**
   * @param ids landmark ids, the order of {@code meshMs}' rows and columns and of the server columns
   * @param meshMs symmetric landmark RTTs (ms, NaN = none)
   * @param trusted coordinate of each landmark of the current embedding by id (quarantined ones
   *     absent); the frame every position is taken in
   * @param serverMinMs {@code [server][landmark]} window minima (ms, NaN = none); at most
   *     {@code maxServers} rows are used (the caller samples deterministically)
   * @param serverSpreadMs {@code [server][landmark]} window 90th percentile minus minimum (ms, NaN =
   *     fewer than two samples), or null
   * @return evidence per id, in the order of {@code ids}
   */
  public Map<String, LandmarkEvidence> measure(List<String> ids, double[][] meshMs, Map<String, Coordinate> trusted,
      double[][] serverMinMs, double[][] serverSpreadMs) {
    return measure(ids, meshMs, trusted, serverMinMs, serverSpreadMs, null);
  }

  /**
   * The same, with each pair's newest RTT for the step signals ({@link LandmarkEvidence#step()}).
   *
   * @param serverNewestMs {@code [server][landmark]} the newest round's RTT (ms, NaN = none), or null
   */
  public Map<String, LandmarkEvidence> measure(List<String> ids, double[][] meshMs, Map<String, Coordinate> trusted,
      double[][] serverMinMs, double[][] serverSpreadMs, double[][] serverNewestMs) {
    int n = ids.size();
    if (meshMs.length != n) throw new IllegalArgumentException("mesh has " + meshMs.length + " rows for " + n + " landmarks");
    int servers = Math.min(serverMinMs.length, config.maxServers());
    Map<String, LandmarkEvidence> out = new LinkedHashMap<>();
    for (int k = 0; k < n; k++) {
      List<Integer> others = new ArrayList<>();
      for (int j = 0; j < n; j++) if (j != k && trusted.containsKey(ids.get(j))) others.add(j);
      if (others.size() < positioner.config().minAnchors()) {
        out.put(ids.get(k), LandmarkEvidence.UNKNOWN);
        continue;
      }
      List<Coordinate> anchors = others.stream().map(j -> trusted.get(ids.get(j))).toList();
      PositionFit self;
      try {
        self = positioner.position(anchors, column(meshMs[k], others), null);
      } catch (IllegalArgumentException tooFewPeers) {
        out.put(ids.get(k), LandmarkEvidence.UNKNOWN);
        continue;
      }
      double[] residuals = new double[servers];
      double[] signed = new double[servers];
      double[] spreads = new double[servers];
      double[] steps = new double[servers];
      double[] relativeSteps = new double[servers];
      int used = 0;
      int spreadCount = 0;
      int stepCount = 0;
      for (int s = 0; s < servers; s++) {
        double measured = serverMinMs[s][k];
        if (!(measured > 0)) continue;
        // relative to the path: a far landmark's honest jitter is larger in ms, a 30 ms lie on a 700 ms path harmless
        if (serverSpreadMs != null && Double.isFinite(serverSpreadMs[s][k])) spreads[spreadCount++] = serverSpreadMs[s][k] / measured;
        if (serverNewestMs != null && serverNewestMs[s][k] > 0) {
          steps[stepCount] = serverNewestMs[s][k] - measured;
          relativeSteps[stepCount++] = (serverNewestMs[s][k] - measured) / measured;
        }
        Coordinate server;
        try {
          server = positioner.position(anchors, column(serverMinMs[s], others), null).coordinate();
        } catch (IllegalArgumentException tooFew) {
          continue;
        }
        double predicted = self.coordinate().distanceTo(server);
        signed[used] = measured - predicted;
        residuals[used++] = Math.abs(measured - predicted) / Math.max(measured, positioner.config().minRttMs());
      }
      boolean enough = used >= config.minServers();
      boolean stepped = stepCount >= config.minServers();
      out.put(ids.get(k), new LandmarkEvidence(self.relativeError(),
          enough ? Stats.median(residuals, used) : Double.NaN,
          spreadCount >= config.minServers() ? Stats.median(spreads, spreadCount) : Double.NaN, used, self.coordinate(),
          stepped ? Stats.median(steps, stepCount) : Double.NaN,
          stepped ? Stats.median(relativeSteps, stepCount) : Double.NaN,
          enough ? Stats.median(signed, used) : Double.NaN));
    }
    return out;
  }

  private static double[] column(double[] row, List<Integer> cols) {
    double[] r = new double[cols.size()];
    for (int i = 0; i < r.length; i++) r[i] = row[cols.get(i)];
    return r;
  }

  /**
   * The window spread the check uses: 90th percentile minus minimum of the RTT samples (ms), NaN
   * with fewer than two. A landmark that inflates half its samples by 30 ms has ~30 ms here once two
   * of its 8 window samples are inflated; an honest one has the path's jitter. (The upper quartile
   * needs three, which took 2-3 rounds longer on planetlab490.)
   */
  public static double spread(double[] samplesMs, int count) {
    if (count < 2) return Double.NaN;
    double[] v = java.util.Arrays.copyOf(samplesMs, count);
    java.util.Arrays.sort(v);
    return Stats.quantile(v, 0.9) - v[0];
  }
}
