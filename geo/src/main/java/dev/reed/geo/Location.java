package dev.reed.geo;

import java.util.Locale;
import java.util.Objects;

/**
 * Where an address is, as a geolocation database says.
 *
 * @param latitudeDeg WGS-84 latitude in degrees, -90..90
 * @param longitudeDeg WGS-84 longitude in degrees, -180..180
 * @param accuracyRadiusKm the database's accuracy radius in kilometres, NaN when it gives none
 *     (DB-IP Lite gives none; MaxMind's GeoLite2 does)
 * @param countryCode ISO 3166-1 alpha-2 code in upper case, e.g. {@code "DE"}; empty when unknown
 */
public record Location(double latitudeDeg, double longitudeDeg, double accuracyRadiusKm, String countryCode) {
  public Location {
    if (!(latitudeDeg >= -90 && latitudeDeg <= 90)) {
      throw new IllegalArgumentException("latitude must be in -90..90 degrees: " + latitudeDeg);
    }
    if (!(longitudeDeg >= -180 && longitudeDeg <= 180)) {
      throw new IllegalArgumentException("longitude must be in -180..180 degrees: " + longitudeDeg);
    }
    if (!Double.isNaN(accuracyRadiusKm) && !(accuracyRadiusKm >= 0 && accuracyRadiusKm < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("accuracy radius must be >= 0 km or NaN (unknown): " + accuracyRadiusKm);
    }
    countryCode = Objects.requireNonNull(countryCode, "countryCode").strip().toUpperCase(Locale.ROOT);
    if (!countryCode.isEmpty() && !countryCode.matches("[A-Z]{2}")) {
      throw new IllegalArgumentException("country code must be two letters (ISO 3166-1 alpha-2) or empty: '" + countryCode + "'");
    }
  }

  /** A location without accuracy radius or country. */
  public static Location of(double latitudeDeg, double longitudeDeg) {
    return new Location(latitudeDeg, longitudeDeg, Double.NaN, "");
  }

  /** Whether the database gave an accuracy radius. */
  public boolean hasAccuracyRadius() {
    return !Double.isNaN(accuracyRadiusKm);
  }
}
