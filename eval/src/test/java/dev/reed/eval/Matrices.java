package dev.reed.eval;

import java.nio.file.Files;
import java.nio.file.Path;

/** The measured matrices shipped in the repository's data/ (data/README.md), as tests find them. */
final class Matrices {
  private Matrices() {}

  /**
   * {@code data/NAME/matrix.csv}; the parent pom passes the folder as {@code reed.data.dir}, and a
   * run from the module directory finds it one level up. Missing data fails the test: it is part of
   * the repository, so a test that skipped without it would hide a broken checkout.
   */
  static Path matrix(String name) {
    Path p = Path.of(System.getProperty("reed.data.dir", "../data"), name, "matrix.csv");
    if (!Files.isRegularFile(p)) {
      throw new IllegalStateException("measured matrix " + p.toAbsolutePath() + " is missing (data/README.md;"
          + " set -Dreed.data.dir to the repository's data folder)");
    }
    return p;
  }
}
