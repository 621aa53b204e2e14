package dev.reed.coordinator.ingest;

import java.util.Arrays;

/**
 * Per (landmark, target) windows of the last {@code W} landmark rounds, kept in one flat
 * {@code int[]} indexed by (target slot, landmark slot, round mod W) so a pair costs
 * {@code 4 * (W + 1)} bytes and no object: 36 bytes at W = 8 (measured in RttWindowsTest and the
 * README). A slot holds the RTT in microseconds, {@link #LOSS} for a timeout or error, or
 * {@link #EMPTY} when the landmark sent nothing for that round.
 *
 * <p>The robust statistic is the window minimum: the sample "least influenced by transient
 * congestion" (REED, Armitage &amp; Heyde 2011, section 5.1.1; the moving-percentile filter of
 * Ledlie et al. 2006 with the lowest percentile). Timeouts and errors count as loss, never as RTTs.
 *
 * <p>Not thread-safe: the ingest loop owns it.
 */
public final class RttWindows {
  /** Nothing heard for that round. */
  public static final int EMPTY = 0;
  /** The probe of that round got no valid reply. */
  public static final int LOSS = -1;

  private final int window;
  private final int stride; // ints per pair: window slots + last round
  private int landmarkCapacity;
  private int targetCapacity;
  private int[] cells;

  /**
   * @param window rounds per (landmark, target) window, 1-64
   * @param landmarkCapacity initial landmark slots (grows)
   * @param targetCapacity initial target slots (grows)
   */
  public RttWindows(int window, int landmarkCapacity, int targetCapacity) {
    if (window < 1 || window > 64) throw new IllegalArgumentException("window must be 1-64 rounds: " + window);
    this.window = window;
    this.stride = window + 1;
    this.landmarkCapacity = Math.max(1, landmarkCapacity);
    this.targetCapacity = Math.max(1, targetCapacity);
    this.cells = new int[Math.multiplyExact(Math.multiplyExact(this.landmarkCapacity, this.targetCapacity), stride)];
    Arrays.fill(cells, 0);
  }

  public int window() {
    return window;
  }

  /** Bytes of window state per (landmark, target) pair. */
  public int bytesPerPair() {
    return stride * Integer.BYTES;
  }

  /** Bytes held by the flat array right now. */
  public long bytesAllocated() {
    return (long) cells.length * Integer.BYTES;
  }

  private int base(int target, int landmark) {
    return (target * landmarkCapacity + landmark) * stride;
  }

  /**
   * Records one probe outcome. Rounds older than the window are ignored (returns false); a newer
   * round advances the window and clears the rounds skipped in between.
   *
   * @param rttUs RTT in microseconds (> 0), or {@link #LOSS}
   * @return true if the window changed
   */
  public boolean record(int target, int landmark, long round, int rttUs) {
    ensure(target, landmark);
    if (rttUs == EMPTY || rttUs < LOSS) throw new IllegalArgumentException("rtt must be > 0 or LOSS: " + rttUs);
    int b = base(target, landmark);
    int r = (int) (round & 0x7fffffffL);
    int last = cells[b + window];
    boolean fresh = isEmpty(b);
    if (fresh || r > last) {
      int gap = fresh ? window : Math.min(window, r - last);
      for (int i = 1; i <= gap; i++) cells[b + Math.floorMod(last + i, window)] = EMPTY;
      cells[b + window] = r;
      last = r;
    } else if (r <= last - window) {
      return false;
    }
    int slot = b + Math.floorMod(r, window);
    int old = cells[slot];
    if (rttUs == LOSS) {
      if (old != EMPTY) return false; // a reply already arrived for this round, or loss recorded
      cells[slot] = LOSS;
      return true;
    }
    if (old > 0 && old <= rttUs) return false;
    cells[slot] = rttUs;
    return true;
  }

  private boolean isEmpty(int b) {
    for (int i = 0; i < window; i++) if (cells[b + i] != EMPTY) return false;
    return true;
  }

  /** Window minimum of the pair in microseconds, or 0 if it holds no RTT. */
  public int minimumUs(int target, int landmark) {
    if (target >= targetCapacity || landmark >= landmarkCapacity) return 0;
    int b = base(target, landmark);
    int min = Integer.MAX_VALUE;
    for (int i = 0; i < window; i++) {
      int v = cells[b + i];
      if (v > 0 && v < min) min = v;
    }
    return min == Integer.MAX_VALUE ? 0 : min;
  }

  /** Newest round recorded for the pair, or -1. */
  public long lastRound(int target, int landmark) {
    if (target >= targetCapacity || landmark >= landmarkCapacity) return -1;
    int b = base(target, landmark);
    return isEmpty(b) ? -1 : cells[b + window];
  }

  /** Copies the pair's window, oldest round first, into {@code out} (length >= window); returns out. */
  public int[] copyWindow(int target, int landmark, int[] out) {
    Arrays.fill(out, 0, window, EMPTY);
    if (target >= targetCapacity || landmark >= landmarkCapacity) return out;
    int b = base(target, landmark);
    int last = cells[b + window];
    for (int i = 0; i < window; i++) out[i] = cells[b + Math.floorMod(last - window + 1 + i, window)];
    return out;
  }

  /** Forgets everything about a target slot (before the slot is reused). */
  public void clearTarget(int target) {
    if (target >= targetCapacity) return;
    int from = base(target, 0);
    Arrays.fill(cells, from, from + landmarkCapacity * stride, 0);
  }

  /** Forgets a landmark slot in every target. */
  public void clearLandmark(int landmark) {
    if (landmark >= landmarkCapacity) return;
    for (int t = 0; t < targetCapacity; t++) {
      int b = base(t, landmark);
      Arrays.fill(cells, b, b + stride, 0);
    }
  }

  private void ensure(int target, int landmark) {
    if (target < 0 || landmark < 0) throw new IllegalArgumentException("negative slot");
    if (target < targetCapacity && landmark < landmarkCapacity) return;
    int newLandmarks = landmark < landmarkCapacity ? landmarkCapacity : Math.max(landmark + 1, landmarkCapacity * 2);
    int newTargets = target < targetCapacity ? targetCapacity : Math.max(target + 1, targetCapacity * 2);
    int[] grown = new int[Math.multiplyExact(Math.multiplyExact(newLandmarks, newTargets), stride)];
    for (int t = 0; t < targetCapacity; t++) {
      System.arraycopy(cells, t * landmarkCapacity * stride, grown, t * newLandmarks * stride, landmarkCapacity * stride);
    }
    cells = grown;
    landmarkCapacity = newLandmarks;
    targetCapacity = newTargets;
  }
}
