package dev.reed.eval;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.geo.EstimatorModel;
import dev.reed.coordinates.geo.FusedEstimator;
import dev.reed.coordinates.geo.LandmarkData;
import dev.reed.coordinates.geo.LeaveOneOutCoordinates;
import dev.reed.coordinates.geo.Place;

/**
 * Trains the fused estimator on one landmark seed from what that seed's deployment measures: the
 * landmarks' mesh, their RTTs to the positioned servers, and where landmarks and servers are. For
 * the coordinate source of each cross-validation fold, every server is positioned again without
 * the held-out landmark, so the fold's coordinate distance never saw the RTT it is scored on; with
 * REED's landmark comparison on, the distance is bounded as REED's client bounds it
 * ({@link LandmarkComparison}), from the RTTs to the other landmarks.
 */
final class FusedTraining {
  private final RttMatrix m;
  private final CoordinateConfig cfg;
  private final EstimatorModel model;
  private final double lowerBoundBeyondMs;

  /** @param lowerBoundBeyondMs REED's comparison bound ({@code DiscoveryModel}), NaN = no comparison */
  FusedTraining(RttMatrix m, CoordinateConfig cfg, EstimatorModel model, double lowerBoundBeyondMs) {
    this.m = m;
    this.cfg = cfg;
    this.model = model;
    this.lowerBoundBeyondMs = lowerBoundBeyondMs;
  }

  /**
   * The estimator of this seed's deployment; its servers are {@code o.servers()} in that order,
   * each where {@code believed} puts it (a GeoIP database's place, by node); landmarks are where
   * the node list says (the deployment placed them).
   */
  FusedEstimator train(SeedRun.Deployment o, Place[] believed) {
    int[] lm = o.landmarks();
    int[] servers = o.servers();
    Place[] lmPlaces = new Place[lm.length];
    double[][] mesh = new double[lm.length][lm.length];
    for (int k = 0; k < lm.length; k++) {
      lmPlaces[k] = place(lm[k]);
      for (int k2 = 0; k2 < lm.length; k2++) {
        mesh[k][k2] = k == k2 ? Double.NaN : o.landmarkRtt()[lm[k2]][k]; // landmark k measured k2
      }
    }
    Place[] srvPlaces = new Place[servers.length];
    double[][] srvMs = new double[servers.length][];
    for (int j = 0; j < servers.length; j++) {
      srvPlaces[j] = believed[servers[j]];
      srvMs[j] = o.landmarkRtt()[servers[j]].clone();
    }
    LandmarkData data = new LandmarkData(lmPlaces, mesh, srvPlaces, srvMs);
    return FusedEstimator.train(model, data, leaveOneOutCoordinates(o, mesh, srvMs));
  }

  /** Where node {@code v} is (its region derived from the point, as the coordinator derives it), or null. */
  Place place(int v) {
    GeoPoint p = m.nodes().node(v).location();
    return p == null ? null : Place.of(p.lat(), p.lon());
  }

  private double[][] leaveOneOutCoordinates(SeedRun.Deployment o, double[][] mesh, double[][] srvMs) {
    Coordinate[] warm = new Coordinate[srvMs.length];
    for (int j = 0; j < warm.length; j++) {
      warm[j] = o.coords()[o.servers()[j]];
    }
    return new LeaveOneOutCoordinates(new HostPositioner(cfg), lowerBoundBeyondMs)
        .distances(o.embedding().coordinates(), mesh, srvMs, warm);
  }
}
