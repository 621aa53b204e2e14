package dev.reed.coordinator.api;

import dev.reed.coordinator.location.ClientAddress;
import dev.reed.runtime.LoggedAddresses;
import dev.reed.runtime.PrefixBuckets;
import java.net.InetAddress;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * How calls without an API key are admitted, on the gRPC port and the HTTP face alike (one set of
 * buckets, so a network's rate is shared by both): per network prefix, refused, or unlimited.
 *
 * @param buckets the limit per network prefix; null = no limit, unless {@code refused}
 * @param refused calls without a key are refused (keys required)
 * @param clients who the client of a call is (trusted proxies' X-Forwarded-For)
 * @param shown how a refused client appears in the DEBUG line ({@code --log-client-addresses})
 */
public record AnonymousAccess(PrefixBuckets buckets, boolean refused, ClientAddress clients, LoggedAddresses shown) {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AnonymousAccess.class);
  static final AnonymousAccess UNLIMITED = new AnonymousAccess(null, false, ClientAddress.trusting(List.of()), LoggedAddresses.HIDDEN);
  static final AnonymousAccess REFUSED = new AnonymousAccess(null, true, ClientAddress.trusting(List.of()), LoggedAddresses.HIDDEN);

  /**
   * @param rate requests per second per prefix (burst two seconds' worth); infinite = no limit; 0 = refused
   * @param nanos monotonic clock (System::nanoTime; a fake in tests)
   */
  public static AnonymousAccess of(double rate, ClientAddress clients, LoggedAddresses shown, LongSupplier nanos) {
    if (rate == 0) return new AnonymousAccess(null, true, clients, shown);
    if (Double.isInfinite(rate)) return new AnonymousAccess(null, false, clients, shown);
    return new AnonymousAccess(PrefixBuckets.of(PrefixBuckets.Limit.perSecond(rate), nanos), false, clients, shown);
  }

  /** One request from {@code client}'s network; true when it may go ahead (or is not limited). */
  boolean take(InetAddress client) {
    // no address (in-process transport) is no network to count against
    if (buckets == null || client == null || buckets.take(client)) return true;
    if (log.isDebugEnabled()) log.debug("refused a request without an API key from {}: its network is over its rate", shown.of(client));
    return false;
  }

  /** For the start-up line. */
  String describe() {
    return refused ? "refused" : buckets == null ? "no limit"
        : buckets.limit().ratePerSecond() + "/s per /24 or /56 (burst " + buckets.limit().burst() + ")";
  }
}
