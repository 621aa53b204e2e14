package dev.reed.cli.demo;

import dev.reed.client.ReedClient;
import dev.reed.coordinates.geo.Place;

/**
 * How a demo client tells the client SDK where it is, so that the SDK can send it as
 * {@code GetCalibrationServersRequest.location} / {@code GetOrderedServersRequest.location}
 * (a coarse location the client states, the prior its calibration probes correct).
 * {@link Demo} takes one in its constructor, so a run can leave it out ({@link #NONE}).
 */
@FunctionalInterface
interface LocationStatement {

  /** Returns {@code builder} set up to state {@code location}. */
  ReedClient.Builder state(ReedClient.Builder builder, Place location);

  /** States nothing: the coordinator knows the client by its address alone. */
  LocationStatement NONE = (b, p) -> b;

  /** What the demo uses: the SDK's {@code location(latDeg, lonDeg)}, sent with every request that takes one. */
  LocationStatement SDK = (b, p) -> b.location(p.lat(), p.lon());

  /** Whether {@code s} states anything (for the demo's log line). */
  static boolean states(LocationStatement s) {
    return s != NONE;
  }
}
