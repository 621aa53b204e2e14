package dev.reed.coordinates.ranking;

import java.util.Arrays;
import java.util.function.IntBinaryOperator;

/**
 * The best {@code cap} (value, entry) pairs of one query, in (value, key) order: the page of
 * REED's ordered list (Armitage &amp; Heyde 2011, Algorithm 4) plus one to know whether a next page
 * exists.
 *
 * <p>Why not a bounded binary heap: every entry that improves a full heap pays about 2 log2(cap)
 * data-dependent comparisons, and sorting the heap at the end pays that again for every entry, so
 * on a first page of 230 the selection cost more than finding the entries. Here accepted entries
 * are appended to an unsorted buffer. Whenever the buffer holds {@code cap + slack} of them, a
 * histogram of the values finds the bucket that holds the cap-th smallest and drops every higher
 * bucket, which tightens {@link #bound()}. The end is a bucket sort with an exact
 * (value, key) insertion sort inside each bucket, so ties are ordered by key as the cursor
 * requires. Keys are compared only between equal values, which are rare: the index keeps no
 * precomputed key order (sorting 250,000 keys was 60 % of building it, IndexBuildBenchmark).
 * Every pass is a linear scan with predictable branches.
 *
 * <p>One per query: not thread-safe. Values must be finite.
 */
final class TopEntries {

  /** Histogram buckets used to cut the buffer down. */
  static final int BUCKETS = 256;
  /** A bucket this small is sorted by insertion; a larger one by heapsort. */
  private static final int INSERTION_MAX = 24;

  private final int cap;
  private final int slack;
  private final IntBinaryOperator tieOrder;
  private double[] values;
  private int[] entries;
  private int count;
  private int nextCut;
  private double bound;
  private int[] histogram;
  private double rangeMin; // of values[0..count), set by scanRange()
  private double rangeMax;

  /**
   * @param cap how many of the best entries are wanted (page size + 1)
   * @param bound largest value that may enter (RTT_limit), or +infinity
   * @param tieOrder orders two entries of equal value (a comparator of their keys)
   */
  TopEntries(int cap, double bound, IntBinaryOperator tieOrder) {
    if (cap < 1) {
      throw new IllegalArgumentException("cap must be >= 1, got " + cap);
    }
    this.cap = cap;
    this.slack = Math.max(64, cap / 2);
    this.tieOrder = tieOrder;
    this.bound = bound;
    this.values = new double[cap + slack];
    this.entries = new int[cap + slack];
    this.nextCut = cap;
  }

  /** No value above this can be among the best {@code cap}: callers skip such entries unseen. */
  double bound() {
    return bound;
  }

  /** Entries held (at least the best {@code cap} of those added, in no order until {@link #finish()}). */
  int size() {
    return count;
  }

  /** Adds an entry whose value is at most {@link #bound()}; may tighten the bound. */
  void add(double value, int entry) {
    values[count] = value;
    entries[count] = entry;
    if (++count == nextCut) {
      cut();
    }
  }

  /**
   * Sorts what is held by (value, key), dropping only entries that cannot be among the best
   * {@code cap}. Afterwards {@link #value(int)} and {@link #entry(int)} read the order.
   *
   * @return how many entries are held: the best min(added, cap) come first; more than cap only
   *     when entries beyond the cap-th share its histogram bucket
   */
  int finish() {
    if (count > cap) {
      keepBest(cap);
    }
    bucketSort();
    return count;
  }

  double value(int k) {
    return values[k];
  }

  int entry(int k) {
    return entries[k];
  }

  private void cut() {
    keepBest(cap);
    nextCut = Math.min(count + slack, values.length);
    if (nextCut - count < slack / 2) { // many values share the cap-th one's bucket: room for more
      nextCut = count + slack;
      values = Arrays.copyOf(values, nextCut);
      entries = Arrays.copyOf(entries, nextCut);
    }
  }

  /** Keeps the histogram buckets up to the one holding the k-th smallest value; bound = largest kept. */
  private void keepBest(int k) {
    scanRange();
    double mn = rangeMin;
    double mx = rangeMax;
    if (mx == mn) {
      bound = Math.min(bound, mx);
      return;
    }
    if (histogram == null) {
      histogram = new int[BUCKETS];
    } else {
      Arrays.fill(histogram, 0);
    }
    double scale = (BUCKETS - 1) / (mx - mn);
    for (int j = 0; j < count; j++) {
      histogram[bucket(values[j], mn, scale, BUCKETS)]++;
    }
    int last = 0;
    for (int seen = histogram[0]; seen < k; seen += histogram[++last]) {
      // find the bucket holding the k-th smallest
    }
    int kept = 0;
    double largest = Double.NEGATIVE_INFINITY;
    for (int j = 0; j < count; j++) {
      double v = values[j];
      if (bucket(v, mn, scale, BUCKETS) <= last) {
        values[kept] = v;
        entries[kept] = entries[j];
        kept++;
        largest = Math.max(largest, v);
      }
    }
    count = kept;
    bound = Math.min(bound, largest);
  }

  private void scanRange() {
    double mn = Double.POSITIVE_INFINITY;
    double mx = Double.NEGATIVE_INFINITY;
    for (int j = 0; j < count; j++) {
      double v = values[j];
      mn = Math.min(mn, v);
      mx = Math.max(mx, v);
    }
    rangeMin = mn;
    rangeMax = mx;
  }

  /** Monotone in v: equal values share a bucket, and a larger value never lands in a lower one. */
  private static int bucket(double v, double mn, double scale, int buckets) {
    return Math.min(buckets - 1, (int) ((v - mn) * scale));
  }

  private void bucketSort() {
    if (count < 2) {
      return;
    }
    scanRange();
    double mn = rangeMin;
    double mx = rangeMax;
    if (mx == mn) {
      sortRange(0, count);
      return;
    }
    int buckets = Integer.highestOneBit(count - 1) << 1; // about one entry per bucket
    int[] end;
    if (histogram != null && histogram.length >= buckets) {
      end = histogram;
      Arrays.fill(end, 0, buckets, 0);
    } else {
      end = new int[buckets];
    }
    double scale = (buckets - 1) / (mx - mn);
    for (int j = 0; j < count; j++) {
      end[bucket(values[j], mn, scale, buckets)]++;
    }
    for (int b = 0, at = 0; b < buckets; b++) { // end[b] = where bucket b starts, for now
      int size = end[b];
      end[b] = at;
      at += size;
    }
    double[] sortedValues = new double[count];
    int[] sortedEntries = new int[count];
    for (int j = 0; j < count; j++) {
      double v = values[j];
      int at = end[bucket(v, mn, scale, buckets)]++;
      sortedValues[at] = v;
      sortedEntries[at] = entries[j];
    }
    values = sortedValues;
    entries = sortedEntries;
    for (int b = 0, from = 0; b < buckets; from = end[b++]) {
      if (end[b] - from > 1) {
        sortRange(from, end[b]);
      }
    }
  }

  /** Sorts [from, to) by (value, key). */
  private void sortRange(int from, int to) {
    if (to - from <= INSERTION_MAX) {
      for (int j = from + 1; j < to; j++) {
        double v = values[j];
        int e = entries[j];
        int c = j;
        while (c > from && after(values[c - 1], entries[c - 1], v, e)) {
          values[c] = values[c - 1];
          entries[c] = entries[c - 1];
          c--;
        }
        values[c] = v;
        entries[c] = e;
      }
      return;
    }
    int size = to - from;
    for (int c = size / 2 - 1; c >= 0; c--) {
      siftDown(from, c, size, values[from + c], entries[from + c]);
    }
    for (int end = size - 1; end > 0; end--) {
      double v = values[from + end];
      int e = entries[from + end];
      values[from + end] = values[from];
      entries[from + end] = entries[from];
      siftDown(from, 0, end, v, e);
    }
  }

  /** Max-heap sift within values[from..from+size). */
  private void siftDown(int from, int c, int size, double v, int e) {
    while (true) {
      int child = 2 * c + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && after(values[from + child + 1], entries[from + child + 1],
          values[from + child], entries[from + child])) {
        child++;
      }
      if (!after(values[from + child], entries[from + child], v, e)) {
        break;
      }
      values[from + c] = values[from + child];
      entries[from + c] = entries[from + child];
      c = child;
    }
    values[from + c] = v;
    entries[from + c] = e;
  }

  /** (va, ea) ranks after (vb, eb). */
  private boolean after(double va, int ea, double vb, int eb) {
    return va > vb || (va == vb && tieOrder.applyAsInt(ea, eb) > 0);
  }
}
