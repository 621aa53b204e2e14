package dev.reed.coordinates.geo;

import java.util.ArrayList;
import java.util.List;

/**
 * The fused RTT estimator (experimental; after Htrae, Agarwal &amp; Lorch, SIGCOMM 2009):
 * the geographic prediction ({@link GeoPrior}), the coordinate distance and Valve's relay bound,
 * weighed by {@link FusionWeights} fitted by leave-one-landmark-out cross-validation on landmark
 * data only. In each fold a landmark plays a client: the prior is learned without any of its RTTs,
 * its excess comes from its mesh RTTs, its relay bound runs through the other landmarks, and its
 * measured RTTs to the servers are the truth. Nothing a client measures is learned from.
 *
 * @param data what the estimator was learned from (the relay bound reads the landmarks' RTTs)
 * @param prior the geographic prediction learned from every landmark
 * @param weights the fusion weights
 * @param cvError mean absolute relative error of those weights over the folds
 * @param folds the pairs the weights were fitted on
 * @param errors median errors of each kind of prediction over the folds (the uncertainty served
 *     with a prediction)
 */
public record FusedEstimator(LandmarkData data, GeoPrior prior, FusionWeights weights, double cvError, int folds,
    CvErrors errors) {

  /**
   * Learns the estimator.
   *
   * @param coordinateMs coordinate distance from landmark {@code k} to server {@code s} as
   *     {@code [k][s]}, the server positioned without landmark k's RTTs (NaN = unknown; null = no
   *     coordinates, the weight of that source is then fitted on nothing and comes out 0)
   * @throws IllegalArgumentException when fewer than 2 labelled pairs are located
   */
  public static FusedEstimator train(EstimatorModel cfg, LandmarkData d, double[][] coordinateMs) {
    int l = d.landmarks().length;
    List<FusionExample> examples = new ArrayList<>();
    int folds = 0;
    for (int k = 0; k < l; k++) {
      Place at = d.landmarks()[k];
      if (at == null) {
        continue;
      }
      Place client = believed(at, cfg.cvLocationErrorKm(), k);
      GeoPrior fold = GeoPrior.learn(cfg, d, k);
      double[] toLandmark = d.meshMs()[k].clone();
      toLandmark[k] = Double.NaN;
      double excess = fold.clientExcessMs(client, toLandmark);
      for (int s = 0; s < d.servers().length; s++) {
        double truth = d.serverMs()[s][k];
        if (!Double.isFinite(truth)) {
          continue;
        }
        double coord = coordinateMs == null ? Double.NaN : coordinateMs[k][s];
        examples.add(new FusionExample(fold.predictMs(client, s, excess), coord, d.relayMs(toLandmark, s, k), truth));
      }
      folds++;
    }
    FusionWeights w = FusionWeights.fit(examples, cfg.weightStep());
    return new FusedEstimator(d, GeoPrior.learn(cfg, d, -1), w, w.loss(examples), folds, CvErrors.of(examples, w));
  }

  /**
   * Where the client's landmark RTTs say it is, starting from the prior (the calibration correcting
   * a wrong GeoIP location): of the prior and every located landmark and server, the place whose
   * distances explain the RTTs best ({@link GeoPrior#misfitMs}); the prior unless another explains
   * them better by more than {@code marginMs}. Null prior: null.
   */
  public Place locate(Place prior, double[] clientToLandmark, double marginMs) {
    if (prior == null || clientToLandmark == null) {
      return prior;
    }
    Place best = prior;
    double bestMisfit = this.prior.misfitMs(prior, clientToLandmark) - marginMs;
    for (Place[] hosts : new Place[][] {data.landmarks(), data.servers()}) {
      for (Place p : hosts) {
        if (p != null) {
          double m = this.prior.misfitMs(p, clientToLandmark);
          if (m < bestMisfit) {
            bestMisfit = m;
            best = p;
          }
        }
      }
    }
    return best;
  }

  /** Where fold {@code k}'s client is believed to be: {@code km} away, each fold at the golden angle from the last. */
  private static Place believed(Place at, double km, int k) {
    if (km == 0) {
      return at;
    }
    double[] to = GreatCircle.destination(at.lat(), at.lon(), km, k * Math.PI * (3 - Math.sqrt(5)));
    return Place.of(to[0], to[1]);
  }

  /**
   * The fused prediction for a client and server {@code s}.
   *
   * @param client where the client is believed to be, or null
   * @param clientToLandmark the client's measured RTT to each landmark (NaN = not measured), or
   *     null before it measured any (the zero-probe request)
   * @param coordinateMs the coordinate distance, NaN without a client position
   */
  public double predictMs(Place client, double[] clientToLandmark, int s, double coordinateMs) {
    double geo = prior.predictMs(client, s, prior.clientExcessMs(client, clientToLandmark));
    double relay = clientToLandmark == null ? Double.NaN : data.relayMs(clientToLandmark, s, -1);
    return weights.predictMs(geo, coordinateMs, relay);
  }

  /**
   * What the coordinator serves as a server's geographic prediction before the client measured
   * anything: {@link GeoPrior#predictMs} with a typical client's excess; NaN when either place is
   * unknown.
   */
  public double geoMs(Place client, int s) {
    return prior.predictMs(client, s, prior.typicalExcessMs());
  }

  /**
   * The same for landmark {@code k}'s beacon, its excess from its mesh RTTs as a coordinator serves
   * it (0 with fewer than {@code excessMinLandmarks}, {@link EstimatorModel#excessMinLandmarks()});
   * NaN when either place is unknown.
   */
  public double geoToLandmarkMs(Place client, int k, int excessMinLandmarks) {
    Place at = data.landmarks()[k];
    return prior.predictMs(client, at, prior.hostExcessMs(at, data.meshMs()[k], excessMinLandmarks),
        prior.typicalExcessMs());
  }

  /**
   * What a coordinator serves for a client it has a location prior for: the geographic prediction
   * and the coordinate distance fused with the weights renormalised over the two (the relay bound
   * needs the client's landmark RTTs, which only the client has); either may be NaN.
   */
  public double servedMs(double geoMs, double coordinateMs) {
    return weights.predictMs(geoMs, coordinateMs, Double.NaN);
  }
}
