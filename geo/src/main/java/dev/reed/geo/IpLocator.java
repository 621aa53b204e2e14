package dev.reed.geo;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Optional;

/**
 * Where an IP address is and which autonomous system announces it. Loopback, private (RFC 1918,
 * RFC 6598 shared, IPv6 unique-local), link-local, multicast and unspecified addresses get no
 * answer, and neither do addresses no database knows: callers position those from RTTs alone.
 * A lookup never throws; a lookup the database itself fails is counted in
 * {@link #failedLookups()} and answered empty. Thread-safe.
 */
public interface IpLocator extends AutoCloseable {

  /** Where {@code address} is, if a location database knows it. */
  Optional<Location> locate(InetAddress address);

  /** Which AS announces {@code address}, if an AS database knows it. */
  Optional<Asn> asn(InetAddress address);

  /** One line for the log: each file, its format and size. */
  String describe();

  /** Lookups a database failed (corrupt data found late); each was answered empty. */
  long failedLookups();

  /** Releases the memory-mapped files. */
  @Override
  void close();

  /**
   * Opens and checks every file now, so a bad file is an error at start, not at the first lookup.
   *
   * @throws IOException a file is missing, unreadable, corrupt, of the wrong kind (an AS database
   *     given as a location database or the reverse) or has a malformed line; the message names
   *     the file (and the line)
   */
  static IpLocator open(GeoFiles files) throws IOException {
    return DatabaseLocator.open(files);
  }

  /** A locator that knows nothing (no database configured). */
  static IpLocator none() {
    return new DatabaseLocator(java.util.List.of(), java.util.List.of(), false);
  }
}
