package dev.reed.geo;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a database maps addresses to, and how each format spells it.
 *
 * <p>CSV layouts are ip-location-db's: {@code ip_range_start, ip_range_end, ...fields}, inclusive
 * ranges, addresses in text form. Location (city) fields: {@code country_code, state1, state2,
 * city, postcode, latitude, longitude, timezone}; AS fields: {@code autonomous_system_number,
 * autonomous_system_organization}.
 *
 * <p>MaxMind DB records come in two spellings: ip-location-db's flat one ({@code latitude},
 * {@code longitude}, {@code country_code}) and MaxMind's GeoLite2 one ({@code location.latitude},
 * {@code location.accuracy_radius}, {@code country.iso_code}); AS records are
 * {@code autonomous_system_number} and {@code autonomous_system_organization} in both.
 */
enum TableKind {
  LOCATION("location", List.of("country_code", "state1", "state2", "city", "postcode", "latitude", "longitude", "timezone")) {
    @Override
    Optional<Object> fromCsv(List<String> fields) {
      String lat = fields.get(5);
      String lon = fields.get(6);
      if (lat.isBlank() || lon.isBlank()) return Optional.empty();
      return Optional.of(new Location(number("latitude", lat), number("longitude", lon), Double.NaN, fields.get(0)));
    }

    @Override
    Optional<Object> fromMmdb(Map<String, Object> record) {
      Object nested = record.get("location");
      if (nested instanceof Map<?, ?> loc) { // GeoLite2 spelling
        Object country = record.get("country") instanceof Map<?, ?> c ? c.get("iso_code") : null;
        return location(loc.get("latitude"), loc.get("longitude"), loc.get("accuracy_radius"), country);
      }
      return location(record.get("latitude"), record.get("longitude"), null, record.get("country_code"));
    }

    @Override
    String refusal(String databaseType) {
      String t = databaseType.toLowerCase(Locale.ROOT);
      if (t.contains("asn")) return "is an AS database ('" + databaseType + "'), not a location (city) database";
      if (t.contains("country") && !t.contains("city")) {
        return "is a country database ('" + databaseType + "') without coordinates; a city database is needed";
      }
      return null;
    }
  },

  ASN("AS", List.of("autonomous_system_number", "autonomous_system_organization")) {
    @Override
    Optional<Object> fromCsv(List<String> fields) {
      String n = fields.get(0);
      if (n.isBlank()) return Optional.empty();
      try {
        return Optional.of(new Asn(Long.parseLong(n.strip()), fields.get(1)));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("autonomous_system_number is not a number: '" + n + "'");
      }
    }

    @Override
    Optional<Object> fromMmdb(Map<String, Object> record) {
      if (!(record.get("autonomous_system_number") instanceof Number n)) return Optional.empty();
      Object org = record.get("autonomous_system_organization");
      return Optional.of(new Asn(n.longValue(), org == null ? "" : org.toString()));
    }

    @Override
    String refusal(String databaseType) {
      String t = databaseType.toLowerCase(Locale.ROOT);
      boolean geo = t.contains("city") || t.contains("country");
      return geo && !t.contains("asn") ? "is a location database ('" + databaseType + "'), not an AS database" : null;
    }
  };

  private final String label;
  private final List<String> csvFields;

  TableKind(String label, List<String> csvFields) {
    this.label = label;
    this.csvFields = csvFields;
  }

  /** "location" or "AS", for messages. */
  String label() {
    return label;
  }

  /** The CSV columns after the two range columns. */
  List<String> csvFields() {
    return csvFields;
  }

  /**
   * The value of one CSV row's fields (after the range); empty when the row carries none.
   *
   * @throws IllegalArgumentException a malformed field (the message names it)
   */
  abstract Optional<Object> fromCsv(List<String> fields);

  /** The value of one MaxMind DB record; empty when the record carries none. */
  abstract Optional<Object> fromMmdb(Map<String, Object> record);

  /** Why a MaxMind DB of this type cannot serve as this kind, or null when it can. */
  abstract String refusal(String databaseType);

  private static double number(String field, String text) {
    try {
      return Double.parseDouble(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field + " is not a number: '" + text + "'");
    }
  }

  private static Optional<Object> location(Object lat, Object lon, Object accuracyKm, Object country) {
    if (!(lat instanceof Number la) || !(lon instanceof Number lo)) return Optional.empty();
    double acc = accuracyKm instanceof Number a ? a.doubleValue() : Double.NaN;
    return Optional.of(new Location(la.doubleValue(), lo.doubleValue(), acc, country == null ? "" : country.toString()));
  }
}
