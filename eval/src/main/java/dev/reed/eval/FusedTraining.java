package dev.reed.eval;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.geo.EstimatorModel;
import dev.reed.coordinates.geo.FusedEstimator;
import dev.reed.coordinates.geo.LandmarkData;
import dev.reed.coordinates.geo.Place;
import java.util.ArrayList;
import java.util.List;

/**
 * Trains the fused estimator on one landmark seed from what that seed's deployment measures: the
 * landmarks' mesh, their RTTs to the positioned servers, and where landmarks and servers are. For
 * the coordinate source of each cross-validation fold, every server is positioned again without
 * the held-out landmark, so the fold's coordinate distance never saw the RTT it is scored on.
 */
final class FusedTraining {
  private final RttMatrix m;
  private final CoordinateConfig cfg;
  private final EstimatorModel model;

  FusedTraining(RttMatrix m, CoordinateConfig cfg, EstimatorModel model) {
    this.m = m;
    this.cfg = cfg;
    this.model = model;
  }

  /** The estimator of this seed; its servers are {@code o.servers()} in that order. */
  FusedEstimator train(SeedRun.Output o) {
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
      srvPlaces[j] = place(servers[j]);
      srvMs[j] = o.landmarkRtt()[servers[j]].clone();
    }
    LandmarkData data = new LandmarkData(lmPlaces, mesh, srvPlaces, srvMs);
    return FusedEstimator.train(model, data, leaveOneOutCoordinates(o, srvMs));
  }

  /** Where node {@code v} is, with its region, or null. */
  Place place(int v) {
    GeoPoint p = m.nodes().node(v).location();
    return p == null ? null : new Place(p.lat(), p.lon(), m.nodes().node(v).region());
  }

  private double[][] leaveOneOutCoordinates(SeedRun.Output o, double[][] srvMs) {
    List<Coordinate> lmCoords = o.embedding().coordinates();
    int l = lmCoords.size();
    HostPositioner positioner = new HostPositioner(cfg);
    double[][] out = new double[l][srvMs.length];
    for (int k = 0; k < l; k++) {
      List<Coordinate> anchors = new ArrayList<>(lmCoords);
      anchors.remove(k);
      for (int j = 0; j < srvMs.length; j++) {
        double[] r = new double[l - 1];
        for (int i = 0, n = 0; i < l; i++) {
          if (i != k) {
            r[n++] = srvMs[j][i];
          }
        }
        try {
          out[k][j] = positioner.position(anchors, r, o.coords()[o.servers()[j]]).coordinate().distanceTo(lmCoords.get(k));
        } catch (IllegalArgumentException tooFew) {
          out[k][j] = Double.NaN;
        }
      }
    }
    return out;
  }
}
