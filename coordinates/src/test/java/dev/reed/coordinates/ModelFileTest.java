package dev.reed.coordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.integrity.IntegrityConfig;
import dev.reed.coordinates.reports.ReportConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one loader of settings files: every path through it, on the records the commands read with it. */
class ModelFileTest {
  @TempDir Path dir;

  @Test
  void aGoodFileSetsItsKeysAndTheRestKeepTheirDefaults() throws IOException {
    Path f = Files.writeString(dir.resolve("reports.properties"),
        "# a comment\nkernelMs = 2.5\nperServer=32\nmaxAgeMillis = 3600000\n");
    ReportConfig c = ModelFile.load(f, ReportConfig.class, ReportConfig.defaults());
    assertThat(c.kernelMs()).isEqualTo(2.5);
    assertThat(c.perServer()).isEqualTo(32);
    assertThat(c.maxAgeMillis()).isEqualTo(3_600_000L);
    assertThat(c.with(Map.of("kernelMs", "1", "perServer", "64", "maxAgeMillis", "86400000")))
        .as("every other key at its default").isEqualTo(ReportConfig.defaults());
  }

  @Test
  void anEmptyFileOrNoFileIsTheDefaults() throws IOException {
    Path f = Files.writeString(dir.resolve("empty.properties"), "# nothing changed\n");
    assertThat(IntegrityConfig.load(f)).isEqualTo(IntegrityConfig.defaults());
    assertThat(ModelFile.option("--integrity-config", null, IntegrityConfig.defaults())).isEqualTo(IntegrityConfig.defaults());
  }

  @Test
  void anUnknownKeyIsNamedWithTheAllowedOnes() throws IOException {
    Path f = Files.writeString(dir.resolve("typo.properties"), "relativeTolerance = 0.4\nnear_share = 0.3\n");
    assertThatThrownBy(() -> IntegrityConfig.load(f)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(f + ": unknown key near_share; allowed: absoluteToleranceMs, relativeTolerance, nearShare, "
            + "minViolatingPairs, lightToleranceMs, minReplyTells");
  }

  @Test
  void aBadValueIsNamedWithItsKey() throws IOException {
    Path f = dir.resolve("bad.properties");
    Files.writeString(f, "perServer = 6.5\n");
    assertThatThrownBy(() -> ReportConfig.load(f)).hasMessage(f + ": perServer must be a whole number, got '6.5'");
    Files.writeString(f, "kernelMs = wide\n");
    assertThatThrownBy(() -> ReportConfig.load(f)).hasMessage(f + ": kernelMs must be a number, got 'wide'");
    Files.writeString(f, "kernelMs = 0\n");
    assertThatThrownBy(() -> ReportConfig.load(f)).as("the record's own check")
        .hasMessage(f + ": kernelMs must be finite and > 0: 0.0");
  }

  @Test
  void aMissingFileIsSaidSoNamingTheOption() {
    Path f = dir.resolve("absent.properties");
    assertThatThrownBy(() -> ReportConfig.load(f)).hasMessage(f + ": no such file");
    assertThatThrownBy(() -> ModelFile.option("--reports-config", f, ReportConfig.defaults()))
        .hasMessage("--reports-config " + f + ": no such file");
  }

  @Test
  void aRecordWritesEveryKeyAndReadsBackEqual() throws IOException {
    ReportConfig c = ReportConfig.defaults().with(Map.of("transfer", "0.5", "promotedNetworks", "6"));
    Path f = dir.resolve("round-trip.properties");
    try (var w = Files.newBufferedWriter(f)) {
      ModelFile.toProperties(c).store(w, null);
    }
    assertThat(ModelFile.toProperties(c).stringPropertyNames()).containsExactlyInAnyOrderElementsOf(
        ModelFile.keys(ReportConfig.class));
    assertThat(ReportConfig.load(f)).isEqualTo(c);
  }
}
