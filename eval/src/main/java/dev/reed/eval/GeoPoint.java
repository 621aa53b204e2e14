package dev.reed.eval;

import dev.reed.coordinates.geo.GreatCircle;

/**
 * A place on the Earth (degrees; latitude -90..90, longitude -180..180), on a sphere of the mean
 * Earth radius: the precision of a GeoIP database or a city-level node list is far coarser than the
 * 0.5 % a spherical Earth costs.
 */
public record GeoPoint(double lat, double lon) {
  /** Mean Earth radius (IUGG), km. */
  static final double EARTH_RADIUS_KM = GreatCircle.EARTH_RADIUS_KM;

  public GeoPoint {
    if (!(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) {
      throw new IllegalArgumentException("latitude must be -90..90 and longitude -180..180, got " + lat + "," + lon);
    }
  }

  /** Great-circle distance (haversine), km. */
  double kmTo(GeoPoint o) {
    return GreatCircle.km(lat, lon, o.lat, o.lon);
  }

  /** The point {@code km} away along the great circle leaving here at {@code bearingRad} (0 = north, clockwise). */
  GeoPoint moved(double km, double bearingRad) {
    double[] to = GreatCircle.destination(lat, lon, km, bearingRad);
    return new GeoPoint(to[0], to[1]);
  }
}
