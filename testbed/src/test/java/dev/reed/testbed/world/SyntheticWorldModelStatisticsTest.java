package dev.reed.testbed.world;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Checks that the synthetic world's default parameters give statistics in the documented bands
 * around the PlanetLab 490-node matrix (testbed/README.md, "Synthetic world vs PlanetLab").
 */
class SyntheticWorldModelStatisticsTest {
  static final int TRIANGLES = 300_000;

  static Path planetLab() {
    return Path.of(System.getProperty("reed.data.dir", "../data"), "planetlab490_netlatency", "matrix.csv");
  }

  @Test
  void defaultWorldResemblesPlanetLab() throws Exception {
    Path matrix = planetLab();
    assertThat(matrix).as("the PlanetLab matrix (data/README.md; -Dreed.data.dir)").isRegularFile();
    WorldStatistics pl = WorldStatistics.of(MatrixModel.load(matrix), TRIANGLES, 1);
    var b = SyntheticWorldModel.builder(2026);
    b.addGameServers(490);
    WorldStatistics syn = WorldStatistics.of(b.build(), TRIANGLES, 1);
    System.out.println("PlanetLab: " + pl);
    System.out.println("synthetic: " + syn);
    // the bands documented in testbed/README.md
    assertThat(syn.median()).isBetween(0.85 * pl.median(), 1.15 * pl.median());
    assertThat(syn.p95()).isBetween(0.85 * pl.p95(), 1.15 * pl.p95());
    assertThat(syn.p25()).isBetween(0.6 * pl.p25(), 1.4 * pl.p25());
    assertThat(syn.p5()).isBetween(0.5 * pl.p5(), 1.5 * pl.p5());
    assertThat(syn.tivFraction()).isBetween(0.5 * pl.tivFraction(), 2.0 * pl.tivFraction());
  }
}
