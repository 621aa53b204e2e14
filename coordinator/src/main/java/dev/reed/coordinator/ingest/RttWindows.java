package dev.reed.coordinator.ingest;

import java.util.Arrays;

/**
 * Per (landmark, target) windows of the last {@code W} landmark rounds, kept in flat
 * {@code char[]} blocks of {@value #BLOCK} target slots, indexed by (target slot, landmark slot,
 * round mod W), so a pair costs {@code 2 * (W + 2)} bytes and no object: 20 bytes at W = 8
 * (measured in RttWindowsTest and the README). Blocks rather than one array: one array grew by
 * doubling, and a replica taking on 125,000 targets copied 10, 20, 40 and 80 MB arrays inside its
 * first round and held half an array unused after the last doubling (22.4 B a pair of windows
 * against 21.4 B with blocks at 250,000 x 30, docs/research/scale.md); a new block copies
 * nothing. A slot holds the RTT as a 16-bit code ({@link #encode}), {@link #LOSS} for a timeout or
 * error, or {@link #EMPTY} when the landmark sent nothing for that round; the pair's newest round
 * takes the last two. Every replica holds its share of T x L pairs, and with 4-byte RTTs the
 * windows were more than a quarter of a replica's heap at 250,000 x 30 (151 of 536 MB,
 * docs/research/scale.md).
 *
 * <p>The code is exact below 16,384 us and keeps 13 bits of mantissa above (an RTT reads back at
 * most 0.013 % low: 61 us at 500 ms, far below the jitter the minimum filters). It is monotone,
 * so the minimum of codes is the code of the minimum.
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
  /**
   * The largest RTT a window holds, in microseconds: every RTT below 2^20 - 64 has a code other
   * than LOSS's; the validator's limit is lower.
   */
  public static final int MAX_RTT_US = 1_000_000;
  private static final char LOSS_CODE = 0xffff;
  private static final int EXACT_BITS = 14;
  private static final int MANTISSA_BITS = 13;

  /** Target slots per block. */
  private static final int BLOCK_BITS = 10;
  private static final int BLOCK = 1 << BLOCK_BITS;

  private final int window;
  private final int stride; // chars per pair: window slots + last round (two chars)
  private int landmarkCapacity;
  /** The first {@code blockCount} hold target slots 0 to {@link #targetCapacity()} - 1; the rest is room. */
  private char[][] blocks;
  private int blockCount;

  /**
   * @param window rounds per (landmark, target) window, 1-64
   * @param landmarkCapacity initial landmark slots (grows)
   * @param targetCapacity initial target slots (grows)
   */
  public RttWindows(int window, int landmarkCapacity, int targetCapacity) {
    if (window < 1 || window > 64) throw new IllegalArgumentException("window must be 1-64 rounds: " + window);
    this.window = window;
    this.stride = window + 2;
    this.landmarkCapacity = Math.max(1, landmarkCapacity);
    this.blocks = new char[(Math.max(1, targetCapacity) + BLOCK - 1) / BLOCK][];
    for (blockCount = 0; blockCount < blocks.length; blockCount++) blocks[blockCount] = newBlock();
  }

  private int targetCapacity() {
    return blockCount * BLOCK;
  }

  private char[] newBlock() {
    return new char[Math.multiplyExact(Math.multiplyExact(landmarkCapacity, BLOCK), stride)];
  }

  /** The RTT a window gives back for one of {@code rttUs} (1 to {@link #MAX_RTT_US}): its code's. */
  public static int held(int rttUs) {
    return decode(encode(rttUs));
  }

  /** The 16-bit code of an RTT of 1 to {@link #MAX_RTT_US} microseconds. */
  static char encode(int rttUs) {
    if (rttUs < 1 << EXACT_BITS) return (char) rttUs;
    int octave = 31 - Integer.numberOfLeadingZeros(rttUs) - EXACT_BITS; // 0 for [2^14, 2^15)
    int mantissa = (rttUs >>> (octave + 1)) & ((1 << MANTISSA_BITS) - 1);
    return (char) ((1 << EXACT_BITS) + (octave << MANTISSA_BITS) + mantissa);
  }

  /** The RTT in microseconds a code stands for (the lowest RTT of that code). */
  static int decode(char code) {
    if (code < 1 << EXACT_BITS) return code;
    int c = code - (1 << EXACT_BITS);
    int octave = c >>> MANTISSA_BITS;
    int mantissa = c & ((1 << MANTISSA_BITS) - 1);
    return ((1 << MANTISSA_BITS) + mantissa) << (octave + 1);
  }

  public int window() {
    return window;
  }

  /** Bytes of window state per (landmark, target) pair. */
  public int bytesPerPair() {
    return stride * Character.BYTES;
  }

  /** Bytes held by the blocks right now. */
  public long bytesAllocated() {
    return (long) blockCount * blocks[0].length * Character.BYTES;
  }

  private int lastRoundAt(char[] cells, int b) {
    return (cells[b + window] << 16) | cells[b + window + 1];
  }

  private void lastRoundAt(char[] cells, int b, int round) {
    cells[b + window] = (char) (round >>> 16);
    cells[b + window + 1] = (char) round;
  }

  /** Where the pair starts in its target's block. */
  private int base(int target, int landmark) {
    return ((target & (BLOCK - 1)) * landmarkCapacity + landmark) * stride;
  }

  private char[] block(int target) {
    return blocks[target >>> BLOCK_BITS];
  }

  /**
   * Records one probe outcome. Rounds older than the window are ignored (returns false); a newer
   * round advances the window and clears the rounds skipped in between.
   *
   * @param rttUs RTT in microseconds (1 to {@link #MAX_RTT_US}), or {@link #LOSS}
   * @return true if the window changed
   */
  public boolean record(int target, int landmark, long round, int rttUs) {
    ensure(target, landmark);
    if (rttUs == EMPTY || rttUs < LOSS || rttUs > MAX_RTT_US) {
      throw new IllegalArgumentException("rtt must be 1-" + MAX_RTT_US + " us or LOSS: " + rttUs);
    }
    char[] cells = block(target);
    int b = base(target, landmark);
    int r = (int) (round & 0x7fffffffL);
    int last = lastRoundAt(cells, b);
    boolean fresh = isEmpty(cells, b);
    if (fresh || r > last) {
      int gap = fresh ? window : Math.min(window, r - last);
      for (int i = 1; i <= gap; i++) cells[b + Math.floorMod(last + i, window)] = EMPTY;
      lastRoundAt(cells, b, r);
      last = r;
    } else if (r <= last - window) {
      return false;
    }
    int slot = b + Math.floorMod(r, window);
    char old = cells[slot];
    if (rttUs == LOSS) {
      if (old != EMPTY) return false; // a reply already arrived for this round, or loss recorded
      cells[slot] = LOSS_CODE;
      return true;
    }
    char code = encode(rttUs);
    if (old != EMPTY && old != LOSS_CODE && old <= code) return false;
    cells[slot] = code;
    return true;
  }

  private boolean isEmpty(char[] cells, int b) {
    for (int i = 0; i < window; i++) if (cells[b + i] != EMPTY) return false;
    return true;
  }

  /** Window minimum of the pair in microseconds, or 0 if it holds no RTT. */
  public int minimumUs(int target, int landmark) {
    if (target >= targetCapacity() || landmark >= landmarkCapacity) return 0;
    char[] cells = block(target);
    int b = base(target, landmark);
    char min = LOSS_CODE;
    for (int i = 0; i < window; i++) {
      char v = cells[b + i];
      if (v != EMPTY && v < min) min = v;
    }
    return min == LOSS_CODE ? 0 : decode(min);
  }

  /** Newest round recorded for the pair, or -1. */
  public long lastRound(int target, int landmark) {
    if (target >= targetCapacity() || landmark >= landmarkCapacity) return -1;
    char[] cells = block(target);
    int b = base(target, landmark);
    return isEmpty(cells, b) ? -1 : lastRoundAt(cells, b);
  }

  /**
   * Copies the pair's window, oldest round first, into {@code out} (length >= window): RTTs in
   * microseconds, {@link #LOSS} or {@link #EMPTY}; returns out.
   */
  public int[] copyWindow(int target, int landmark, int[] out) {
    Arrays.fill(out, 0, window, EMPTY);
    if (target >= targetCapacity() || landmark >= landmarkCapacity) return out;
    char[] cells = block(target);
    int b = base(target, landmark);
    int last = lastRoundAt(cells, b);
    for (int i = 0; i < window; i++) {
      char v = cells[b + Math.floorMod(last - window + 1 + i, window)];
      out[i] = v == LOSS_CODE ? LOSS : decode(v);
    }
    return out;
  }

  /** Forgets everything about a target slot (before the slot is reused). */
  public void clearTarget(int target) {
    if (target >= targetCapacity()) return;
    int from = base(target, 0);
    Arrays.fill(block(target), from, from + landmarkCapacity * stride, (char) 0);
  }

  /** Forgets a landmark slot in every target. */
  public void clearLandmark(int landmark) {
    if (landmark >= landmarkCapacity) return;
    for (int t = 0; t < targetCapacity(); t++) {
      int b = base(t, landmark);
      Arrays.fill(block(t), b, b + stride, (char) 0);
    }
  }

  private void ensure(int target, int landmark) {
    if (target < 0 || landmark < 0) throw new IllegalArgumentException("negative slot");
    if (target < targetCapacity() && landmark < landmarkCapacity) return;
    if (landmark >= landmarkCapacity) { // rare: every block laid out again with room for more landmarks
      int old = landmarkCapacity;
      landmarkCapacity = Math.max(landmark + 1, old * 2);
      for (int i = 0; i < blockCount; i++) {
        char[] grown = newBlock();
        for (int t = 0; t < BLOCK; t++) {
          System.arraycopy(blocks[i], t * old * stride, grown, t * landmarkCapacity * stride, old * stride);
        }
        blocks[i] = grown;
      }
    }
    while (target >= targetCapacity()) {
      if (blockCount == blocks.length) blocks = Arrays.copyOf(blocks, blockCount * 2);
      blocks[blockCount++] = newBlock();
    }
  }
}
