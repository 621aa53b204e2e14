package dev.reed.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.Endpoints;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IpLocatorCsvTest {
  @TempDir Path dir;

  private static InetAddress ip(String text) {
    return Endpoints.literal(text);
  }

  private IpLocator open(List<Path> locations, List<Path> asns) throws IOException {
    return IpLocator.open(GeoFiles.of(locations, asns));
  }

  private Path file(String name, String... lines) throws IOException {
    return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
  }

  @Test
  void writtenHostsReadBackIpv4AndIpv6() throws IOException {
    Map<InetAddress, Location> hosts = new LinkedHashMap<>();
    hosts.put(ip("2001:db8::7"), new Location(35.68, 139.69, Double.NaN, "jp"));
    hosts.put(ip("203.0.113.7"), new Location(50.11, 8.68, Double.NaN, "DE"));
    hosts.put(ip("198.51.100.1"), Location.of(-33.87, 151.21));
    Map<InetAddress, Asn> asns = Map.of(ip("203.0.113.7"), new Asn(64500, "Example, Inc. \"quoted\""),
        ip("2001:db8::7"), new Asn(4200000000L, ""));
    Path loc = dir.resolve("hosts-city.csv");
    Path as = dir.resolve("hosts-asn.csv");
    IpRangeCsvWriter.writeLocations(loc, hosts);
    IpRangeCsvWriter.writeAsns(as, asns);

    try (IpLocator g = open(List.of(loc), List.of(as))) {
      assertThat(g.locate(ip("203.0.113.7"))).contains(new Location(50.11, 8.68, Double.NaN, "DE"));
      assertThat(g.locate(ip("2001:db8:0:0::7"))).contains(new Location(35.68, 139.69, Double.NaN, "JP"));
      assertThat(g.locate(ip("198.51.100.1")).orElseThrow().countryCode()).isEmpty();
      assertThat(g.asn(ip("203.0.113.7"))).contains(new Asn(64500, "Example, Inc. \"quoted\""));
      assertThat(g.asn(ip("2001:db8::7"))).contains(new Asn(4200000000L, ""));
      // neighbours of a single-address range are unknown
      assertThat(g.locate(ip("203.0.113.6"))).isEmpty();
      assertThat(g.locate(ip("203.0.113.8"))).isEmpty();
      assertThat(g.locate(ip("2001:db8::8"))).isEmpty();
      assertThat(g.asn(ip("198.51.100.1"))).isEmpty();
      assertThat(g.describe()).contains("hosts-city.csv", "2 IPv4 + 1 IPv6", "hosts-asn.csv", "1 IPv4 + 1 IPv6");
    }
    assertThat(Files.readAllLines(loc)).first().isEqualTo("198.51.100.1,198.51.100.1,,,,,,-33.87,151.21,");
  }

  @Test
  void rangesAreInclusiveAndSearchedAcrossFamilies() throws IOException {
    Path city = file("city.csv",
        "1.0.0.0,1.0.0.255,AU,Queensland,,Brisbane,,-27.4679,153.028,",
        "8.8.8.0,8.8.8.255,US,California,,Mountain View,,37.422,-122.085,",
        "2001:4860::,2001:4860:ffff:ffff:ffff:ffff:ffff:ffff,US,Virginia,,Ashburn,,39.0438,-77.4874,");
    try (IpLocator g = open(List.of(city), List.of())) {
      assertThat(g.locate(ip("1.0.0.0")).orElseThrow().countryCode()).isEqualTo("AU");
      assertThat(g.locate(ip("1.0.0.255")).orElseThrow().latitudeDeg()).isEqualTo(-27.4679);
      assertThat(g.locate(ip("1.0.1.0"))).isEmpty();
      assertThat(g.locate(ip("0.255.255.255"))).isEmpty();
      assertThat(g.locate(ip("8.8.8.8")).orElseThrow().longitudeDeg()).isEqualTo(-122.085);
      assertThat(g.locate(ip("2001:4860:4860::8888")).orElseThrow().latitudeDeg()).isEqualTo(39.0438);
      assertThat(g.locate(ip("::ffff:8.8.8.8")).orElseThrow().countryCode()).isEqualTo("US"); // v4-mapped is IPv4
      assertThat(g.locate(ip("2001:4861::"))).isEmpty();
      assertThat(g.asn(ip("8.8.8.8"))).isEmpty(); // no AS database
    }
  }

  @Test
  void privateLoopbackLinkLocalAndUnspecifiedGetNothingEvenWhenListed() throws IOException {
    List<String> blocked = List.of("10.1.2.3", "172.16.0.1", "192.168.1.1", "127.0.0.1", "169.254.1.1", "0.0.0.0",
        "100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00::1", "ff02::1");
    Map<InetAddress, Location> hosts = new LinkedHashMap<>();
    Map<InetAddress, Asn> asns = new LinkedHashMap<>();
    for (String b : blocked) {
      hosts.put(ip(b), Location.of(1, 2));
      asns.put(ip(b), new Asn(64500, "x"));
    }
    Path loc = dir.resolve("c.csv");
    Path as = dir.resolve("a.csv");
    IpRangeCsvWriter.writeLocations(loc, hosts);
    IpRangeCsvWriter.writeAsns(as, asns);
    try (IpLocator g = open(List.of(loc), List.of(as))) {
      for (String b : blocked) {
        assertThat(g.locate(ip(b))).as(b).isEmpty();
        assertThat(g.asn(ip(b))).as(b).isEmpty();
      }
      assertThat(g.locate(null)).isEmpty();
      assertThat(g.failedLookups()).isZero();
    }
    try (IpLocator testbed = IpLocator.open(new GeoFiles(List.of(loc), List.of(), true))) {
      assertThat(testbed.locate(ip("127.0.0.1"))).contains(Location.of(1, 2));
      assertThat(testbed.locate(ip("10.1.2.3"))).isEmpty();
    }
  }

  @Test
  void firstFileThatKnowsAnswers() throws IOException {
    Path a = file("a.csv", "8.8.8.0,8.8.8.255,US,,,,,37.4,-122.1,");
    Path b = file("b.csv", "8.8.8.0,8.8.8.255,DE,,,,,50.1,8.7,", "9.9.9.0,9.9.9.255,CH,,,,,47.4,8.5,");
    try (IpLocator g = open(List.of(a, b), List.of())) {
      assertThat(g.locate(ip("8.8.8.8")).orElseThrow().countryCode()).isEqualTo("US");
      assertThat(g.locate(ip("9.9.9.9")).orElseThrow().countryCode()).isEqualTo("CH");
    }
  }

  @Test
  void overlappingRowsKeepTheFirst() throws IOException {
    Path as = file("overlap.csv", "1.0.0.0,1.0.255.255,100,A", "1.0.1.0,1.0.1.255,200,B", "1.0.200.0,1.1.0.255,300,C",
        "1.2.0.0,1.2.0.255,400,D");
    try (IpLocator g = open(List.of(), List.of(as))) {
      assertThat(g.asn(ip("1.0.1.1")).orElseThrow().number()).isEqualTo(100);
      assertThat(g.asn(ip("1.0.255.255")).orElseThrow().number()).isEqualTo(100);
      assertThat(g.asn(ip("1.1.0.0")).orElseThrow().number()).isEqualTo(300);
      assertThat(g.asn(ip("1.2.0.9")).orElseThrow().number()).isEqualTo(400);
      assertThat(g.describe()).contains("3 IPv4 + 0 IPv6 ranges, 2 overlapping clipped");
    }
  }

  @Test
  void gzipCsvAndHeaderRowAndRowsWithoutCoordinates() throws IOException {
    Path gz = dir.resolve("city.csv.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(("ip_range_start,ip_range_end,country_code,state1,state2,city,postcode,latitude,longitude,timezone\n"
          + "5.0.0.0,5.0.0.255,FR,,,,,,,\n"
          + "5.0.1.0,5.0.1.255,FR,,,Paris,,48.86,2.35,Europe/Paris\n").getBytes());
    }
    try (IpLocator g = open(List.of(gz), List.of())) {
      assertThat(g.locate(ip("5.0.0.1"))).isEmpty();
      assertThat(g.locate(ip("5.0.1.1"))).contains(new Location(48.86, 2.35, Double.NaN, "FR"));
    }
  }

  @Test
  void badFilesAreClearErrorsNamingFileAndLine() throws IOException {
    assertError(List.of(dir.resolve("missing.mmdb")), List.of(), "missing.mmdb", "no such file");
    assertError(List.of(file("x.txt", "a")), List.of(), "x.txt", "unknown format");
    assertError(List.of(file("corrupt.mmdb", "not a database")), List.of(), "corrupt.mmdb", "not a valid MaxMind DB");
    assertError(List.of(file("empty.csv")), List.of(), "empty.csv", "no location ranges");
    assertError(List.of(file("cols.csv", "1.0.0.0,1.0.0.255,13335,\"Cloudflare, Inc.\"")), List.of(),
        "cols.csv line 1", "expected 10 columns");
    assertError(List.of(file("lat.csv", "1.0.0.0,1.0.0.255,AU,,,,,north,153,")), List.of(), "lat.csv line 1",
        "latitude is not a number");
    assertError(List.of(file("range.csv", "1.0.0.0,1.0.0.255,AU,,,,,-27,153,", "2.0.0.0,2.0.0.255,AU,,,,,95,153,")),
        List.of(), "range.csv line 2", "latitude must be in -90..90");
    assertError(List.of(file("nan.csv", "1.0.0.0,1.0.0.255,AU,,,,,NaN,153,")), List.of(), "nan.csv line 1", "latitude");
    assertError(List.of(file("cc.csv", "1.0.0.0,1.0.0.255,AUS,,,,,1,2,")), List.of(), "cc.csv line 1", "country code");
    assertError(List.of(file("order.csv", "2.0.0.0,2.0.0.255,AU,,,,,1,2,", "1.0.0.0,1.0.0.255,AU,,,,,1,2,")),
        List.of(), "order.csv line 2", "must be sorted by start");
    assertError(List.of(file("rev.csv", "1.0.0.9,1.0.0.1,AU,,,,,1,2,")), List.of(), "rev.csv line 1", "start is after");
    assertError(List.of(file("mix.csv", "1.0.0.0,2001::,AU,,,,,1,2,")), List.of(), "mix.csv line 1", "mixes IPv4 and IPv6");
    assertError(List.of(file("num.csv", "16777216,16777471,AU,,,,,1,2,")), List.of(), "num.csv line 1", "'-num' files");
    assertError(List.of(file("host.csv", "example.com,1.0.0.1,AU,,,,,1,2,")), List.of(), "host.csv line 1",
        "not a literal IP address");
    assertError(List.of(), List.of(file("asn.csv", "1.0.0.0,1.0.0.255,AS13335,Cloudflare")), "asn.csv line 1",
        "autonomous_system_number is not a number");
    assertError(List.of(), List.of(file("asn0.csv", "1.0.0.0,1.0.0.255,0,Reserved")), "asn0.csv line 1",
        "AS number must be in 1..");
    Path gz = file("bad.csv.gz", "plain text");
    assertError(List.of(gz), List.of(), "bad.csv.gz", "gzip");
  }

  private void assertError(List<Path> locations, List<Path> asns, String... parts) {
    assertThatThrownBy(() -> open(locations, asns).close()).isInstanceOf(IOException.class).hasMessageContainingAll(parts);
  }

  @Test
  void noneKnowsNothing() {
    try (IpLocator g = IpLocator.none()) {
      assertThat(g.locate(ip("8.8.8.8"))).isEmpty();
      assertThat(g.asn(ip("8.8.8.8"))).isEmpty();
      assertThat(g.describe()).isEqualTo("no databases");
    }
  }

  @Test
  void valuesValidate() {
    assertThatThrownBy(() -> Location.of(Double.NaN, 0)).hasMessageContaining("latitude");
    assertThatThrownBy(() -> Location.of(0, 180.5)).hasMessageContaining("longitude");
    assertThatThrownBy(() -> new Location(0, 0, -1, "")).hasMessageContaining("accuracy");
    assertThatThrownBy(() -> new Asn(Asn.MAX + 1, "")).hasMessageContaining("AS number");
    assertThat(new Location(0, 0, 20, "").hasAccuracyRadius()).isTrue();
  }
}
