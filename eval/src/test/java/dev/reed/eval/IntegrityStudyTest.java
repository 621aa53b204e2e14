package dev.reed.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.integrity.IntegrityConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host integrity check's budgets on the measured matrices (skipped when absent): false alarms,
 * detection of anycast and proxy liars, and honest clients' P@10 with the liars demoted, as
 * eval/README.md and docs/research/host-integrity.md report them (3 seeds here, 10 there).
 */
@Tag("integration")
class IntegrityStudyTest {
  @TempDir
  Path dir;

  private static IntegrityStudy study(Path matrix, IntegrityStudy.Attack attack) throws Exception {
    Path nodes = matrix.resolveSibling("nodes.csv");
    RttMatrix m = RttMatrix.load(matrix, Files.isRegularFile(nodes) ? nodes : null);
    return new IntegrityStudy(m, new IntegrityStudy.Settings(IntegrityConfig.defaults(), attack, 0.05,
        CoordinateConfig.defaults(), 15, LandmarkStrategy.KMEDOIDS, 30, 1, 3, 100));
  }

  private static double rate(List<IntegrityStudy.SeedResult> r, boolean attackers) {
    double hit = 0;
    double all = 0;
    for (IntegrityStudy.SeedResult s : r) {
      hit += attackers ? s.attackersFlagged() : s.honestFlagged();
      all += attackers ? s.attackers() : s.servers() - s.attackers();
    }
    return hit / all;
  }

  private static double mean(List<IntegrityStudy.SeedResult> r, java.util.function.ToDoubleFunction<IntegrityStudy.SeedResult> f) {
    return r.stream().mapToDouble(f).average().orElseThrow();
  }

  @Test
  void planetlab490FewFalseAlarmsMostLiarsCaughtAndDemotingKeepsTheRanking() throws Exception {
    Path matrix = Matrices.matrix("planetlab490_netlatency");
    assertThat(rate(study(matrix, IntegrityStudy.Attack.NONE).run(), false)).isLessThan(0.002);
    List<IntegrityStudy.SeedResult> anycast = study(matrix, IntegrityStudy.Attack.ANYCAST).run();
    assertThat(rate(anycast, true)).isGreaterThan(0.85);
    List<IntegrityStudy.SeedResult> proxy = study(matrix, IntegrityStudy.Attack.PROXY).run();
    assertThat(rate(proxy, true)).isGreaterThan(0.7);
    for (List<IntegrityStudy.SeedResult> r : List.of(anycast, proxy)) {
      double clean = mean(r, IntegrityStudy.SeedResult::p10Clean);
      assertThat(mean(r, IntegrityStudy.SeedResult::p10Demote)).isCloseTo(clean, org.assertj.core.data.Offset.offset(0.02));
      // the liars do harm when included: what the check is for
      assertThat(mean(r, IntegrityStudy.SeedResult::p10Include)).isLessThan(mean(r, IntegrityStudy.SeedResult::p10Demote));
    }
  }

  @Test
  void seattle99AndAzure54FalseAlarmsStayWhereTheReadmeSays() throws Exception {
    assertThat(rate(study(Matrices.matrix("seattle99_netlatency"), IntegrityStudy.Attack.NONE).run(), false))
        .isLessThan(0.02);
    assertThat(rate(study(Matrices.matrix("azure54_latency"), IntegrityStudy.Attack.NONE).run(), false))
        .isZero();
  }

  @Test
  void theCommandWritesIntegrityJsonAndRejectsBadInput() throws Exception {
    Path m = EvalCommandTest.smallMatrix(dir, 60);
    Path out = dir.resolve("out");
    EvalCommandTest.Run r = EvalCommandTest.run("--matrix", m.toString(), "--landmarks", "10", "--dimensions", "3", "--seeds",
        "2", "--integrity", "--attack", "anycast", "--attack-share", "0.1", "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("integrity seed 1:").contains("anycast attackers detected");
    String json = Files.readString(out.resolve("integrity.json"));
    assertThat(json).contains("\"falseAlarmRate\"").contains("\"detectionRate\"").contains("\"p10Demote\"");
    assertThat(EvalCommandTest.run("--matrix", m.toString(), "--integrity", "--attack", "bogus", "--out",
        out.toString()).err()).contains("--attack must be none, anycast or proxy, got bogus");
    assertThat(EvalCommandTest.run("--matrix", m.toString(), "--integrity", "--attack-share", "0.9", "--out",
        out.toString()).code()).isEqualTo(2);
    Path settings = Files.writeString(out.resolveSibling("nope.properties"), "nope = 1\n");
    assertThat(EvalCommandTest.run("--matrix", m.toString(), "--integrity", "--integrity-config", settings.toString(),
        "--out", out.toString()).err()).contains("--integrity-config " + settings + ": unknown key nope; allowed:");
  }
}
