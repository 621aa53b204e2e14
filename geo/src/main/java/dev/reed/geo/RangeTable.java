package dev.reed.geo;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Optional;

/**
 * Non-overlapping inclusive address ranges sorted by start, each with a value, looked up by binary
 * search. Plain arrays of 128-bit bounds keep a table of half a million ranges near 20 MB.
 */
final class RangeTable<T> implements IpTable<T> {
  private final String description;
  private final long[] startHi;
  private final long[] startLo;
  private final long[] endHi;
  private final long[] endLo;
  private final Object[] values;
  private final int size;

  private RangeTable(String description, Builder<T> b) {
    this.description = description;
    this.size = b.size;
    this.startHi = Arrays.copyOf(b.startHi, size);
    this.startLo = Arrays.copyOf(b.startLo, size);
    this.endHi = Arrays.copyOf(b.endHi, size);
    this.endLo = Arrays.copyOf(b.endLo, size);
    this.values = Arrays.copyOf(b.values, size);
  }

  int size() {
    return size;
  }

  @Override
  @SuppressWarnings("unchecked")
  public Optional<T> lookup(InetAddress address) {
    IpKey k = IpKey.of(address);
    int lo = 0;
    int hi = size - 1;
    int found = -1; // the last range starting at or before the address
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (IpKey.compare(startHi[mid], startLo[mid], k.hi(), k.lo()) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (found < 0 || IpKey.compare(k.hi(), k.lo(), endHi[found], endLo[found]) > 0) return Optional.empty();
    return Optional.of((T) values[found]);
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void close() {}

  /** Collects ranges in ascending order; {@link #add} refuses anything else. */
  static final class Builder<T> {
    private long[] startHi = new long[1024];
    private long[] startLo = new long[1024];
    private long[] endHi = new long[1024];
    private long[] endLo = new long[1024];
    private Object[] values = new Object[1024];
    private int size;
    private int clipped;

    /** Rows that overlapped an earlier one and were clipped or dropped. */
    int clipped() {
      return clipped;
    }

    /**
     * Appends {@code [first, last]}. A range overlapping the previous one keeps only its part
     * after the previous end (the first row wins): the published AS table has a few such rows.
     *
     * @return false when nothing of the range was left
     * @throws IllegalArgumentException the range is reversed, or starts before the previous one
     */
    boolean add(IpKey first, IpKey last, T value) {
      if (first.compareTo(last) > 0) throw new IllegalArgumentException("range start is after its end");
      if (size > 0) {
        if (IpKey.compare(first.hi(), first.lo(), startHi[size - 1], startLo[size - 1]) < 0) {
          throw new IllegalArgumentException("range starts before the previous one (ranges must be sorted by start)");
        }
        if (IpKey.compare(first.hi(), first.lo(), endHi[size - 1], endLo[size - 1]) <= 0) {
          clipped++;
          if (IpKey.compare(last.hi(), last.lo(), endHi[size - 1], endLo[size - 1]) <= 0) return false;
          long lo = endLo[size - 1] + 1;
          first = new IpKey(lo == 0 ? endHi[size - 1] + 1 : endHi[size - 1], lo);
        }
      }
      if (size == startHi.length) {
        int n = size * 2;
        startHi = Arrays.copyOf(startHi, n);
        startLo = Arrays.copyOf(startLo, n);
        endHi = Arrays.copyOf(endHi, n);
        endLo = Arrays.copyOf(endLo, n);
        values = Arrays.copyOf(values, n);
      }
      startHi[size] = first.hi();
      startLo[size] = first.lo();
      endHi[size] = last.hi();
      endLo[size] = last.lo();
      values[size] = value;
      size++;
      return true;
    }

    RangeTable<T> build(String description) {
      return new RangeTable<>(description, this);
    }
  }
}
