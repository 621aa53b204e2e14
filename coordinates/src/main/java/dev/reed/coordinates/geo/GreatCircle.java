package dev.reed.coordinates.geo;

/**
 * Great-circle distance on a sphere of the mean Earth radius (haversine formula, R. W. Sinnott,
 * "Virtues of the Haversine", Sky and Telescope 1984: stable for short distances, unlike the
 * spherical law of cosines). A spherical Earth costs at most ~0.5 %, far below the precision of a
 * GeoIP database or a city-level node list.
 */
public final class GreatCircle {
  /** Mean Earth radius (IUGG), km. */
  public static final double EARTH_RADIUS_KM = 6371.0088;

  private GreatCircle() {}

  /** Distance in km between two points given in degrees. */
  public static double km(double lat1, double lon1, double lat2, double lon2) {
    double p1 = Math.toRadians(lat1);
    double p2 = Math.toRadians(lat2);
    double dp = p2 - p1;
    double dl = Math.toRadians(lon2 - lon1);
    double a = Math.sin(dp / 2) * Math.sin(dp / 2) + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) * Math.sin(dl / 2);
    return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
  }

  /**
   * The point {@code km} away from (lat, lon) along the great circle leaving at {@code bearingRad}
   * (0 = north, clockwise), as {@code {lat, lon}} in degrees, longitude wrapped into -180..180.
   */
  public static double[] destination(double lat, double lon, double km, double bearingRad) {
    double d = km / EARTH_RADIUS_KM;
    double p1 = Math.toRadians(lat);
    double l1 = Math.toRadians(lon);
    double p2 = Math.asin(Math.max(-1, Math.min(1,
        Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(bearingRad))));
    double l2 = l1 + Math.atan2(Math.sin(bearingRad) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
    double lonDeg = ((Math.toDegrees(l2) + 540) % 360) - 180;
    return new double[] {Math.max(-90, Math.min(90, Math.toDegrees(p2))), lonDeg};
  }
}
