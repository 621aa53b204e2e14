package dev.reed.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The API contract passes {@code buf lint} with the STANDARD rules (buf.yaml at the repository root). */
@Tag("integration")
class BufLintTest {

  @Test
  void protosPassBufLintStandard() throws Exception {
    String buf = findOnPath("buf");
    assumeTrue(buf != null, "buf is not installed (npm install -g @bufbuild/buf; .ci/run installs it)");
    Path root = Path.of("").toAbsolutePath().getParent();
    assertThat(root.resolve("buf.yaml")).exists();
    Process p = new ProcessBuilder(buf, "lint", "--error-format", "text").directory(root.toFile())
        .redirectErrorStream(true).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("buf lint output:%n%s", out).isZero();
  }

  private static String findOnPath(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File f = new File(dir, name);
      if (f.canExecute()) return f.getPath();
    }
    return null;
  }
}
