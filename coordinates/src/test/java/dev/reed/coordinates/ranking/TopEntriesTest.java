package dev.reed.coordinates.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class TopEntriesTest {

  /** Feeds values 0..n-1 (entry j has value v(j) and key rank rank[j]) the way the index does: only at or under the bound. */
  private static List<Integer> best(int n, int cap, double limit, IntToDoubleFunction v, int[] rank) {
    TopEntries top = new TopEntries(cap, limit, (a, b) -> Integer.compare(rank[a], rank[b]));
    for (int j = 0; j < n; j++) {
      double x = v.applyAsDouble(j);
      if (x <= top.bound()) {
        top.add(x, j);
      }
    }
    int held = top.finish();
    assertThat(held).isEqualTo(top.size());
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < Math.min(held, cap); k++) {
      assertThat(top.value(k)).isEqualTo(v.applyAsDouble(top.entry(k)));
      out.add(top.entry(k));
    }
    return out;
  }

  private static List<Integer> bruteForce(int n, int cap, double limit, IntToDoubleFunction v, int[] rank) {
    List<Integer> all = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      if (v.applyAsDouble(j) <= limit) {
        all.add(j);
      }
    }
    all.sort(Comparator.<Integer>comparingDouble(v::applyAsDouble).thenComparingInt(j -> rank[j]));
    return all.subList(0, Math.min(cap, all.size()));
  }

  private static int[] shuffledRanks(int n, SplittableRandom r) {
    int[] rank = new int[n];
    for (int j = 0; j < n; j++) {
      rank[j] = j;
    }
    for (int j = n - 1; j > 0; j--) {
      int k = r.nextInt(j + 1);
      int t = rank[j];
      rank[j] = rank[k];
      rank[k] = t;
    }
    return rank;
  }

  @Test
  void keepsExactlyTheBestInValueThenKeyOrder() {
    SplittableRandom r = new SplittableRandom(3);
    for (int cap : new int[] {1, 2, 7, 231, 1000}) {
      for (int n : new int[] {0, 1, cap - 1, cap, cap + 1, 5 * cap + 17, 20_000}) {
        if (n < 0) {
          continue;
        }
        int[] rank = shuffledRanks(Math.max(n, 1), r);
        double[] uniform = r.doubles(n, 0, 300).toArray();
        double[] ties = r.ints(n, 0, 40).asDoubleStream().toArray(); // many exact ties
        double[] skewed = r.doubles(n).map(x -> Math.pow(x, 8) * 1e4).toArray(); // dense near 0, long tail
        for (double[] values : List.of(uniform, ties, skewed)) {
          IntToDoubleFunction v = j -> values[j];
          assertThat(best(n, cap, Double.POSITIVE_INFINITY, v, rank))
              .as("cap %d n %d", cap, n)
              .isEqualTo(bruteForce(n, cap, Double.POSITIVE_INFINITY, v, rank));
          assertThat(best(n, cap, 100, v, rank)).isEqualTo(bruteForce(n, cap, 100, v, rank));
        }
      }
    }
  }

  @Test
  void allEqualValuesAreOrderedByKeyAndTheBufferGrows() {
    int n = 5000;
    int[] rank = shuffledRanks(n, new SplittableRandom(9));
    assertThat(best(n, 300, Double.POSITIVE_INFINITY, j -> 42.0, rank))
        .isEqualTo(bruteForce(n, 300, Double.POSITIVE_INFINITY, j -> 42.0, rank));
    // one value below a wall of ties, and ties at zero
    IntToDoubleFunction v = j -> j == 4321 ? 1.0 : j % 2 == 0 ? 0.0 : 7.0;
    assertThat(best(n, 10, Double.POSITIVE_INFINITY, v, rank)).isEqualTo(bruteForce(n, 10, Double.POSITIVE_INFINITY, v, rank));
  }

  @Test
  void boundNeverDropsBelowTheCapThSmallestSeen() {
    SplittableRandom r = new SplittableRandom(11);
    int n = 10_000;
    int cap = 231;
    double[] values = r.doubles(n, 0, 500).toArray();
    TopEntries top = new TopEntries(cap, Double.POSITIVE_INFINITY, byRank(shuffledRanks(n, r)));
    List<Double> seen = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      seen.add(values[j]);
      if (values[j] <= top.bound()) {
        top.add(values[j], j);
      }
      if (seen.size() < cap) {
        assertThat(top.bound()).isInfinite();
      } else if (j % 97 == 0 || j == n - 1) {
        double[] sorted = seen.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        assertThat(top.bound()).isGreaterThanOrEqualTo(sorted[cap - 1]);
      }
    }
    // the bound is tight enough to reject most of a long stream: the buffer stays small
    assertThat(top.size()).isLessThan(3 * cap);
    double[] sorted = Arrays.stream(values).sorted().toArray();
    assertThat(top.bound()).isLessThan(sorted[3 * cap]);
  }

  @Test
  void rejectsAnEmptyCap() {
    assertThatThrownBy(() -> new TopEntries(0, 1, (a, b) -> 0)).hasMessageContaining("cap");
  }

  private static java.util.function.IntBinaryOperator byRank(int[] rank) {
    return (a, b) -> Integer.compare(rank[a], rank[b]);
  }
}
