package dev.reed.coordinates.geo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The geographic prediction: RTT from distance ({@link DistanceRttModel}) plus what each end adds
 * beyond it. A server's excess is the median of its landmark RTTs' residuals over the model (its
 * access delay and detours, the median so one landmark's bad route does not move it); a client's
 * is the same over the landmarks it measured, 0 before it measured any.
 *
 * @param model RTT from distance
 * @param landmarks each landmark's place, or null
 * @param servers each server's place, or null
 * @param serverExcessMs each server's excess (0 when too few landmarks measured it)
 */
public record GeoPrior(DistanceRttModel model, Place[] landmarks, Place[] servers, double[] serverExcessMs) {

  /**
   * Learns from the deployment's labelled pairs (mesh and landmark-server RTTs with both ends
   * located), leaving out every RTT of landmark {@code leaveOut} (-1 = none) for cross-validation.
   *
   * @throws IllegalArgumentException when fewer than 2 labelled pairs remain
   */
  public static GeoPrior learn(EstimatorModel cfg, LandmarkData d, int leaveOut) {
    Place[] lm = d.landmarks();
    List<LabelledPair> pairs = new ArrayList<>();
    for (int k = 0; k < lm.length; k++) {
      for (int k2 = k + 1; k2 < lm.length; k2++) {
        double ms = d.meshMs()[k][k2];
        if (k != leaveOut && k2 != leaveOut && lm[k] != null && lm[k2] != null && Double.isFinite(ms)) {
          pairs.add(new LabelledPair(lm[k].kmTo(lm[k2]), ms, lm[k].region(), lm[k2].region()));
        }
      }
    }
    for (int s = 0; s < d.servers().length; s++) {
      Place at = d.servers()[s];
      for (int k = 0; k < lm.length; k++) {
        double ms = d.serverMs()[s][k];
        if (k != leaveOut && at != null && lm[k] != null && Double.isFinite(ms)) {
          pairs.add(new LabelledPair(lm[k].kmTo(at), ms, lm[k].region(), at.region()));
        }
      }
    }
    DistanceRttModel model = DistanceRttModel.fit(pairs, cfg);
    double[] excess = new double[d.servers().length];
    for (int s = 0; s < excess.length; s++) {
      double[] toLandmark = d.serverMs()[s].clone();
      if (leaveOut >= 0) {
        toLandmark[leaveOut] = Double.NaN;
      }
      excess[s] = d.servers()[s] == null ? 0 : excessMs(model, lm, d.servers()[s], toLandmark, cfg.excessMinLandmarks());
    }
    return new GeoPrior(model, lm, d.servers(), excess);
  }

  /** A client's excess from its RTTs to the landmarks (NaN = not measured); 0 when it measured none. */
  public double clientExcessMs(Place client, double[] clientToLandmark) {
    return client == null || clientToLandmark == null ? 0 : excessMs(model, landmarks, client, clientToLandmark, 1);
  }

  /**
   * Predicted RTT from {@code client} to server {@code s}: the model over their distance plus
   * both excesses; NaN when either place is unknown.
   */
  public double predictMs(Place client, int s, double clientExcessMs) {
    Place at = servers[s];
    if (client == null || at == null) {
      return Double.NaN;
    }
    return Math.max(0, model.ms(client, at) + serverExcessMs[s] + clientExcessMs);
  }

  private static double excessMs(DistanceRttModel model, Place[] lm, Place host, double[] toLandmark, int minCount) {
    double[] r = new double[lm.length];
    int n = 0;
    for (int k = 0; k < lm.length; k++) {
      if (lm[k] != null && Double.isFinite(toLandmark[k])) {
        r[n++] = toLandmark[k] - model.ms(lm[k], host);
      }
    }
    if (n < minCount) {
      return 0;
    }
    Arrays.sort(r, 0, n);
    return n % 2 == 1 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
  }
}
