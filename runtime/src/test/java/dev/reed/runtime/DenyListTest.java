package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.Endpoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DenyListTest {
  @Test
  void addressesBlocksAndEndpointsInBothFamilies(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("deny");
    Files.writeString(f, """
        # operators who asked not to be probed
        203.0.113.7
        198.51.100.0/23      # two /24s
        203.0.113.9:27960
        2001:db8:10::/48
        [2001:db8::7]:27015
        10.1.2.3/31
        """);
    DenyList d = DenyList.read(f);
    assertThat(d.size()).isEqualTo(6);
    assertThat(d.denies(Endpoints.parse("203.0.113.7:1"))).isTrue();
    assertThat(d.denies(Endpoints.parse("203.0.113.7:27960"))).isTrue();
    assertThat(d.denies(Endpoints.parse("203.0.113.8:27960"))).isFalse();
    assertThat(d.denies(Endpoints.parse("198.51.100.200:27015"))).isTrue();
    assertThat(d.denies(Endpoints.parse("198.51.101.1:27015"))).isTrue();
    assertThat(d.denies(Endpoints.parse("198.51.102.1:27015"))).isFalse();
    assertThat(d.denies(Endpoints.parse("203.0.113.9:27960"))).isTrue();
    assertThat(d.denies(Endpoints.parse("203.0.113.9:27961"))).as("another port of a denied endpoint").isFalse();
    assertThat(d.denies(Endpoints.parse("[2001:db8:10:ffff::1]:27015"))).isTrue();
    assertThat(d.denies(Endpoints.parse("[2001:db8:11::1]:27015"))).isFalse();
    assertThat(d.denies(Endpoints.parse("[2001:db8::7]:27015"))).isTrue();
    assertThat(d.denies(Endpoints.parse("[2001:db8::7]:27016"))).isFalse();
    assertThat(d.denies(Endpoints.parse("10.1.2.2:1"))).isTrue();
    assertThat(d.denies(Endpoints.parse("10.1.2.4:1"))).as("/31: bits within a byte").isFalse();
    assertThat(d.denies(Endpoints.parse("[::ffff:203.0.113.7]:27960"))).as("an IPv4-mapped address is the IPv4 one").isTrue();
  }

  @Test
  void emptyAndZeroPrefix() {
    assertThat(DenyList.parse("x", List.of("# nothing", "")).denies(Endpoints.parse("127.0.0.1:1"))).isFalse();
    assertThat(DenyList.NONE.denies(Endpoints.parse("127.0.0.1:1"))).isFalse();
    DenyList all = DenyList.parse("x", List.of("0.0.0.0/0"));
    assertThat(all.denies(Endpoints.parse("127.0.0.1:1"))).isTrue();
    assertThat(all.denies(Endpoints.parse("[::1]:1"))).as("an IPv4 block never covers IPv6").isFalse();
  }

  @Test
  void everyBadLineIsReportedWithItsNumberAndHostNamesAreRefused() {
    assertThatThrownBy(() -> DenyList.parse("deny.txt", List.of(
        "127.0.0.1", "127.0.0.0/33", "game.example.net", "127.0.0.1:99999", "1.2.3.4 5.6.7.8", "::1/129", "1.2.3.0/x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("6 bad lines")
        .hasMessageContaining("deny.txt:2: prefix length out of range 0-32")
        .hasMessageContaining("deny.txt:3: not a literal IP address: 'game.example.net'")
        .hasMessageContaining("deny.txt:4: port out of range")
        .hasMessageContaining("deny.txt:5: expected one address, block or endpoint per line")
        .hasMessageContaining("deny.txt:6: prefix length out of range 0-128")
        .hasMessageContaining("deny.txt:7: bad prefix length");
  }
}
