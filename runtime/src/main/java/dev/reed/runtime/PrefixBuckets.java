package dev.reed.runtime;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Token buckets for anonymous clients, one per network prefix ({@code /24} of IPv4, {@code /56} of
 * IPv6 by default) rather than per address: one host holds a whole IPv6 {@code /64} (2^64
 * addresses) and often many IPv4 addresses, so a limit per address is no limit. Every request,
 * frame or datagram spends a token; a prefix refills at {@link Limit#ratePerSecond()} up to
 * {@link Limit#burst()}.
 *
 * <p>Memory is bounded: at most {@code maxPrefixes} buckets are held. When the table is full, the
 * full (idle) buckets are forgotten, at most once a second; if it is still full, a new prefix is
 * refused until one frees: a flood from more prefixes than the table holds shares the refusals
 * with new honest clients, but prefixes already known keep their own buckets. Thread-safe.
 */
public final class PrefixBuckets {
  /** Default buckets held at once (about 100 bytes each). */
  public static final int DEFAULT_MAX_PREFIXES = 100_000;
  /** Default IPv4 prefix: a /24 is the smallest block routed on the Internet. */
  public static final int DEFAULT_IPV4_BITS = 24;
  /** Default IPv6 prefix: what an ISP assigns one customer (RIPE-690: /56 for homes). */
  public static final int DEFAULT_IPV6_BITS = 56;

  /**
   * A rate and a burst.
   *
   * @param ratePerSecond tokens added per second, > 0
   * @param burst tokens a bucket holds at most (and starts with), >= 1
   */
  public record Limit(double ratePerSecond, double burst) {
    public Limit {
      if (!(ratePerSecond > 0) || !Double.isFinite(ratePerSecond)) {
        throw new IllegalArgumentException("rate must be > 0 per second, got " + ratePerSecond);
      }
      if (!(burst >= 1) || !Double.isFinite(burst)) throw new IllegalArgumentException("burst must be >= 1, got " + burst);
    }

    /** {@code rate} per second with a burst of two seconds' worth (at least 1). */
    public static Limit perSecond(double rate) {
      return new Limit(rate, Math.max(1, 2 * rate));
    }
  }

  /**
   * A network prefix: the address's first {@code bits} bits (at most 64) in the high bits of
   * {@code high}.
   */
  public record Prefix(boolean ipv6, long high, int bits) {
    @Override
    public String toString() {
      byte[] b = new byte[ipv6 ? 16 : 4];
      for (int i = 0; i < Math.min(8, b.length); i++) b[i] = (byte) (high >>> (56 - 8 * i));
      try {
        return InetAddress.getByAddress(b).getHostAddress() + "/" + bits;
      } catch (java.net.UnknownHostException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private final Limit limit;
  private final int ipv4Bits;
  private final int ipv6Bits;
  private final int maxPrefixes;
  private final LongSupplier nanos;
  private final Map<Prefix, Bucket> buckets = new ConcurrentHashMap<>();
  private final AtomicLong lastSweep = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong tableFull = new AtomicLong();

  /**
   * @param ipv4Bits IPv4 prefix length, 8-32
   * @param ipv6Bits IPv6 prefix length, 16-64
   * @param maxPrefixes buckets held at most, >= 1
   * @param nanos monotonic clock (System::nanoTime; a fake in tests)
   */
  public PrefixBuckets(Limit limit, int ipv4Bits, int ipv6Bits, int maxPrefixes, LongSupplier nanos) {
    if (ipv4Bits < 8 || ipv4Bits > 32) throw new IllegalArgumentException("IPv4 prefix must be /8-/32, got /" + ipv4Bits);
    if (ipv6Bits < 16 || ipv6Bits > 64) throw new IllegalArgumentException("IPv6 prefix must be /16-/64, got /" + ipv6Bits);
    if (maxPrefixes < 1) throw new IllegalArgumentException("maxPrefixes must be >= 1, got " + maxPrefixes);
    this.limit = java.util.Objects.requireNonNull(limit, "limit");
    this.ipv4Bits = ipv4Bits;
    this.ipv6Bits = ipv6Bits;
    this.maxPrefixes = maxPrefixes;
    this.nanos = nanos;
  }

  /** The default prefixes and table size. */
  public static PrefixBuckets of(Limit limit, LongSupplier nanos) {
    return new PrefixBuckets(limit, DEFAULT_IPV4_BITS, DEFAULT_IPV6_BITS, DEFAULT_MAX_PREFIXES, nanos);
  }

  public Limit limit() {
    return limit;
  }

  /** The prefix {@code address} counts against (an IPv4-mapped IPv6 address as its IPv4 address). */
  public Prefix prefix(InetAddress address) {
    byte[] b = address.getAddress();
    if (address instanceof Inet6Address && isIpv4Mapped(b)) b = java.util.Arrays.copyOfRange(b, 12, 16);
    boolean v6 = b.length == 16;
    int bits = v6 ? ipv6Bits : ipv4Bits;
    long high = 0;
    for (int i = 0; i < Math.min(8, b.length); i++) high |= (b[i] & 0xffL) << (56 - 8 * i);
    long mask = bits == 64 ? -1L : ~(-1L >>> bits);
    return new Prefix(v6, high & mask, bits);
  }

  private static boolean isIpv4Mapped(byte[] b) {
    for (int i = 0; i < 10; i++) if (b[i] != 0) return false;
    return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
  }

  /** Spends one token of {@code address}'s prefix; false when it has none left (or the table is full). */
  public boolean take(InetAddress address) {
    return take(prefix(address));
  }

  /** Spends one token of {@code prefix}. */
  public boolean take(Prefix prefix) {
    long now = nanos.getAsLong();
    Bucket b = buckets.get(prefix);
    if (b == null) {
      if (buckets.size() >= maxPrefixes) sweep(now);
      if (buckets.size() >= maxPrefixes) {
        tableFull.incrementAndGet();
        refused.incrementAndGet();
        return false;
      }
      b = buckets.computeIfAbsent(prefix, p -> new Bucket(now));
    }
    if (b.take(now)) return true;
    refused.incrementAndGet();
    return false;
  }

  /** Forgets the buckets that have refilled (they would start full anyway), at most once a second. */
  private void sweep(long now) {
    long last = lastSweep.get();
    if (last != Long.MIN_VALUE && now - last < 1_000_000_000L) return;
    if (!lastSweep.compareAndSet(last, now)) return;
    buckets.entrySet().removeIf(e -> e.getValue().full(now));
  }

  /** Prefixes held now. */
  public int size() {
    return buckets.size();
  }

  /** Tokens refused since start (over the rate, or no room for a new prefix). */
  public long refused() {
    return refused.get();
  }

  /** Of {@link #refused()}, those refused because the table was full of active prefixes. */
  public long refusedTableFull() {
    return tableFull.get();
  }

  private final class Bucket {
    private double tokens;
    private long last;

    Bucket(long now) {
      tokens = limit.burst();
      last = now;
    }

    synchronized boolean take(long now) {
      refill(now);
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    }

    synchronized boolean full(long now) {
      refill(now);
      return tokens >= limit.burst();
    }

    private void refill(long now) {
      if (now > last) tokens = Math.min(limit.burst(), tokens + (now - last) / 1e9 * limit.ratePerSecond());
      last = Math.max(last, now);
    }
  }
}
