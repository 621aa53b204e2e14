package dev.reed.coordinates.discovery;

import dev.reed.coordinates.geo.FusionWeights;
import dev.reed.coordinates.geo.Place;
import java.util.Map;

/**
 * Where the coordinator places a client after its calibration: its location prior (a
 * location the client stated, or a database's answer for its address), moved when the calibration
 * RTTs place it elsewhere ({@code FusedEstimator.locate}), with the geographic predictions for the
 * points the client measured, so the client can check the prior against its own RTTs, and the
 * weights to fuse geographic predictions with the coordinates.
 *
 * @param place where the client is believed to be
 * @param moved true when the calibration moved it from the prior
 * @param geoMs the geographic prediction of the client's RTT to each calibration point, by key
 *     (points without one are absent)
 * @param weights how to fuse the geographic predictions with the coordinates and the relay bound
 */
public record LocationFix(Place place, boolean moved, Map<String, Double> geoMs, FusionWeights weights) {
  public LocationFix {
    if (place == null || weights == null) {
      throw new IllegalArgumentException("a location fix needs a place and fusion weights");
    }
    geoMs = Map.copyOf(geoMs);
  }
}
