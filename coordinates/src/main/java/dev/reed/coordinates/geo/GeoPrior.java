package dev.reed.coordinates.geo;

import dev.reed.coordinates.Stats;
import java.util.ArrayList;
import java.util.List;

/**
 * The geographic prediction: RTT from distance ({@link DistanceRttModel}) plus what each end adds
 * beyond it. A server's excess is the median of its landmark RTTs' residuals over the model (its
 * access delay and detours, the median so one landmark's bad route does not move it); a client's
 * is the same over the landmarks it measured, a typical server's before it measured any.
 *
 * <p>Every such residual also holds the landmark's own share (its access delay, and the line's
 * intercept, which already counts a typical pair of ends). Summing a server's and a client's
 * excess counts that share twice; the median residual of the landmark mesh, where both ends are
 * landmarks, is exactly twice it, so the prediction subtracts it:
 * {@code line(km) + serverExcess + clientExcess - meshOffset}.
 *
 * @param model RTT from distance
 * @param landmarks each landmark's place, or null
 * @param servers each server's place, or null
 * @param serverExcessMs each server's excess (0 when too few landmarks measured it)
 * @param meshOffsetMs median residual of the landmark mesh over the model (0 without a located mesh)
 * @param typicalExcessMs median server excess: a client's excess before it has measured anything
 */
public record GeoPrior(DistanceRttModel model, Place[] landmarks, Place[] servers, double[] serverExcessMs,
    double meshOffsetMs, double typicalExcessMs) {

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
    int meshPairs = pairs.size();
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
    double[] meshResidual = new double[meshPairs]; // the mesh pairs come first
    for (int i = 0; i < meshPairs; i++) {
      LabelledPair p = pairs.get(i);
      meshResidual[i] = p.rttMs() - model.ms(p.km(), p.regionA(), p.regionB());
    }
    double[] excess = new double[d.servers().length];
    for (int s = 0; s < excess.length; s++) {
      double[] toLandmark = d.serverMs()[s].clone();
      if (leaveOut >= 0) {
        toLandmark[leaveOut] = Double.NaN;
      }
      double e = d.servers()[s] == null ? Double.NaN : excessMs(model, lm, d.servers()[s], toLandmark, cfg.excessMinLandmarks());
      excess[s] = Double.isNaN(e) ? 0 : e;
    }
    double meshOffset = meshPairs == 0 ? 0 : Stats.median(meshResidual);
    return new GeoPrior(model, lm, d.servers(), excess, meshOffset, excess.length == 0 ? 0 : Stats.median(excess));
  }

  /**
   * A client's excess from its RTTs to the landmarks (NaN = not measured); a typical server's
   * when it measured none.
   */
  public double clientExcessMs(Place client, double[] clientToLandmark) {
    double e = client == null || clientToLandmark == null ? Double.NaN
        : excessMs(model, landmarks, client, clientToLandmark, 1);
    return Double.isNaN(e) ? typicalExcessMs : e;
  }

  /**
   * Predicted RTT from {@code client} to server {@code s}: the model over their distance plus
   * both excesses, less the landmarks' share counted twice; NaN when either place is unknown.
   */
  public double predictMs(Place client, int s, double clientExcessMs) {
    return predictMs(client, servers[s], serverExcessMs[s], clientExcessMs);
  }

  /**
   * The same for any located host, not only the servers learned from (a coordinator trains on a
   * sample and serves every server): NaN when either place is unknown.
   */
  public double predictMs(Place client, Place server, double serverExcessMs, double clientExcessMs) {
    if (client == null || server == null) {
      return Double.NaN;
    }
    return Math.max(0, model.ms(client, server) + serverExcessMs + clientExcessMs - meshOffsetMs);
  }

  /**
   * A host's excess over the model from its RTT to each landmark (NaN = not measured): the median
   * residual, 0 with fewer than {@code minLandmarks} or without a place (as for a learned server).
   */
  public double hostExcessMs(Place host, double[] toLandmark, int minLandmarks) {
    double e = host == null ? Double.NaN : excessMs(model, landmarks, host, toLandmark, minLandmarks);
    return Double.isNaN(e) ? 0 : e;
  }

  /**
   * How badly a client at {@code at} explains its landmark RTTs: the median absolute deviation of
   * the residuals over the model around their median (its excess); infinite with fewer than 3.
   */
  public double misfitMs(Place at, double[] clientToLandmark) {
    double[] r = new double[landmarks.length];
    int n = 0;
    for (int k = 0; k < landmarks.length; k++) {
      if (landmarks[k] != null && Double.isFinite(clientToLandmark[k])) {
        r[n++] = clientToLandmark[k] - model.ms(landmarks[k], at);
      }
    }
    if (n < 3) {
      return Double.POSITIVE_INFINITY;
    }
    double centre = Stats.median(r, n);
    for (int i = 0; i < n; i++) {
      r[i] = Math.abs(r[i] - centre);
    }
    return Stats.median(r, n);
  }

  /** Median residual of the host's landmark RTTs over the model, NaN with fewer than {@code minCount}. */
  private static double excessMs(DistanceRttModel model, Place[] lm, Place host, double[] toLandmark, int minCount) {
    double[] r = new double[lm.length];
    int n = 0;
    for (int k = 0; k < lm.length; k++) {
      if (lm[k] != null && Double.isFinite(toLandmark[k])) {
        r[n++] = toLandmark[k] - model.ms(lm[k], host);
      }
    }
    return n < minCount ? Double.NaN : Stats.median(r, n);
  }
}
