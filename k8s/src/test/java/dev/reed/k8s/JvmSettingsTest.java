package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The coordinators' JVM settings and memory are the ones docs/operations.md states ("JVM settings
 * and memory limits"): each rendered Deployment's JDK_JAVA_OPTIONS and memory request and limit
 * are its row of the guide's table, every row runs the collector, equal -Xms/-Xmx and pre-touch the
 * scale harness measured, the limit is the heap plus the guide's non-heap allowance, and the image's
 * default is the base's row.
 */
@Tag("integration")
class JvmSettingsTest {

  private static final String SECTION = "### JVM settings and memory limits";
  private static final List<String> MEASURED = List.of("-XX:+UseParallelGC", "-XX:+UseCountedLoopSafepoints",
      "-XX:LoopStripMiningIter=1000", "-XX:+AlwaysPreTouch");

  /** One row of the guide's table. */
  record Row(String overlay, String deployment, String javaOptions, String memory) {}

  /** Where each overlay name of the table is rendered from (k8s/). */
  private static final Map<String, String> RENDERED_FROM = Map.of(
      "base", "base", "dev", "overlays/dev", "prod", "overlays/prod", "serving-replicas", Kustomize.WITH_SERVING);

  @Test
  void everyCoordinatorRunsItsRowOfTheOperationsGuide() throws Exception {
    List<Row> rows = rows(section());
    assertThat(rows).extracting(Row::overlay).containsExactlyInAnyOrderElementsOf(RENDERED_FROM.keySet());
    Kustomize kustomize = Kustomize.require();
    for (Row row : rows) runs(row, kustomize.build(Checkout.k8s().resolve(RENDERED_FROM.get(row.overlay()))));
  }

  @Test
  void aDeploymentThatDiffersFromItsRowFails() throws Exception {
    ManifestSet prod = Kustomize.require().build(Checkout.k8s().resolve("overlays/prod"));
    Row row = rows(section()).stream().filter(r -> r.overlay().equals("prod")).findFirst().orElseThrow();
    runs(row, prod);
    assertThatThrownBy(() -> runs(new Row(row.overlay(), row.deployment(), row.javaOptions(), "2Gi"), prod))
        .isInstanceOf(AssertionError.class).hasMessageContaining("memory limit");
    assertThatThrownBy(() -> runs(new Row(row.overlay(), row.deployment(), row.javaOptions().replace("-Xmx3g", "-Xmx2g"),
        row.memory()), prod)).isInstanceOf(AssertionError.class).hasMessageContaining("JDK_JAVA_OPTIONS");
  }

  /** The row's Deployment in the rendered set runs the row's JVM options and memory. */
  private static void runs(Row row, ManifestSet set) {
    Workload w = new Workload(set.one("Deployment", row.deployment()));
    String id = row.overlay() + " " + row.deployment();
    assertThat(w.env(set).get("JDK_JAVA_OPTIONS")).as("%s JDK_JAVA_OPTIONS", id).isEqualTo(row.javaOptions());
    assertThat(Workload.bytes(Manifest.at(w.container(), "resources.limits.memory")))
        .as("%s memory limit", id).isEqualByComparingTo(Workload.bytes(row.memory()));
    assertThat(Workload.bytes(Manifest.at(w.container(), "resources.requests.memory")))
        .as("%s memory request", id).isEqualByComparingTo(Workload.bytes(row.memory()));
  }

  @Test
  void theGuidesRowsRunTheMeasuredSettingsWithinTheirLimits() throws Exception {
    String section = section();
    Matcher allowance = Pattern.compile("non-heap\\s+allowance of (\\d+) MiB").matcher(section);
    assertThat(allowance.find()).as("the guide states the non-heap allowance").isTrue();
    BigDecimal nonHeap = BigDecimal.valueOf(Long.parseLong(allowance.group(1)) << 20);
    for (Row row : rows(section)) {
      List<String> options = List.of(row.javaOptions().split("\\s+"));
      assertThat(options).as(row.overlay()).containsAll(MEASURED);
      BigDecimal xms = heap(options, "-Xms");
      assertThat(heap(options, "-Xmx")).as("%s: -Xms = -Xmx", row.overlay()).isEqualByComparingTo(xms);
      assertThat(Workload.bytes(row.memory())).as("%s: limit = heap + non-heap allowance", row.overlay())
          .isEqualByComparingTo(xms.add(nonHeap));
    }
    assertThat(rows(section)).filteredOn(r -> r.overlay().equals("prod")).singleElement()
        .satisfies(r -> assertThat(r.javaOptions()).as("prod: the 3 GB heap measured at 250,000 x 30").contains("-Xmx3g"));
  }

  @Test
  void theImageDefaultsToTheBasesSettings() throws Exception {
    Dockerfile.Stage image = Dockerfile.parse(Checkout.docker().resolve("coordinator.Dockerfile")).runtime();
    Row base = rows(section()).stream().filter(r -> r.overlay().equals("base")).findFirst().orElseThrow();
    assertThat(image.env()).containsEntry("JDK_JAVA_OPTIONS", base.javaOptions());
    assertThat(String.join(" ", image.args("ENTRYPOINT"))).as("the heap comes from JDK_JAVA_OPTIONS only")
        .doesNotContain("MaxRAMPercentage").doesNotContain("-Xm").doesNotContainPattern("Use\\w+GC");
  }

  private static String section() throws Exception {
    String guide = Files.readString(Checkout.root().resolve("docs/operations.md"));
    int start = guide.indexOf(SECTION);
    assertThat(start).as("docs/operations.md has a section %s", SECTION).isNotNegative();
    int end = guide.indexOf("\n### ", start + SECTION.length());
    return guide.substring(start, end < 0 ? guide.length() : end);
  }

  /** The table's rows: overlay | Deployment | sized for | JDK_JAVA_OPTIONS | memory. */
  static List<Row> rows(String section) {
    List<Row> rows = new ArrayList<>();
    Map<String, Row> byKey = new LinkedHashMap<>();
    for (String line : section.split("\n")) {
      if (!line.startsWith("| ") || line.startsWith("| overlay") || line.startsWith("|---")) continue;
      String[] cells = line.substring(1, line.length() - 1).split("\\|");
      if (cells.length != 5) throw new AssertionError("not a 5-column row: " + line);
      Row row = new Row(cells[0].strip(), unquote(cells[1]), unquote(cells[3]), cells[4].strip());
      if (byKey.put(row.overlay() + "/" + row.deployment(), row) != null) throw new AssertionError("twice: " + line);
      rows.add(row);
    }
    return rows;
  }

  private static String unquote(String cell) {
    return cell.strip().replace("`", "");
  }

  private static BigDecimal heap(List<String> options, String flag) {
    String value = options.stream().filter(o -> o.startsWith(flag)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + flag + " in " + options)).substring(flag.length());
    long unit = switch (Character.toLowerCase(value.charAt(value.length() - 1))) {
      case 'g' -> 1L << 30;
      case 'm' -> 1L << 20;
      default -> throw new AssertionError("heap size in m or g: " + value);
    };
    return BigDecimal.valueOf(Long.parseLong(value.substring(0, value.length() - 1)) * unit);
  }
}
