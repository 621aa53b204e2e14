package dev.reed.coordinates.geo;

/**
 * Where a host is believed to be.
 *
 * @param lat latitude, degrees -90..90
 * @param lon longitude, degrees -180..180
 * @param region a region label (for example a continent code) for per-region-pair distance
 *     models, or null
 */
public record Place(double lat, double lon, String region) {
  public Place {
    if (!(lat >= -90 && lat <= 90) || !(lon >= -180 && lon <= 180)) {
      throw new IllegalArgumentException("latitude must be -90..90 and longitude -180..180, got " + lat + "," + lon);
    }
  }

  /** A place with its region derived from the point ({@link Continents}). */
  public static Place of(double lat, double lon) {
    return new Place(lat, lon, Continents.code(lat, lon));
  }

  /** Great-circle distance, km. */
  public double kmTo(Place o) {
    return GreatCircle.km(lat, lon, o.lat, o.lon);
  }
}
