package dev.reed.eval;

import com.google.gson.GsonBuilder;
import dev.reed.coordinates.integrity.IntegrityKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Runs an {@link IntegrityStudy}, prints its summary and writes {@code integrity.json}. */
final class IntegrityOutput {
  private final RttMatrix m;
  private final Path out;
  private final PrintWriter err;

  IntegrityOutput(RttMatrix m, Path out, PrintWriter err) {
    this.m = m;
    this.out = out;
    this.err = err;
  }

  int run(IntegrityStudy.Settings s) throws IOException {
    long t0 = System.nanoTime();
    List<IntegrityStudy.SeedResult> seeds = new IntegrityStudy(m, s).run();
    int servers = 0, honest = 0, honestFlagged = 0, attackers = 0, attackersFlagged = 0, attackersNamed = 0;
    IntegrityKind named = switch (s.attack()) {
      case ANYCAST -> IntegrityKind.ANYCAST;
      case PROXY -> IntegrityKind.PROXY;
      case NONE -> null;
    };
    double clean = 0, include = 0, demote = 0, hide = 0;
    for (IntegrityStudy.SeedResult r : seeds) {
      err.printf(Locale.ROOT, "eval: integrity seed %d: %d servers, honest flagged %d %s, attackers flagged %d of %d %s,"
              + " P@10 clean %.3f include %.3f demote %.3f hide %.3f%n", r.seed(), r.servers(), r.honestFlagged(),
          r.honestKinds(), r.attackersFlagged(), r.attackers(), r.attackerKinds(), r.p10Clean(), r.p10Include(),
          r.p10Demote(), r.p10Hide());
      servers += r.servers();
      honest += r.servers() - r.attackers();
      honestFlagged += r.honestFlagged();
      attackers += r.attackers();
      attackersFlagged += r.attackersFlagged();
      if (named != null) attackersNamed += r.attackerKinds().getOrDefault(named, 0);
      clean += r.p10Clean();
      include += r.p10Include();
      demote += r.p10Demote();
      hide += r.p10Hide();
    }
    int k = seeds.size();
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("matrix", m.size() + " nodes");
    summary.put("config", s.integrity().toString());
    summary.put("attack", s.attack().name().toLowerCase(Locale.ROOT));
    summary.put("attackShare", s.attack() == IntegrityStudy.Attack.NONE ? 0 : s.share());
    summary.put("landmarks", s.landmarks());
    summary.put("seeds", k);
    summary.put("serverChecks", servers);
    summary.put("falseAlarmRate", honestFlagged / (double) honest);
    summary.put("honestFlagged", honestFlagged);
    summary.put("detectionRate", attackers == 0 ? Double.NaN : attackersFlagged / (double) attackers);
    // of the attackers flagged, those the reply digests name for what they are (ANYCAST, PROXY)
    summary.put("namedRate", attackersFlagged == 0 ? Double.NaN : attackersNamed / (double) attackersFlagged);
    summary.put("p10Clean", clean / k);
    summary.put("p10Include", include / k);
    summary.put("p10Demote", demote / k);
    summary.put("p10Hide", hide / k);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("summary", summary);
    json.put("seeds", seeds);
    Files.writeString(out.resolve("integrity.json"),
        new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(json),
        StandardCharsets.UTF_8);
    err.printf(Locale.ROOT, "eval: integrity done in %.1f s (%s, %d landmarks, %d seeds): false alarms %d of %d honest"
            + " (%.2f %%)%s; P@10 of honest clients: no attack %.3f, attack included %.3f, demoted %.3f, hidden %.3f;"
            + " wrote %s%n",
        (System.nanoTime() - t0) / 1e9, s.integrity(), s.landmarks(), k, honestFlagged, honest,
        100.0 * honestFlagged / honest,
        attackers == 0 ? "" : String.format(Locale.ROOT, ", %s attackers detected %d of %d (%.1f %%), named %s %d of those",
            s.attack().name().toLowerCase(Locale.ROOT), attackersFlagged, attackers, 100.0 * attackersFlagged / attackers,
            named.name().toLowerCase(Locale.ROOT), attackersNamed),
        clean / k, include / k, demote / k, hide / k, out.resolve("integrity.json"));
    err.flush();
    return 0;
  }
}
