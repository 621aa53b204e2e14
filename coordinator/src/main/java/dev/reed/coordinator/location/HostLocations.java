package dev.reed.coordinator.location;

import dev.reed.geo.Asn;
import dev.reed.geo.IpLocator;
import dev.reed.geo.Location;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GeoPoint;
import dev.reed.proto.v1.LocationSource;
import dev.reed.proto.v1.Placement;
import java.net.InetAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where hosts are, from the location and AS databases, cached per address (an address is looked
 * up once while it stays in the index), and the bookkeeping of locations the coordinator ignores:
 * each is logged once when it is first ignored (not every round) and counted per reason.
 *
 * <p>Private, loopback and unknown addresses get no location (the locator answers nothing for
 * them) and are positioned from RTTs alone. Region labels are not derived (DB-IP Lite's CSV has no
 * continent, and the locator does not expose one): every host has region null, so the estimator
 * fits one global distance line.
 */
public final class HostLocations {
  private static final Logger log = LoggerFactory.getLogger(HostLocations.class);

  /** Why a location was ignored (the {@code reason} tag of {@code reed_geo_locations_ignored}). */
  public enum Reason {
    /** Latitude or longitude outside -90..90 / -180..180, or not a number. */
    OUT_OF_RANGE,
    /** RTTs below the light-in-fibre floor for the distance ({@code LightBound}). */
    CONTRADICTED,
    /** The database failed on the lookup (corrupt data found late). */
    LOOKUP_FAILED
  }

  private final IpLocator locator;
  private final Map<String, Placement> cache = new ConcurrentHashMap<>();
  private final Set<String> reported = ConcurrentHashMap.newKeySet();
  private final Map<Reason, AtomicLong> ignored = new EnumMap<>(Reason.class);

  public HostLocations(IpLocator locator) {
    this.locator = locator;
    for (Reason r : Reason.values()) ignored.put(r, new AtomicLong());
  }

  /** The locator behind these lookups. */
  public IpLocator locator() {
    return locator;
  }

  /**
   * The database's placement of an address (source DATABASE, country, AS), cached; the default
   * instance when nothing is known or the text is not an address literal.
   */
  public Placement database(String ip) {
    Placement p = cache.get(ip);
    if (p != null) return p;
    p = lookup(ip);
    cache.put(ip, p);
    return p;
  }

  /** Keeps only the cached addresses still in use (the cache is bounded by the index). */
  public void retain(Set<String> ips) {
    cache.keySet().retainAll(ips);
  }

  private Placement lookup(String ip) {
    InetAddress a;
    try {
      a = Endpoints.literal(ip);
    } catch (IllegalArgumentException e) {
      return Placement.getDefaultInstance();
    }
    return placement(a, "address " + ip);
  }

  /**
   * The database's placement of {@code a}; a failed lookup is logged once for {@code subject} and
   * counted (null subject: only the locator's own count, for client addresses, which are unbounded).
   */
  public Placement placement(InetAddress a, String subject) {
    long failedBefore = locator.failedLookups();
    Placement.Builder b = Placement.newBuilder();
    java.util.Optional<Location> at = locator.locate(a);
    java.util.Optional<Asn> asn = locator.asn(a);
    if (subject != null && locator.failedLookups() != failedBefore) {
      ignore(subject, Reason.LOOKUP_FAILED, "the database failed on the lookup");
    }
    at.ifPresent(l -> b.setPoint(GeoPoint.newBuilder().setLatitudeDeg(l.latitudeDeg()).setLongitudeDeg(l.longitudeDeg()))
        .setSource(LocationSource.LOCATION_SOURCE_DATABASE).setCountry(l.countryCode()));
    asn.ifPresent(n -> b.setAsn((int) Math.min(n.number(), 0xFFFF_FFFFL)));
    return b.build();
  }

  /** Whether a point is a valid WGS-84 location. */
  public static boolean inRange(GeoPoint p) {
    return p.getLatitudeDeg() >= -90 && p.getLatitudeDeg() <= 90 && p.getLongitudeDeg() >= -180
        && p.getLongitudeDeg() <= 180;
  }

  /**
   * Records that the location of {@code subject} (e.g. {@code landmark fra-1}) is ignored: logged
   * and counted the first time, silent while it stays ignored.
   */
  public void ignore(String subject, Reason reason, String detail) {
    if (reported.add(subject + "|" + reason)) {
      ignored.get(reason).incrementAndGet();
      log.warn("location of {} ignored ({}): {}", subject, reason.name().toLowerCase(java.util.Locale.ROOT), detail);
    }
  }

  /** The location of {@code subject} is accepted again for {@code reason}: a later rejection is logged anew. */
  public void accepted(String subject, Reason reason) {
    if (reported.remove(subject + "|" + reason)) {
      log.info("location of {} accepted again", subject);
    }
  }

  /** Locations ignored for {@code reason} so far (each counted once per episode). */
  public long ignored(Reason reason) {
    return ignored.get(reason).get();
  }
}
