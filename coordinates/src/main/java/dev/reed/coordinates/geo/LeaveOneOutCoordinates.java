package dev.reed.coordinates.geo;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkComparison;
import java.util.ArrayList;
import java.util.List;

/**
 * The coordinate source of {@link FusedEstimator#train}'s cross-validation: for each held-out
 * landmark k, every server positioned again without landmark k's RTT, and its coordinate distance
 * to landmark k, so a fold's coordinate prediction never saw the RTT it is scored on. Shared by
 * the coordinator (trained after every round) and the eval.
 *
 * <p>Cost: one host fit per (landmark, server) pair, L x S fits; the coordinator caps S
 * (coordinator README has the measured time).
 */
public final class LeaveOneOutCoordinates {
  private final HostPositioner positioner;
  private final double lowerBoundBeyondMs;

  /**
   * @param lowerBoundBeyondMs with a finite value, each distance is bounded as REED's client bounds
   *     it ({@link LandmarkComparison#refine}) from the RTTs to the other landmarks; NaN = unbounded
   *     (what a coordinator serves)
   */
  public LeaveOneOutCoordinates(HostPositioner positioner, double lowerBoundBeyondMs) {
    this.positioner = positioner;
    this.lowerBoundBeyondMs = lowerBoundBeyondMs;
  }

  /**
   * @param landmarks the landmarks' coordinates, in the order of the RTT columns
   * @param meshMs RTT between landmarks {@code [k][k2]} (NaN = none; read only with a bound)
   * @param serverMs RTT from each landmark to each server, {@code [server][landmark]} (NaN = none)
   * @param warmStart each server's current coordinate (a warm start), or null entries
   * @return {@code [k][s]}: distance from landmark k to server s positioned without k; NaN when
   *     too few other landmarks measured s
   */
  public double[][] distances(List<Coordinate> landmarks, double[][] meshMs, double[][] serverMs, Coordinate[] warmStart) {
    int l = landmarks.size();
    double[][] out = new double[l][serverMs.length];
    for (int k = 0; k < l; k++) {
      List<Coordinate> anchors = new ArrayList<>(landmarks);
      anchors.remove(k);
      for (int j = 0; j < serverMs.length; j++) {
        double[] r = new double[l - 1];
        for (int i = 0, n = 0; i < l; i++) {
          if (i != k) {
            r[n++] = serverMs[j][i];
          }
        }
        double d;
        try {
          d = positioner.position(anchors, r, warmStart == null ? null : warmStart[j]).coordinate().distanceTo(landmarks.get(k));
        } catch (IllegalArgumentException tooFew) {
          d = Double.NaN;
        }
        if (Double.isFinite(d) && !Double.isNaN(lowerBoundBeyondMs)) {
          double[] server = serverMs[j].clone();
          server[k] = Double.NaN;
          d = LandmarkComparison.between(meshMs[k], server).refine(d, lowerBoundBeyondMs); // meshMs[k][k] is NaN
        }
        out[k][j] = d;
      }
    }
    return out;
  }
}
