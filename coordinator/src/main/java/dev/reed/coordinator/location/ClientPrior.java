package dev.reed.coordinator.location;

import dev.reed.coordinates.geo.Place;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.proto.v1.LocationSource;
import dev.reed.proto.v1.Placement;
import java.net.InetAddress;

/**
 * A client's location prior for one request.
 *
 * @param placement as served in GetCalibrationServersResponse.client_placement
 * @param place the estimator's place
 */
public record ClientPrior(Placement placement, Place place) {

  /**
   * The prior: the location the client states (source CLIENT), else the database's answer for its
   * address (source DATABASE); null when neither is known.
   *
   * @param stated the request's location, or null when unset
   * @param address the client's address ({@link ClientAddress#KEY}), or null
   * @throws IllegalArgumentException the stated location is out of range (the message names the field)
   */
  public static ClientPrior of(GeoPoint stated, InetAddress address, HostLocations locations) {
    if (stated != null) {
      if (!HostLocations.inRange(stated)) {
        throw new IllegalArgumentException("location must have latitude_deg in -90..90 and longitude_deg in -180..180, got "
            + stated.getLatitudeDeg() + "," + stated.getLongitudeDeg());
      }
      return new ClientPrior(Placement.newBuilder().setPoint(stated).setSource(LocationSource.LOCATION_SOURCE_CLIENT).build(),
          Place.of(stated.getLatitudeDeg(), stated.getLongitudeDeg()));
    }
    if (address == null || locations == null) return null;
    // not cached: client addresses are unbounded, and an MMDB lookup costs microseconds
    Placement p = locations.placement(address, null);
    Place at = GeoTraining.place(p);
    return at == null ? null : new ClientPrior(p, at);
  }
}
