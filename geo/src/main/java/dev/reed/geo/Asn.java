package dev.reed.geo;

import java.util.Objects;

/**
 * The autonomous system that announces an address.
 *
 * @param number AS number, 1..4294967295 (32-bit ASNs, RFC 6793)
 * @param organization the AS's organization name as the database gives it; empty when unknown
 */
public record Asn(long number, String organization) {
  /** The largest 32-bit AS number. */
  public static final long MAX = 0xFFFF_FFFFL;

  public Asn {
    if (number < 1 || number > MAX) throw new IllegalArgumentException("AS number must be in 1.." + MAX + ": " + number);
    organization = Objects.requireNonNull(organization, "organization").strip();
  }
}
