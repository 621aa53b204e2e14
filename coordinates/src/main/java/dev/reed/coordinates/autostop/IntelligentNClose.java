package dev.reed.coordinates.autostop;

/**
 * Intelligent N_close (REED Algorithm 6): the ordered list is only approximately right, so keep
 * probing while the probes still improve the set of the N_close lowest RTTs; stop after
 * {@code window} consecutive probes that did not. Keeps the set as a bounded max-heap of doubles.
 *
 * <p>Beyond the paper, an optional margin: once the set is full, a probe that improves it by no
 * more than {@code marginMs} (the RTT it pushes out minus its own) still enters the set but does
 * not restart the window. Around the N_close-th server, servers are often a fraction of a
 * millisecond apart (planetlab490: a median 0.25 ms from the 10th to the 11th), so Algorithm 6
 * keeps probing for swaps no player notices and that RTT jitter alone produces (docs/research/stopping.md). 0 is the paper's rule.
 */
final class IntelligentNClose extends CountingPolicy {
  private final int nClose;
  private final int window;
  private final double marginMs;
  private final double[] heap; // max-heap of the nClose lowest RTTs
  private int size;
  private int sinceChange;

  IntelligentNClose(int nClose, int window, double marginMs) {
    if (nClose < 1 || window < 1) {
      throw new IllegalArgumentException("nClose and window must be >= 1, got " + nClose + ", " + window);
    }
    if (!(marginMs >= 0) || Double.isInfinite(marginMs)) {
      throw new IllegalArgumentException("marginMs must be finite and >= 0, got " + marginMs);
    }
    this.nClose = nClose;
    this.window = window;
    this.marginMs = marginMs;
    this.heap = new double[nClose];
  }

  @Override
  boolean decide(double predictedMs, double rttMs) {
    boolean changed = false;
    if (Double.isFinite(rttMs) && rttMs >= 0) {
      if (size < nClose) {
        int c = size++;
        while (c > 0 && heap[(c - 1) >>> 1] < rttMs) {
          heap[c] = heap[(c - 1) >>> 1];
          c = (c - 1) >>> 1;
        }
        heap[c] = rttMs;
        changed = true;
      } else if (rttMs < heap[0]) {
        changed = heap[0] - rttMs > marginMs;
        int c = 0;
        while (true) {
          int l = 2 * c + 1;
          if (l >= size) {
            break;
          }
          int b = (l + 1 < size && heap[l + 1] > heap[l]) ? l + 1 : l;
          if (heap[b] <= rttMs) {
            break;
          }
          heap[c] = heap[b];
          c = b;
        }
        heap[c] = rttMs;
      }
    }
    sinceChange = changed ? 0 : sinceChange + 1;
    return size == nClose && sinceChange >= window;
  }

  /** The current N_close-th lowest RTT (NaN until the set is full). */
  double threshold() {
    return size == nClose ? heap[0] : Double.NaN;
  }

  @Override
  public String name() {
    return "intelligent(" + nClose + "," + window + (marginMs > 0 ? "," + marginMs + "ms" : "") + ")";
  }
}
