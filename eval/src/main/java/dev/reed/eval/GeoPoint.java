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
    double d = km / EARTH_RADIUS_KM;
    double p1 = Math.toRadians(lat);
    double l1 = Math.toRadians(lon);
    double p2 = Math.asin(Math.max(-1, Math.min(1,
        Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(bearingRad))));
    double l2 = l1 + Math.atan2(Math.sin(bearingRad) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
    double lonDeg = Math.toDegrees(l2);
    lonDeg = ((lonDeg + 540) % 360) - 180; // back into -180..180
    return new GeoPoint(Math.max(-90, Math.min(90, Math.toDegrees(p2))), lonDeg);
  }
}
