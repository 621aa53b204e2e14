package dev.reed.runtime.options;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --geoip} and {@code --asn}: IP location and AS databases (coordinator, browse). */
public final class GeoDatabaseOptions {
  @Option(names = "--geoip", paramLabel = "FILE", split = ",",
      description = "IP-to-location databases, first match wins: MaxMind DB (.mmdb, e.g. DB-IP Lite city) or "
          + "ip-location-db city CSV (.csv, .csv.gz) (default: none)")
  List<Path> locations;

  @Option(names = "--asn", paramLabel = "FILE", split = ",",
      description = "IP-to-AS databases, first match wins: .mmdb or ip-location-db AS CSV "
          + "(default: none)")
  List<Path> asns;

  /** The location databases given, in order; empty when none. */
  public List<Path> locations() {
    return locations == null ? List.of() : List.copyOf(locations);
  }

  /** The AS databases given, in order; empty when none. */
  public List<Path> asns() {
    return asns == null ? List.of() : List.copyOf(asns);
  }
}
