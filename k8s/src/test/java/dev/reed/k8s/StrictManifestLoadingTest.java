package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;

/**
 * Every Kubernetes manifest (sources and rendered overlays) loads with the Kubernetes Java client's
 * typed YAML loader, which rejects unknown or misplaced fields: a typo such as "readinesProbe" or a
 * field at the wrong level fails here instead of being dropped silently by a lenient apply.
 * Custom resources are not in the client's model: StrimziResourcesTest and MonitoringTest check them.
 */
@Tag("integration")
class StrictManifestLoadingTest {

  @Test
  void everyManifestSourceLoadsStrictly() throws IOException {
    List<Path> files = ManifestSet.sourceFiles(Checkout.k8s());
    assertThat(files).as("manifest sources under k8s/").hasSizeGreaterThan(10);
    int typed = 0;
    for (Path file : files) {
      for (Manifest m : ManifestSet.read(file).manifests()) {
        if (m.isCustomResource()) continue;
        loadStrictly(m);
        typed++;
      }
    }
    assertThat(typed).as("typed manifests checked").isGreaterThan(10);
  }

  @Test
  void everyRenderedOverlayLoadsStrictly() throws Exception {
    Kustomize kustomize = Kustomize.require();
    for (String root : Kustomize.RENDERED) {
      ManifestSet rendered = kustomize.build(Checkout.k8s().resolve(root));
      for (Manifest m : rendered.manifests()) {
        if (!m.isCustomResource()) loadStrictly(m);
      }
    }
  }

  @Test
  void everyRenderedObjectHasTheFieldsTheApiRequires() throws Exception {
    Kustomize kustomize = Kustomize.require();
    int checked = 0;
    for (String root : Kustomize.RENDERED) {
      for (Manifest m : kustomize.build(Checkout.k8s().resolve(root)).manifests()) {
        if (m.isCustomResource()) continue;
        validateAgainstApiSchema(m);
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(30);
  }

  @Test
  void aMissingRequiredFieldIsRejected() throws IOException {
    Manifest m = ManifestSet.parse(resource("invalid/missing-selector-deployment.yaml"), "test").manifests().get(0);
    assertThatThrownBy(() -> validateAgainstApiSchema(m)).hasStackTraceContaining("selector");
  }

  /**
   * The generated model's own validation (required fields, no unknown fields, at every level),
   * applied to a complete object: sources are often partial patches, so only rendered objects.
   */
  private static void validateAgainstApiSchema(Manifest m) {
    Class<?> model = typedClass(m);
    try {
      Method validate = model.getMethod("validateJsonElement", JsonElement.class);
      validate.invoke(null, new Gson().toJsonTree(m.root()));
    } catch (InvocationTargetException e) {
      throw new AssertionError(m.id() + " is not a valid " + model.getSimpleName() + ": " + e.getCause().getMessage(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(model + " has no validateJsonElement", e);
    }
  }

  private static Class<?> typedClass(Manifest m) {
    try {
      return Yaml.loadAll(new org.yaml.snakeyaml.Yaml().dump(m.root())).get(0).getClass();
    } catch (IOException e) {
      throw new AssertionError(m.id(), e);
    }
  }

  @Test
  void aMisspelledFieldIsRejected() throws IOException {
    String text = resource("invalid/misspelled-probe-deployment.yaml");
    assertThatThrownBy(() -> Yaml.loadAll(text))
        .hasStackTraceContaining("readinesProbe");
  }

  @Test
  void aFieldAtTheWrongLevelIsRejected() throws IOException {
    String text = resource("invalid/misplaced-field-service.yaml");
    assertThatThrownBy(() -> Yaml.loadAll(text))
        .hasStackTraceContaining("targetPort");
  }

  @Test
  void theSameLoaderAcceptsTheCorrectedManifest() throws IOException {
    String text = resource("invalid/misspelled-probe-deployment.yaml").replace("readinesProbe", "readinessProbe");
    assertThat(Yaml.loadAll(text)).hasSize(1);
  }

  private static void loadStrictly(Manifest m) {
    DumperOptions options = new DumperOptions();
    options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    String yaml = new org.yaml.snakeyaml.Yaml(options).dump(m.root());
    try {
      List<Object> loaded = new ArrayList<>(Yaml.loadAll(yaml));
      assertThat(loaded).as(m.id()).hasSize(1);
      assertThat(loaded.get(0).getClass().getName())
          .as("%s must map to a typed model class, not a dynamic object", m.id())
          .startsWith("io.kubernetes.client.openapi.models.");
    } catch (IOException | RuntimeException e) {
      throw new AssertionError(m.id() + " does not load strictly: " + e.getMessage(), e);
    }
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = StrictManifestLoadingTest.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) throw new IOException("missing test resource " + name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
