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
/**
 * REED with locations in the evaluator: on a located world where each host has its own
 * access delay and the client locations carry GeoIP-like error, REED (calibrated, the simulated
 * coordinator's fused order, the location fix) beats noisy geo distance, and beats itself without
 * locations; its zero-probe ranking beats geo distance too.
 */
class LocatedReedTest {

  @TempDir
  Path dir;

  private Path[] accessDelayWorld(int n) throws IOException {
    return BaselinesTest.locatedWorld(dir, n, 0, 25);
  }

  @Test
  void locationsLiftReedAboveNoisyGeoDistanceAndItself() throws IOException {
    Path[] w = accessDelayWorld(70);
    String[] args = {"--matrix", w[1].toString(), "--nodes", w[0].toString(), "--landmarks", "10", "--dimensions", "3", "--seeds",
        "2", "--threads", "2", "--geo-error", "geoip:300:1000:0.1"};
    JsonObject with = run(args, "with");
    Path off = dir.resolve("off.properties");
    Files.writeString(off, "geo = false\n");
    JsonObject without = run(concat(args, "--model", off.toString()), "without");
    double noisy = with.getAsJsonObject("geoNoisy").get("precisionAt10").getAsDouble();
    JsonObject reed = with.getAsJsonObject("reed");
    JsonObject zero = with.getAsJsonObject("fusedZero");
    assertThat(reed.get("precisionAt10").getAsDouble()).isGreaterThan(noisy + 0.1)
        .isGreaterThan(without.getAsJsonObject("reed").get("precisionAt10").getAsDouble() + 0.05);
    assertThat(zero.get("precisionAt10").getAsDouble()).isGreaterThan(noisy);
    assertThat(zero.get("calibrationProbes").getAsDouble()).isZero();
  }

  private JsonObject run(String[] args, String name) throws IOException {
    Path out = dir.resolve(name);
    EvalCommandTest.Run r = EvalCommandTest.run(concat(args, "--out", out.toString()));
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("seed 1 fused estimator: ", "cross-validated error");
    return JsonParser.parseString(Files.readString(out.resolve("results.json"))).getAsJsonObject().getAsJsonObject("baselines");
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void aBadEstimatorFileIsAClearError() throws IOException {
    Path[] w = accessDelayWorld(30);
    Path bad = dir.resolve("bad.properties");
    Files.writeString(bad, "quantil = 0.5\n");
    EvalCommandTest.Run r = EvalCommandTest.run("--matrix", w[1].toString(), "--nodes", w[0].toString(), "--landmarks",
        "8", "--dimensions", "3", "--estimator", bad.toString(), "--out", dir.resolve("o").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--estimator", "unknown key quantil");
    r = EvalCommandTest.run("--matrix", w[1].toString(), "--estimator", dir.resolve("none").toString(), "--out",
        dir.resolve("o").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("no such file");
  }
}
