package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PrefixBucketsTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final PrefixBuckets buckets = PrefixBuckets.of(PrefixBuckets.Limit.perSecond(20), now::get);

  private static InetAddress ip(String literal) throws Exception {
    return InetAddress.getByName(literal);
  }

  private int takes(String address, int tries) throws Exception {
    int ok = 0;
    for (int i = 0; i < tries; i++) if (buckets.take(ip(address))) ok++;
    return ok;
  }

  private void advanceMillis(long ms) {
    now.addAndGet(ms * 1_000_000L);
  }

  @Test
  void aPrefixGetsItsBurstThenItsRate() throws Exception {
    assertThat(takes("203.0.113.7", 100)).isEqualTo(40);
    advanceMillis(500);
    assertThat(takes("203.0.113.7", 100)).isEqualTo(10);
    advanceMillis(10_000);
    assertThat(takes("203.0.113.7", 100)).as("refills to the burst, no more").isEqualTo(40);
    assertThat(buckets.refused()).isEqualTo(60 + 90 + 60);
  }

  @Test
  void everyAddressOfOnePrefixSharesItsBucket() throws Exception {
    int ok = 0;
    for (int host = 1; host <= 250; host++) if (buckets.take(ip("198.51.100." + host))) ok++;
    assertThat(ok).isEqualTo(40);
    assertThat(takes("198.51.101.1", 1)).as("the next /24 is another prefix").isEqualTo(1);
    int v6 = 0;
    for (int i = 1; i <= 100; i++) {
      if (buckets.take(ip("2001:db8:0:" + Integer.toHexString(0x100 + i) + ":" + Integer.toHexString(i) + "::1"))) v6++;
    }
    assertThat(v6).as("one IPv6 /56, whatever the /64 and interface id").isEqualTo(40);
    assertThat(takes("2001:db8:0:200::1", 1)).as("the next /56").isEqualTo(1);
  }

  @Test
  void prefixesAreNamedAsCidrBlocks() throws Exception {
    assertThat(buckets.prefix(ip("203.0.113.77"))).hasToString("203.0.113.0/24");
    assertThat(buckets.prefix(ip("2001:db8:1:2ff:1::9"))).hasToString("2001:db8:1:200:0:0:0:0/56");
    assertThat(buckets.prefix(ip("::ffff:203.0.113.9"))).isEqualTo(buckets.prefix(ip("203.0.113.1")));
  }

  @Test
  void theTableIsBoundedAndIdlePrefixesMakeRoom() throws Exception {
    PrefixBuckets small = new PrefixBuckets(PrefixBuckets.Limit.perSecond(1), 24, 56, 3, now::get);
    for (int p = 0; p < 3; p++) assertThat(small.take(ip("10.0." + p + ".1"))).isTrue();
    assertThat(small.take(ip("10.0.9.1"))).as("full of prefixes still spending").isFalse();
    assertThat(small.refusedTableFull()).isEqualTo(1);
    assertThat(small.size()).isEqualTo(3);
    advanceMillis(5_000);
    assertThat(small.take(ip("10.0.9.1"))).as("the refilled ones were forgotten").isTrue();
    assertThat(small.size()).isEqualTo(1);
  }

  @Test
  void badSettingsAreRefusedWithTheReason() {
    assertThatThrownBy(() -> PrefixBuckets.Limit.perSecond(0)).hasMessageContaining("rate must be > 0");
    assertThatThrownBy(() -> new PrefixBuckets(PrefixBuckets.Limit.perSecond(1), 33, 56, 10, now::get))
        .hasMessageContaining("IPv4 prefix must be /8-/32");
    assertThatThrownBy(() -> new PrefixBuckets(PrefixBuckets.Limit.perSecond(1), 24, 96, 10, now::get))
        .hasMessageContaining("IPv6 prefix must be /16-/64");
  }

  @Test
  void clientAddressesAreHiddenUnlessShown() throws Exception {
    assertThat(LoggedAddresses.HIDDEN.of(ip("203.0.113.7"))).isEqualTo("a client");
    assertThat(new LoggedAddresses(true).of(ip("203.0.113.7"))).isEqualTo("203.0.113.7");
    assertThat(new LoggedAddresses(true).of(new java.net.InetSocketAddress(ip("203.0.113.7"), 9))).isEqualTo("203.0.113.7:9");
  }
}
