package dev.reed.k8s;

import java.nio.file.Path;

/**
 * Where the deployment files are: the k8s module directory (set by the pom as reed.k8s.dir), the
 * repository root above it, and docker/ beside it.
 */
final class Checkout {
  private Checkout() {}

  static Path k8s() {
    return Path.of(System.getProperty("reed.k8s.dir", ".")).toAbsolutePath().normalize();
  }

  static Path root() {
    return k8s().getParent();
  }

  static Path docker() {
    return Path.of(System.getProperty("reed.docker.dir", root().resolve("docker").toString())).toAbsolutePath().normalize();
  }
}
