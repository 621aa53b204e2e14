package dev.reed.terraform;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Parses HCL with the npm library {@code @cdktf/hcl2json} (HashiCorp's HCL parser compiled to
 * WebAssembly), run by node from the global npm root. Terraform itself cannot be installed here,
 * so this is the syntax check; {@link TerraformConfig} does the semantic cross-checks on its JSON.
 */
final class Hcl2Json {

  /** Parses every file given on the command line; prints {path: json} or {path: {"__error": msg}}. */
  private static final String SCRIPT = """
      const hcl = require(process.env.HCL2JSON_MODULE);
      const fs = require('fs');
      (async () => {
        const out = {};
        for (const f of process.argv.slice(1)) {
          try { out[f] = await hcl.parse(f, fs.readFileSync(f, 'utf8')); }
          catch (e) { out[f] = { __error: String(e && e.message || e) }; }
        }
        process.stdout.write(JSON.stringify(out));
      })();
      """;

  private final Path node;
  private final Path module;

  private Hcl2Json(Path node, Path module) {
    this.node = node;
    this.module = module;
  }

  /** Parse results by file: the JSON, or the parser's error message. */
  record Parsed(Path file, JsonNode json, String error) {
    boolean ok() {
      return error == null;
    }
  }

  static Optional<Hcl2Json> find() throws IOException, InterruptedException {
    Optional<Path> node = onPath("node");
    Optional<Path> npm = onPath("npm");
    if (node.isEmpty() || npm.isEmpty()) return Optional.empty();
    String root = run(List.of(npm.get().toString(), "root", "-g"), 30).strip();
    Path module = Path.of(root, "@cdktf", "hcl2json");
    return Files.isDirectory(module) ? Optional.of(new Hcl2Json(node.get(), module)) : Optional.empty();
  }

  static Hcl2Json require() throws IOException, InterruptedException {
    Optional<Hcl2Json> found = find();
    assumeTrue(found.isPresent(),
        "node/npm or the global npm package @cdktf/hcl2json is missing (npm install -g @cdktf/hcl2json): skipping Terraform checks");
    return found.get();
  }

  Map<Path, Parsed> parse(List<Path> files) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(node.toString(), "-e", SCRIPT));
    files.forEach(f -> cmd.add(f.toString()));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("HCL2JSON_MODULE", module.toString());
    JsonNode all = new ObjectMapper().readTree(run(pb, 120));
    Map<Path, Parsed> out = new LinkedHashMap<>();
    for (Path f : files) {
      JsonNode j = all.get(f.toString());
      if (j == null) throw new AssertionError("hcl2json gave no result for " + f);
      out.put(f, j.has("__error") ? new Parsed(f, null, j.get("__error").asText()) : new Parsed(f, j, null));
    }
    return out;
  }

  private static Optional<Path> onPath(String name) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (dir.isEmpty()) continue;
      Path p = Path.of(dir, name);
      if (Files.isExecutable(p)) return Optional.of(p);
    }
    return Optional.empty();
  }

  private static String run(List<String> cmd, int timeoutSeconds) throws IOException, InterruptedException {
    return run(new ProcessBuilder(cmd), timeoutSeconds);
  }

  private static String run(ProcessBuilder pb, int timeoutSeconds) throws IOException, InterruptedException {
    Path err = Files.createTempFile("hcl2json", ".err");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    try {
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        throw new AssertionError(pb.command().get(0) + " did not finish within " + timeoutSeconds + " s");
      }
      if (p.exitValue() != 0) {
        throw new AssertionError(String.join(" ", pb.command().subList(0, Math.min(2, pb.command().size())))
            + " failed (exit " + p.exitValue() + "): " + Files.readString(err));
      }
      return new String(out, StandardCharsets.UTF_8);
    } finally {
      p.destroyForcibly();
      Files.deleteIfExists(err);
    }
  }
}
