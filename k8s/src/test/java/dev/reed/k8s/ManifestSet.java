package dev.reed.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** A list of manifests read from YAML text (a file, or the output of {@code kubectl kustomize}). */
record ManifestSet(List<Manifest> manifests) {

  static ManifestSet parse(String yaml, String source) {
    List<Manifest> out = new ArrayList<>();
    for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
      if (doc == null) continue;
      out.add(new Manifest(Manifest.asMap(doc, source), source));
    }
    return new ManifestSet(List.copyOf(out));
  }

  static ManifestSet read(Path file) throws IOException {
    return parse(Files.readString(file), file.toString());
  }

  List<Manifest> ofKind(String kind) {
    return manifests.stream().filter(m -> kind.equals(m.kind())).toList();
  }

  Manifest one(String kind, String name) {
    List<Manifest> found = manifests.stream()
        .filter(m -> kind.equals(m.kind()) && name.equals(m.name())).toList();
    if (found.size() != 1) {
      throw new AssertionError("expected exactly one " + kind + "/" + name + ", found " + found.size());
    }
    return found.get(0);
  }

  /** The project's manifest sources: every .yaml under k8s/ except kustomization files and test data. */
  static List<Path> sourceFiles(Path k8sDir) throws IOException {
    try (Stream<Path> files = Files.walk(k8sDir)) {
      return files
          .filter(p -> p.toString().endsWith(".yaml"))
          .filter(p -> !p.getFileName().toString().equals("kustomization.yaml"))
          .filter(p -> !k8sDir.relativize(p).startsWith("src") && !k8sDir.relativize(p).startsWith("target"))
          .sorted()
          .toList();
    }
  }
}
