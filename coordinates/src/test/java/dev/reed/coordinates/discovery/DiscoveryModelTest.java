package dev.reed.coordinates.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiscoveryModelTest {
  @TempDir
  Path dir;

  @Test
  void aFileSetsWhatItNamesAndKeepsTheRest() throws IOException {
    Path f = dir.resolve("model.properties");
    Files.writeString(f, "# fewer calibration probes\ncalibrationProbes = 8\nnear = any\nnearBeaconMaxMs = Infinity\n"
        + "comparison = off\n");
    DiscoveryModel m = DiscoveryModel.load(f);
    assertThat(m.calibrationProbes()).isEqualTo(8);
    assertThat(m.near()).isEqualTo(DiscoveryModel.NearCalibration.ANY);
    assertThat(m.nearBeaconMaxMs()).isInfinite();
    assertThat(m.comparison()).isFalse();
    assertThat(m.kernelMs()).isEqualTo(DiscoveryModel.defaults().kernelMs());
  }

  @Test
  void everyKeyRoundTrips() throws IOException {
    DiscoveryModel m = DiscoveryModel.defaults().withCalibration(12, 5, DiscoveryModel.NearCalibration.ANY).withLearning(false);
    Properties p = m.toProperties();
    assertThat(p.stringPropertyNames()).isEqualTo(DiscoveryModel.KEYS);
    StringWriter w = new StringWriter();
    p.store(w, null);
    Path f = dir.resolve("m.properties");
    Files.writeString(f, w.toString());
    assertThat(DiscoveryModel.load(f)).isEqualTo(m);
  }

  @Test
  void badFilesSayWhatIsWrong() throws IOException {
    Path f = dir.resolve("bad.properties");
    Files.writeString(f, "kernel = 5\n");
    assertThatThrownBy(() -> DiscoveryModel.load(f)).hasMessageContaining("bad.properties").hasMessageContaining("unknown key")
        .hasMessageContaining("kernelMs");
    Files.writeString(f, "calibrationProbes = ten\n");
    assertThatThrownBy(() -> DiscoveryModel.load(f)).hasMessageContaining("calibrationProbes must be a whole number");
    Files.writeString(f, "kernelMs = NaN\n");
    assertThatThrownBy(() -> DiscoveryModel.load(f)).hasMessageContaining("kernelMs");
    Files.writeString(f, "spreadProbes = 20\n");
    assertThatThrownBy(() -> DiscoveryModel.load(f)).hasMessageContaining("spreadProbes");
    Files.writeString(f, "near = closest\n");
    assertThatThrownBy(() -> DiscoveryModel.load(f)).hasMessageContaining("near must be one of [beacons, any]");
  }

  @Test
  void spreadDefaultsToDimensionsPlusTwo() {
    assertThat(DiscoveryModel.defaults().spreadProbes(4)).isEqualTo(6);
    assertThat(DiscoveryModel.defaults().withCalibration(10, 5, DiscoveryModel.NearCalibration.BEACONS).spreadProbes(4)).isEqualTo(5);
    assertThat(DiscoveryModel.defaults().withCalibration(5, 0, DiscoveryModel.NearCalibration.BEACONS).spreadProbes(4)).isEqualTo(5);
  }
}
