package dev.reed.eval;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkEmbedder;
import dev.reed.coordinates.integrity.LandmarkEvidence;
import dev.reed.coordinates.integrity.LandmarkQuarantine;
import dev.reed.coordinates.integrity.LandmarkResiduals;
import dev.reed.coordinates.integrity.QuarantineBaselines;
import dev.reed.coordinates.integrity.QuarantineConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * A lying landmark on a measured matrix: the deployment's landmark rounds are simulated
 * as the coordinator sees them (per pair a window of the last W rounds' samples, its minimum and its
 * spread; the mesh entry the minimum of both directions' windows), with one landmark lying from
 * round {@code honestRounds + 1} on, and the coordinator's check ({@link LandmarkResiduals},
 * {@link LandmarkQuarantine}, the same classes) judges every round. What the seed's deployment then
 * embeds and positions from are the final windows' minima, without the quarantined landmarks.
 *
 * <p>The matrix holds one RTT per pair; a sample is that RTT plus queueing delay, exponential with
 * mean {@code 0.5 ms + 2 %} of the RTT (a modelling choice, not a measurement: the residual checks
 * are judged on the matrices' real geometry, the spread check on this jitter).
 */
final class LyingLandmarks {
  /**
   * What the liar does to each of its samples, mesh included.
   *
   * @param amount the offset in ms ({@link Kind#OFFSET}) or the factor ({@link Kind#SCALE}); 0 otherwise
   */
  record Attack(Kind kind, double amount) {
    enum Kind {
      /** Nobody lies: the false-quarantine runs. */
      NONE,
      /** +30 ms on each sample with probability 1/2 (a liar adding 30 ms to half its samples). */
      SHIFT30,
      /** A uniformly random RTT of 1-400 ms. */
      RANDOM,
      /** A patient liar: the same number of ms added to every sample. */
      OFFSET,
      /** A patient liar: every sample multiplied by the same factor. */
      SCALE
    }

    static final Attack NONE = new Attack(Kind.NONE, 0);

    static Attack parse(String s) {
      String usage = "--lying-landmark must be none, shift30, random, offset:MS or scale:X, got '" + s + "'";
      try {
        if (s.startsWith("offset:")) {
          double ms = Double.parseDouble(s.substring(7));
          if (ms > 0 && ms < 1000) return new Attack(Kind.OFFSET, ms);
        } else if (s.startsWith("scale:")) {
          double x = Double.parseDouble(s.substring(6));
          if (x > 1 && x < 10) return new Attack(Kind.SCALE, x);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(usage);
      }
      return switch (s) {
        case "none" -> NONE;
        case "shift30" -> new Attack(Kind.SHIFT30, 0);
        case "random" -> new Attack(Kind.RANDOM, 0);
        default -> throw new IllegalArgumentException(usage + " (offset in ms within 0-1000, scale factor within 1-10)");
      };
    }

    String name() {
      return switch (kind) {
        case OFFSET -> String.format(Locale.ROOT, "offset:%s", amount);
        case SCALE -> String.format(Locale.ROOT, "scale:%s", amount);
        default -> kind.name().toLowerCase(Locale.ROOT);
      };
    }
  }

  /**
   * @param attack null = no simulation (the plain evaluation)
   * @param quarantine apply the coordinator's quarantine (false: the check runs and is reported, the
   *     liar stays an anchor)
   * @param honestRounds rounds before the liar starts (its window is full of honest samples then)
   * @param attackRounds rounds of lying
   */
  record Settings(Attack attack, boolean quarantine, int honestRounds, int attackRounds, QuarantineConfig config) {
    static final Settings OFF = new Settings(null, true, 8, 12, QuarantineConfig.defaults());

    boolean on() {
      return attack != null;
    }
  }

  /**
   * @param liar the lying landmark's node, -1 for none
   * @param detectedAfter attack rounds until it was quarantined (1-based), -1 = never
   * @param falseQuarantines honest landmarks quarantined at any round
   * @param anchors landmark nodes the deployment embeds (all but the quarantined)
   * @param mesh their RTTs (window minima, both directions)
   * @param rtt {@code [node][anchor]} window minima (0 for the anchor itself)
   * @param falseReasons why each honest landmark was quarantined (the check's own words)
   */
  record Outcome(int liar, int detectedAfter, int falseQuarantines, int[] anchors, double[][] mesh, double[][] rtt,
      List<String> falseReasons) {}

  private static final int W = 8;
  private static final double MAX_RANDOM_MS = 400;

  private final Settings settings;
  private final CoordinateConfig cfg;

  LyingLandmarks(Settings settings, CoordinateConfig cfg) {
    this.settings = settings;
    this.cfg = cfg;
  }

  Outcome simulate(RttMatrix m, int[] lm, long seed) {
    int n = m.size();
    int l = lm.length;
    SplittableRandom rnd = new SplittableRandom(seed * 31 + 18);
    int liarK = settings.attack().kind() == Attack.Kind.NONE ? -1 : (int) Math.floorMod(seed, (long) l);
    boolean[] isLm = new boolean[n];
    for (int k : lm) isLm[k] = true;
    List<Integer> nodes = new ArrayList<>();
    for (int v = 0; v < n; v++) if (!isLm[v]) nodes.add(v);
    // the coordinator's deterministic server sample
    List<Integer> sample = new ArrayList<>(nodes);
    java.util.Collections.shuffle(sample, new java.util.Random(seed));
    sample = sample.subList(0, Math.min(sample.size(), settings.config().maxServers()));
    double[][][] win = new double[n][l][W];
    double[][][] meshWin = new double[l][l][W];
    List<String> ids = new ArrayList<>();
    for (int k = 0; k < l; k++) ids.add(Integer.toString(lm[k]));
    LandmarkResiduals residuals = new LandmarkResiduals(new HostPositioner(cfg), settings.config());
    LandmarkQuarantine quarantine = new LandmarkQuarantine(settings.config(), Set.of());
    QuarantineBaselines baselines = new QuarantineBaselines();
    List<String> servers = sample.stream().map(v -> Integer.toString(v)).toList();
    Set<String> ever = new TreeSet<>();
    List<String> falseReasons = new ArrayList<>();
    int detected = -1;
    int rounds = settings.honestRounds() + settings.attackRounds();
    for (int r = 0; r < rounds; r++) {
      boolean lying = r >= settings.honestRounds();
      int slot = r % W;
      for (int v = 0; v < n; v++) {
        for (int k = 0; k < l; k++) {
          if (lm[k] == v) continue;
          win[v][k][slot] = sample(m.rtt(lm[k], v), lying && k == liarK, rnd);
        }
      }
      for (int k = 0; k < l; k++) {
        for (int j = 0; j < l; j++) if (j != k) meshWin[k][j][slot] = sample(m.rtt(lm[k], lm[j]), lying && k == liarK, rnd);
      }
      int filled = Math.min(r + 1, W);
      double[][] mesh = mesh(meshWin, filled);
      Set<String> out = settings.quarantine() ? quarantine.quarantined() : Set.of();
      List<Integer> kept = new ArrayList<>();
      for (int k = 0; k < l; k++) if (!out.contains(ids.get(k))) kept.add(k);
      List<Coordinate> emb = new LandmarkEmbedder(cfg, new SplittableRandom(seed)).embed(sub(mesh, kept), null).coordinates();
      Map<String, Coordinate> trusted = new HashMap<>();
      for (int a = 0; a < kept.size(); a++) trusted.put(ids.get(kept.get(a)), emb.get(a));
      double[][] min = new double[sample.size()][l];
      double[][] spread = new double[sample.size()][l];
      double[][] newest = new double[sample.size()][l];
      for (int s = 0; s < sample.size(); s++) {
        for (int k = 0; k < l; k++) {
          double[] w = win[sample.get(s)][k];
          newest[s][k] = w[slot];
          min[s][k] = min(w, filled);
          spread[s][k] = LandmarkResiduals.spread(finite(w, filled), count(w, filled));
        }
      }
      Map<String, LandmarkEvidence> evidence = residuals.measure(ids, mesh, trusted, baselines.minima(ids, servers, min),
          spread, newest);
      LandmarkQuarantine.Decision decision = quarantine.update(evidence, cfg.dimensions() + 2);
      baselines.update(ids, servers, min, decision);
      Set<String> now = decision.quarantined();
      for (LandmarkQuarantine.Change c : decision.changes()) {
        if (c.quarantined() && (liarK < 0 || !c.landmarkId().equals(ids.get(liarK)))) {
          falseReasons.add("round " + (r + 1) + " node " + c.landmarkId() + ": " + c.reason());
        }
      }
      for (String id : now) if (liarK < 0 || !id.equals(ids.get(liarK))) ever.add(id);
      if (lying && detected < 0 && liarK >= 0 && now.contains(ids.get(liarK))) detected = r - settings.honestRounds() + 1;
    }
    int filled = Math.min(rounds, W);
    Set<String> out = settings.quarantine() ? quarantine.quarantined() : Set.of();
    List<Integer> kept = new ArrayList<>();
    for (int k = 0; k < l; k++) if (!out.contains(ids.get(k))) kept.add(k);
    int[] anchors = kept.stream().mapToInt(k -> lm[k]).toArray();
    double[][] rtt = new double[n][kept.size()];
    for (int v = 0; v < n; v++) {
      for (int a = 0; a < kept.size(); a++) {
        int k = kept.get(a);
        rtt[v][a] = lm[k] == v ? 0 : isLm[v] ? meshMin(meshWin, k, indexOf(lm, v), filled) : min(win[v][k], filled);
      }
    }
    return new Outcome(liarK < 0 ? -1 : lm[liarK], detected, ever.size(), anchors, sub(mesh(meshWin, filled), kept), rtt,
        List.copyOf(falseReasons));
  }

  String describe(Outcome o) {
    return String.format(Locale.ROOT, "lying landmark %s: %s, quarantine %s: %s; honest landmarks quarantined: %d",
        settings.attack().name(), o.liar() < 0 ? "none" : "node " + o.liar(),
        settings.quarantine() ? "on" : "off",
        o.liar() < 0 ? "-" : o.detectedAfter() < 0 ? "not detected in " + settings.attackRounds() + " rounds"
            : "quarantined after " + o.detectedAfter() + " rounds" + (stillOut(o) ? ", still out after "
                : ", readmitted before the end of ") + settings.attackRounds() + " rounds of lying", o.falseQuarantines())
        + (o.falseReasons().isEmpty() ? "" : "\n  " + String.join("\n  ", o.falseReasons()));
  }

  private static boolean stillOut(Outcome o) {
    for (int a : o.anchors()) if (a == o.liar()) return false;
    return true;
  }

  private double sample(double truth, boolean lie, SplittableRandom rnd) {
    if (!Double.isFinite(truth)) return Double.NaN;
    double honest = truth - (0.5 + 0.02 * truth) * Math.log(1 - rnd.nextDouble());
    if (!lie) return honest;
    return switch (settings.attack().kind()) {
      case NONE -> honest;
      case SHIFT30 -> rnd.nextBoolean() ? honest + 30 : honest;
      case RANDOM -> rnd.nextDouble(1, MAX_RANDOM_MS);
      case OFFSET -> honest + settings.attack().amount();
      case SCALE -> honest * settings.attack().amount();
    };
  }

  private static double[][] mesh(double[][][] meshWin, int filled) {
    int l = meshWin.length;
    double[][] d = new double[l][l];
    for (int i = 0; i < l; i++) for (int j = 0; j < l; j++) d[i][j] = i == j ? 0 : meshMin(meshWin, i, j, filled);
    return d;
  }

  private static double meshMin(double[][][] meshWin, int i, int j, int filled) {
    return Math.min(min(meshWin[i][j], filled), min(meshWin[j][i], filled));
  }

  private static double[][] sub(double[][] d, List<Integer> kept) {
    double[][] s = new double[kept.size()][kept.size()];
    for (int a = 0; a < kept.size(); a++) for (int b = 0; b < kept.size(); b++) s[a][b] = d[kept.get(a)][kept.get(b)];
    return s;
  }

  private static double min(double[] w, int filled) {
    double m = Double.NaN;
    for (int i = 0; i < filled; i++) if (Double.isFinite(w[i]) && !(w[i] >= m)) m = w[i];
    return m;
  }

  private static int count(double[] w, int filled) {
    int c = 0;
    for (int i = 0; i < filled; i++) if (Double.isFinite(w[i])) c++;
    return c;
  }

  private static double[] finite(double[] w, int filled) {
    double[] f = new double[filled];
    int c = 0;
    for (int i = 0; i < filled; i++) if (Double.isFinite(w[i])) f[c++] = w[i];
    return f;
  }

  private static int indexOf(int[] a, int v) {
    for (int i = 0; i < a.length; i++) if (a[i] == v) return i;
    return -1;
  }
}
