package dev.reed.eval;

import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/** Orders of a client's server list by a key per server. */
final class Orders {
  private Orders() {}

  /** Server indices 0..n-1 by ascending key, NaN last, ties by index (deterministic). */
  static int[] ascending(double[] key) {
    return IntStream.range(0, key.length).boxed()
        .sorted(Comparator.comparingDouble((Integer j) -> Double.isNaN(key[j]) ? Double.POSITIVE_INFINITY : key[j])
            .thenComparing(j -> Double.isNaN(key[j]) ? 1 : 0).thenComparing(j -> j))
        .mapToInt(Integer::intValue).toArray();
  }

  /** A random permutation of 0..n-1 (Fisher-Yates, from the top). */
  static int[] shuffled(int n, SplittableRandom r) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int t = r.nextInt(i + 1);
      int x = p[i];
      p[i] = p[t];
      p[t] = x;
    }
    return p;
  }
}
