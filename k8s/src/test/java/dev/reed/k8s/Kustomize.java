package dev.reed.k8s;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Renders a kustomization with the real {@code kubectl kustomize} (offline; kubectl 1.32 embeds
 * kustomize v5). Tests that need it skip with a message when kubectl is not on the PATH.
 */
final class Kustomize {

  /** The kustomizations a deployment starts from: the base and every overlay. */
  static final List<String> ROOTS = List.of("base", "overlays/dev", "overlays/prod");

  /** The base with the optional location databases (components/geo), a test kustomization under k8s/. */
  static final String WITH_GEO = "src/test/resources/with-geo";

  /**
   * The base with serving replicas (components/serving-replicas) and after them every component that
   * patches the coordinators, a test kustomization under k8s/.
   */
  static final String WITH_SERVING = "src/test/resources/with-serving-replicas";

  /** Everything the tests render: {@link #ROOTS}, {@link #WITH_GEO} and {@link #WITH_SERVING}. */
  static final List<String> RENDERED = List.of("base", "overlays/dev", "overlays/prod", WITH_GEO, WITH_SERVING);

  /** {@link #RENDERED}, for parameterized tests ({@code @MethodSource("dev.reed.k8s.Kustomize#rendered")}). */
  static List<String> rendered() {
    return RENDERED;
  }

  private final Path kubectl;

  private Kustomize(Path kubectl) {
    this.kubectl = kubectl;
  }

  static Optional<Kustomize> find() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (dir.isEmpty()) continue;
      Path candidate = Path.of(dir, "kubectl");
      if (Files.isExecutable(candidate)) return Optional.of(new Kustomize(candidate));
    }
    return Optional.empty();
  }

  static Kustomize require() {
    Optional<Kustomize> k = find();
    assumeTrue(k.isPresent(), "kubectl is not installed (not on PATH): skipping the kustomize build checks");
    return k.get();
  }

  ManifestSet build(Path dir) throws IOException, InterruptedException {
    Path errFile = Files.createTempFile("kustomize", ".err");
    Process p = new ProcessBuilder(kubectl.toString(), "kustomize", dir.toString())
        .redirectError(errFile.toFile())
        .start();
    try {
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        throw new AssertionError("kubectl kustomize " + dir + " did not finish within 60 s");
      }
      if (p.exitValue() != 0) {
        throw new AssertionError("kubectl kustomize " + dir + " failed (exit " + p.exitValue() + "):\n"
            + Files.readString(errFile));
      }
      return ManifestSet.parse(new String(out, StandardCharsets.UTF_8), "kustomize " + dir);
    } finally {
      p.destroyForcibly();
      Files.deleteIfExists(errFile);
    }
  }
}
