package dev.reed.coordinates.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EstimatorModelTest {

  @TempDir
  Path dir;

  @Test
  void aFileRoundTripsAndKeysLeftOutKeepTheirDefaults() throws IOException {
    EstimatorModel m = new EstimatorModel(0.3, 0.012, 0.08, 50, 4, 0.1, 200, Double.POSITIVE_INFINITY);
    Path f = dir.resolve("estimator.properties");
    try (Writer w = Files.newBufferedWriter(f)) {
      m.toProperties().store(w, "test");
    }
    assertThat(EstimatorModel.load(f)).isEqualTo(m);
    assertThat(m.toProperties().stringPropertyNames()).isEqualTo(EstimatorModel.KEYS);
    Files.writeString(f, "# only one key\nquantile = 0.4\n");
    assertThat(EstimatorModel.load(f)).isEqualTo(new EstimatorModel(0.4, 0.01, 0.1, 30, 3, 0.05, 0, 10));
    assertThat(EstimatorModel.of(new Properties())).isEqualTo(EstimatorModel.defaults());
  }

  @Test
  void unknownKeysAndBadValuesNameTheFileAndTheKey() throws IOException {
    Path f = dir.resolve("bad.properties");
    Files.writeString(f, "quantile = 0.5\nslope = 2\n");
    assertThatThrownBy(() -> EstimatorModel.load(f)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(f.toString()).hasMessageContaining("unknown key slope");
    Files.writeString(f, "regionMinPairs = many\n");
    assertThatThrownBy(() -> EstimatorModel.load(f)).hasMessageContaining("regionMinPairs must be a whole number");
    Files.writeString(f, "quantile = NaN\n");
    assertThatThrownBy(() -> EstimatorModel.load(f)).hasMessageContaining("quantile must be in (0, 1)");
    Files.writeString(f, "quantile = 1\n");
    assertThatThrownBy(() -> EstimatorModel.load(f)).hasMessageContaining("quantile must be in (0, 1)");
    Files.writeString(f, "weightStep = 0.3\n");
    assertThatThrownBy(() -> EstimatorModel.load(f)).hasMessageContaining("weightStep must divide 1");
    Files.writeString(f, "locateMarginMs = -1\n");
    assertThatThrownBy(() -> EstimatorModel.load(f)).hasMessageContaining("locateMarginMs must be >= 0");
    Files.writeString(f, "minMsPerKm = 0.2\n");
    assertThatThrownBy(() -> EstimatorModel.load(f)).hasMessageContaining("minMsPerKm < maxMsPerKm");
  }
}
