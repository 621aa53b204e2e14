package dev.reed.eval;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.integrity.QuarantineConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The lying-landmark check alone (no clients) over many seeds, for tuning {@link QuarantineConfig}:
 * detection rounds, whether the liar is still out after 24 rounds of lying (three windows) and false
 * quarantines per matrix and attack, in seconds where the full eval takes
 * minutes (docs/research/host-integrity-landmarks.md).
 *
 * <pre>
 * ./reed bench eval dev.reed.eval.LyingLandmarkHarness data/seattle99_netlatency none 10 [MAD RESIDUAL_FLOOR SPREAD_FLOOR]
 * </pre>
 */
public final class LyingLandmarkHarness {
  private LyingLandmarkHarness() {}

  public static void main(String[] a) throws Exception {
    if (a.length != 3 && a.length != 6) {
      System.err.println("usage: LyingLandmarkHarness MATRIX_DIR none|shift30|random SEEDS [MAD RESIDUAL_FLOOR SPREAD_FLOOR]");
      System.exit(2);
    }
    RttMatrix m = RttMatrix.load(Path.of(a[0], "matrix.csv"), null);
    LyingLandmarks.Attack attack = LyingLandmarks.Attack.parse(a[1]);
    int seeds = Integer.parseInt(a[2]);
    QuarantineConfig d = QuarantineConfig.defaults();
    QuarantineConfig q = a.length == 3 ? d : new QuarantineConfig(Double.parseDouble(a[3]), Double.parseDouble(a[4]),
        Double.parseDouble(a[5]), d.quarantineAfter(), d.readmitAfter(), d.maxQuarantinedFraction(), d.maxServers(),
        d.minServers());
    CoordinateConfig cfg = CoordinateConfig.defaults();
    LyingLandmarks.Settings s = new LyingLandmarks.Settings(attack, true, 8, 24, q);
    int falseTotal = 0;
    List<Integer> rounds = new ArrayList<>();
    for (long seed = 1; seed <= seeds; seed++) {
      LyingLandmarks.Outcome o = new LyingLandmarks(s, cfg).simulate(m, LandmarkStrategy.KMEDOIDS.choose(m, 15, seed, 30), seed);
      falseTotal += o.falseQuarantines();
      if (o.detectedAfter() > 0) rounds.add(o.detectedAfter());
      System.out.println("seed " + seed + ": " + new LyingLandmarks(s, cfg).describe(o));
    }
    System.out.printf(Locale.ROOT, "%s %s, %d seeds, %s: honest landmarks quarantined %d; liar quarantined in %d, after rounds %s%n",
        a[0], a[1], seeds, q, falseTotal, rounds.size(), rounds);
  }
}
