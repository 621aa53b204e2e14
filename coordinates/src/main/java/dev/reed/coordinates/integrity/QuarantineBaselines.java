package dev.reed.coordinates.integrity;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The window minima a landmark had when it was quarantined, held as the baseline of its step
 * signals while it stays quarantined.
 *
 * <p>Why: the step signals ({@link LandmarkEvidence#step()}) compare a landmark's newest RTT with
 * its window minimum. A landmark that keeps adding a constant (or a proportion) to every sample
 * fills its window with lies within W rounds; its minimum then carries the lie, its step falls to
 * its jitter, and {@link LandmarkQuarantine} readmitted it {@code readmitAfter} rounds later, lying
 * as before. Held from the round it was quarantined (when its window still held honest samples),
 * the baseline keeps the lie in its step for as long as it lies; a landmark that stops lying
 * returns to its held minima and is readmitted as before. Only minima that fit the other
 * landmarks' geometry at the quarantine are held: a landmark quarantined for minima that lie
 * themselves (random RTTs, some below the truth) is judged by its window as before. A baseline is held for at most
 * {@link #HOLD_ROUNDS} rounds: a quarantined landmark whose paths really changed (a new route, a
 * moved VM) is then judged by its window again, so it cannot stay out for ever on old figures.
 *
 * <p>Not thread-safe: one round at a time, beside the {@link LandmarkQuarantine} it follows. Held
 * in memory only: a new leader starts from the published quarantine set without baselines.
 */
public final class QuarantineBaselines {
  /**
   * Rounds a baseline is held: 36, three hours at the agents' 5-minute round, long past the alert
   * an operator gets on the quarantine (docs/runbook.md).
   */
  public static final int HOLD_ROUNDS = 36;

  private record Held(Map<String, Double> minimaMs, int age) {}

  private final Map<String, Held> held = new HashMap<>();

  /**
   * The minima to judge this round by: {@code windowMinimaMs}, with each held landmark's column
   * lowered to its held minimum where that is lower. A copy; the argument is not changed.
   *
   * @param ids the landmarks, columns of {@code windowMinimaMs}
   * @param servers the sampled servers' keys, rows of {@code windowMinimaMs}
   * @param windowMinimaMs {@code [server][landmark]} window minima (ms, NaN or 0 = none)
   */
  public double[][] minima(List<String> ids, List<String> servers, double[][] windowMinimaMs) {
    double[][] out = new double[windowMinimaMs.length][];
    for (int s = 0; s < out.length; s++) out[s] = windowMinimaMs[s].clone();
    if (held.isEmpty()) return out;
    for (int k = 0; k < ids.size(); k++) {
      Held h = held.get(ids.get(k));
      if (h == null) continue;
      for (int s = 0; s < out.length; s++) {
        Double base = h.minimaMs().get(servers.get(s));
        if (base != null && (!(out[s][k] > 0) || base < out[s][k])) out[s][k] = base;
      }
    }
    return out;
  }

  /**
   * After the round's decision: holds the minima of the landmarks quarantined in it for a
   * {@linkplain LandmarkQuarantine.Change#minimaHonest() step in its samples}, forgets the readmitted
   * ones and those held {@link #HOLD_ROUNDS} rounds.
   *
   * @param windowMinimaMs the round's window minima, as given to {@link #minima}
   */
  public void update(List<String> ids, List<String> servers, double[][] windowMinimaMs, LandmarkQuarantine.Decision decision) {
    held.replaceAll((id, h) -> new Held(h.minimaMs(), h.age() + 1));
    held.values().removeIf(h -> h.age() >= HOLD_ROUNDS);
    for (LandmarkQuarantine.Change c : decision.changes()) {
      if (!c.quarantined() || !c.minimaHonest()) {
        // readmitted; or quarantined with minima that lie themselves (random RTTs may be below the
        // truth): such a landmark is judged by its window, which its lies leave once it is honest
        held.remove(c.landmarkId());
        continue;
      }
      int k = ids.indexOf(c.landmarkId());
      if (k < 0) continue;
      Map<String, Double> column = new HashMap<>();
      for (int s = 0; s < servers.size(); s++) {
        if (windowMinimaMs[s][k] > 0) column.put(servers.get(s), windowMinimaMs[s][k]);
      }
      held.put(c.landmarkId(), new Held(Map.copyOf(column), 0));
    }
    held.keySet().retainAll(decision.quarantined());
  }

  /** Landmarks with a held baseline (tests, logs). */
  public int size() {
    return held.size();
  }
}
