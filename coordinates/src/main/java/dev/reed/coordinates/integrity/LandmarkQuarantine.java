package dev.reed.coordinates.integrity;

import dev.reed.coordinates.Stats;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Decides, round by round, which landmarks are quarantined: a landmark whose evidence is an outlier
 * among the landmarks' (median + max(madFactor x 1.4826 x MAD, floor) of the others' values, per
 * signal) for {@code quarantineAfter} consecutive rounds is quarantined; a quarantined one clean for
 * {@code readmitAfter} consecutive rounds is readmitted. A round without evidence about a landmark
 * changes neither count. At most one landmark is quarantined per round, the most deviant, and the
 * others' counts start again (their evidence was taken against an embedding the liar distorted); at
 * most {@code maxQuarantinedFraction} of the landmarks, and never so many that fewer than
 * {@code minRemaining} stay, are quarantined at once.
 *
 * <p>Deterministic for the same inputs (landmarks in id order), so a new leader that starts from the
 * published quarantine set decides as the old one would have. Not thread-safe: one round at a time.
 */
public final class LandmarkQuarantine {
  /**
   * A landmark's state change this round, with the evidence that caused it.
   *
   * @param minimaHonest quarantined with window minima that fit the others' geometry (its mesh,
   *     server and bias residuals within the peers' spread, floors aside): its lie is in its newer
   *     samples (a step, a wide window),
   *     and its minima at this round are the honest baseline {@link QuarantineBaselines} holds;
   *     false for readmissions
   */
  public record Change(String landmarkId, boolean quarantined, String reason, LandmarkEvidence evidence,
      boolean minimaHonest) {}

  /** One round's outcome: who is quarantined now, and what changed. */
  public record Decision(Set<String> quarantined, List<Change> changes, Map<String, String> outliers) {}

  private static final double MAD_TO_SIGMA = 1.4826;

  private final QuarantineConfig config;
  private final Set<String> quarantined = new TreeSet<>();
  private final Map<String, Integer> bad = new HashMap<>();
  private final Map<String, Integer> good = new HashMap<>();

  /** @param alreadyQuarantined the published quarantine set (a new leader continues from it) */
  public LandmarkQuarantine(QuarantineConfig config, Collection<String> alreadyQuarantined) {
    this.config = config;
    quarantined.addAll(alreadyQuarantined);
  }

  public Set<String> quarantined() {
    return Set.copyOf(quarantined);
  }

  /**
   * One round.
   *
   * @param evidence this round's evidence for every landmark in the mesh (quarantined ones too)
   * @param minRemaining landmarks the embedding needs (D+2): never quarantine below it
   */
  public Decision update(Map<String, LandmarkEvidence> evidence, int minRemaining) {
    Map<String, LandmarkEvidence> byId = new TreeMap<>(evidence);
    quarantined.retainAll(byId.keySet()); // a landmark that left the mesh is no longer anyone's concern
    Map<String, String> outliers = new TreeMap<>();
    Map<String, Double> severity = new HashMap<>();
    Set<String> minimaHonest = new TreeSet<>();
    for (String id : byId.keySet()) {
      StringBuilder why = new StringBuilder();
      double worst = 0;
      boolean known = false;
      boolean minimaFit = true;
      for (Signal sig : Signal.values()) {
        double v = sig.value.applyAsDouble(byId.get(id));
        if (Double.isNaN(v) || Double.isInfinite(sig.floor(config))) continue; // unknown, or this signal switched off
        double[] others = byId.entrySet().stream().filter(e -> !e.getKey().equals(id))
            .mapToDouble(e -> sig.value.applyAsDouble(e.getValue())).filter(Double::isFinite).toArray();
        if (others.length < 3) continue;
        known = true;
        double median = Stats.median(others);
        double[] dev = new double[others.length];
        for (int i = 0; i < others.length; i++) dev[i] = Math.abs(others[i] - median);
        double spreadWidth = config.madFactor() * MAD_TO_SIGMA * Stats.median(dev);
        double width = Math.max(spreadWidth, sig.floor(config));
        double excess = (v - median) / width;
        // the floors keep honest landmarks in; whether the minima fit is judged by the peers' spread alone
        if (sig.fromMinima && v > median + spreadWidth) minimaFit = false;
        if (excess > 1) {
          if (!why.isEmpty()) why.append("; ");
          why.append(String.format(Locale.ROOT, "%s %.3f > limit %.3f (others' median %.3f)", sig.label, v,
              median + width, median));
          worst = Math.max(worst, excess);
        }
      }
      if (!known) continue;
      if (worst > 0) {
        if (minimaFit) minimaHonest.add(id);
        outliers.put(id, why.toString());
        severity.put(id, worst);
        bad.merge(id, 1, Integer::sum);
        good.put(id, 0);
      } else {
        good.merge(id, 1, Integer::sum);
        bad.put(id, 0);
      }
    }
    List<Change> changes = new ArrayList<>();
    for (String id : List.copyOf(quarantined)) {
      if (good.getOrDefault(id, 0) >= config.readmitAfter()) {
        quarantined.remove(id);
        changes.add(new Change(id, false, "consistent for " + good.get(id) + " rounds", byId.get(id), false));
      }
    }
    int cap = Math.min((int) Math.floor(config.maxQuarantinedFraction() * byId.size()), byId.size() - minRemaining);
    List<String> due = byId.keySet().stream()
        .filter(id -> !quarantined.contains(id) && bad.getOrDefault(id, 0) >= config.quarantineAfter())
        .sorted(Comparator.comparingDouble((String id) -> -severity.getOrDefault(id, 0.0)).thenComparing(id -> id))
        .toList();
    if (!due.isEmpty() && quarantined.size() < cap) {
      // one at a time, the most deviant first: a liar distorts the embedding and the server positions the
      // others are judged by, so an honest landmark next to it can look bad too; judged again without the
      // liar, it is clean (LyingLandmarkTest: random RTTs made an honest Asian landmark an outlier as well)
      String id = due.getFirst();
      quarantined.add(id);
      changes.add(new Change(id, true, "outlier for " + bad.get(id) + " rounds: " + outliers.get(id), byId.get(id),
          minimaHonest.contains(id)));
      for (String other : byId.keySet()) if (!quarantined.contains(other)) bad.put(other, 0);
    }
    return new Decision(Set.copyOf(quarantined), List.copyOf(changes), outliers);
  }

  private enum Signal {
    MESH("mesh error", LandmarkEvidence::meshError, true),
    SERVER("server error", LandmarkEvidence::serverError, true),
    SPREAD("window spread", LandmarkEvidence::spread, false),
    STEP("step (ms)", LandmarkEvidence::step, false),
    RELATIVE_STEP("relative step", LandmarkEvidence::relativeStep, false),
    BIAS("bias (ms)", LandmarkEvidence::bias, true);

    final String label;
    final ToDoubleFunction<LandmarkEvidence> value;
    /** Taken from the window minima: an outlier here means the minima themselves lie. */
    final boolean fromMinima;

    Signal(String label, ToDoubleFunction<LandmarkEvidence> value, boolean fromMinima) {
      this.label = label;
      this.value = value;
      this.fromMinima = fromMinima;
    }

    double floor(QuarantineConfig c) {
      return switch (this) {
        case MESH, SERVER -> c.residualFloor();
        case SPREAD -> c.spreadFloor();
        case STEP -> c.stepFloorMs();
        case RELATIVE_STEP -> c.relativeStepFloor();
        case BIAS -> c.biasFloorMs();
      };
    }
  }
}
