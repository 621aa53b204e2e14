package dev.reed.eval;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fused estimator's rows through the command, on a small located world where geography alone
 * is not enough: every host has its own access delay (0-25 ms) on top of a line of distance, and
 * the GeoIP error is large. The fused estimator learns each server's delay from the landmarks'
 * RTTs, so it must order better than great-circle distance from the noisy location.
 */
class FusedOrderTest {

  @TempDir
  Path dir;

  private Path[] accessDelayWorld(int n) throws IOException {
    return BaselinesTest.locatedWorld(dir, n, 0, 25);
  }

  @Test
  void theFusedRowsBeatNoisyGeoDistance() throws IOException {
    Path[] w = accessDelayWorld(70);
    Path out = dir.resolve("out");
    EvalCommandTest.Run r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", w[0].toString(), "--landmarks",
        "10", "--dims", "3", "--seeds", "2", "--threads", "2", "--geo-error", "geoip:300:1000:0.1", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("seed 1 fused estimator: ", "cross-validated error");
    JsonObject b = JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject()
        .getAsJsonObject("baselines");
    double noisy = b.getAsJsonObject("geoNoisy").get("precisionAt10").getAsDouble();
    JsonObject fused = b.getAsJsonObject("fused");
    JsonObject zero = b.getAsJsonObject("fusedZero");
    assertThat(fused.get("precisionAt10").getAsDouble()).isGreaterThan(noisy + 0.1);
    assertThat(zero.get("precisionAt10").getAsDouble()).isGreaterThan(noisy);
    // the calibrated row reuses REED's calibration, counted; the prior alone probes nothing
    assertThat(fused.get("calibrationProbes").getAsDouble())
        .isEqualTo(b.getAsJsonObject("reed").get("calibrationProbes").getAsDouble());
    assertThat(zero.get("calibrationProbes").getAsDouble()).isZero();
    assertThat(b.getAsJsonObject("fused5").get("calibrationProbes").getAsDouble()).isEqualTo(5);
    assertThat(fused.get("relErrMedian").getAsDouble()).isLessThan(b.getAsJsonObject("geoNoisy").get("relErrMedian")
        .getAsDouble());
  }

  @Test
  void aBadEstimatorFileIsAClearError() throws IOException {
    Path[] w = accessDelayWorld(30);
    Path bad = dir.resolve("bad.properties");
    Files.writeString(bad, "quantil = 0.5\n");
    EvalCommandTest.Run r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", w[0].toString(), "--landmarks",
        "8", "--dims", "3", "--estimator", bad.toString(), "--out", dir.resolve("o").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--estimator", "unknown estimator key(s) [quantil]");
    r = EvalCommandTest.run("--matrix", w[1].toString(), "--estimator", dir.resolve("none").toString(), "--out",
        dir.resolve("o").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("no such file");
  }
}
