package dev.reed.geo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Which databases an {@link IpLocator} reads. Each file is a MaxMind DB ({@code .mmdb}) or an
 * ip-location-db CSV ({@code .csv}, or gzip-compressed {@code .csv.gz}); several files of one
 * kind are consulted in the order given, the first that knows an address answers (DB-IP ships
 * IPv4 and IPv6 as separate files).
 *
 * @param locations IP-to-location databases (city layout); may be empty
 * @param asns IP-to-AS databases; may be empty
 * @param locateLoopback also look up loopback addresses: only the testbed, whose emulated hosts
 *     live on 127.0.0.0/8 and which writes a database for them, sets this
 */
public record GeoFiles(List<Path> locations, List<Path> asns, boolean locateLoopback) {
  /** No databases. */
  public static final GeoFiles NONE = new GeoFiles(List.of(), List.of(), false);

  public GeoFiles {
    locations = List.copyOf(locations == null ? List.of() : locations);
    asns = List.copyOf(asns == null ? List.of() : asns);
  }

  /** Real databases: loopback, private and link-local addresses are never located. */
  public static GeoFiles of(List<Path> locations, List<Path> asns) {
    return new GeoFiles(locations, asns, false);
  }

  /** Whether no file is given at all. */
  public boolean isEmpty() {
    return locations.isEmpty() && asns.isEmpty();
  }

  /**
   * {@link IpLocator#open} on these files, or {@link IpLocator#none()} when there are none.
   *
   * @throws IOException a file is missing, corrupt or of the wrong kind (the message names it)
   */
  public IpLocator open() throws IOException {
    return isEmpty() ? IpLocator.none() : IpLocator.open(this);
  }
}
