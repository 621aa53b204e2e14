package dev.reed.coordinates.ranking;

import dev.reed.coordinates.Coordinate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * REED's ordered server list (Armitage &amp; Heyde 2011, Algorithm 4): servers in ascending predicted
 * RTT from a client's coordinate, filtered, paged with a (predicted RTT, key) cursor.
 *
 * <p>Immutable: build a new index with {@link #of(List)} and swap the reference (a volatile field
 * or AtomicReference) while queries keep running on the old one.
 *
 * <p>Layout: coordinates as one float array (structure of arrays would not help: a query visits a
 * contiguous run), attributes as int arrays with game and map names interned to ids, all sorted by
 * each server's projection on the principal axis of the coordinates. Since {@code |p_i - p_c| <=
 * ||x_i - c||}, a query scans outwards from the client's projection and stops once that lower bound
 * exceeds the worst entry of its bounded top-k heap: the first page of 230 out of 50,000 touches a
 * few thousand entries, not all. The scan allocates nothing per entry: primitive arrays, a heap of
 * pageSize + 1 (value, index) pairs, no boxing.
 */
public final class RankingIndex {

  /** Largest page a query may ask for. */
  public static final int MAX_PAGE_SIZE = 10_000;
  /** Largest group {@link #rankForGroup} accepts. */
  public static final int MAX_GROUP = 64;

  private final int n;
  private final int d;
  private final ServerEntry[] entries;
  private final float[] xs;
  private final float[] hs;
  private final double[] proj;
  private final double[] axis;
  private final double margin;
  private final int[] keyRank;
  private final int[] gameId;
  private final int[] mapId;
  private final int[] players;
  private final int[] maxPlayers;
  private final int[] protocol;
  private final boolean[] password;
  private final Map<String, Integer> gameIds;
  private final Map<String, Integer> mapIds;

  private RankingIndex(List<ServerEntry> list) {
    this.n = list.size();
    this.d = n == 0 ? 0 : list.get(0).coordinate().dimensions();
    Set<String> keys = new HashSet<>(n * 2);
    for (int i = 0; i < n; i++) {
      ServerEntry e = list.get(i);
      if (e == null) {
        throw new IllegalArgumentException("entry " + i + " is null");
      }
      if (e.coordinate().dimensions() != d) {
        throw new IllegalArgumentException("dimension mismatch: entry " + e.key() + " has "
            + e.coordinate().dimensions() + " dimensions, the first entry " + d);
      }
      if (!keys.add(e.key())) {
        throw new IllegalArgumentException("duplicate server key " + e.key());
      }
    }
    this.axis = principalAxis(list, d);
    // sort by projection (as float, so the stored projections are exactly monotone)
    long[] order = new long[n];
    double maxAbs = 0;
    for (int i = 0; i < n; i++) {
      Coordinate c = list.get(i).coordinate();
      double p = 0;
      for (int k = 0; k < d; k++) {
        p += (float) c.component(k) * axis[k];
      }
      maxAbs = Math.max(maxAbs, Math.abs(p));
      int bits = Float.floatToIntBits((float) p);
      bits ^= (bits >> 31) & 0x7fffffff;
      order[i] = ((long) bits << 32) | (i & 0xffffffffL);
    }
    Arrays.sort(order);
    this.margin = 1e-5 * maxAbs + 1e-6;
    this.entries = new ServerEntry[n];
    this.xs = new float[n * d];
    this.hs = new float[n];
    this.proj = new double[n];
    this.gameId = new int[n];
    this.mapId = new int[n];
    this.players = new int[n];
    this.maxPlayers = new int[n];
    this.protocol = new int[n];
    this.password = new boolean[n];
    this.gameIds = new HashMap<>();
    this.mapIds = new HashMap<>();
    for (int s = 0; s < n; s++) {
      int i = (int) order[s];
      ServerEntry e = list.get(i);
      entries[s] = e;
      Coordinate c = e.coordinate();
      double p = 0;
      for (int k = 0; k < d; k++) {
        xs[s * d + k] = (float) c.component(k);
        p += (float) c.component(k) * axis[k];
      }
      proj[s] = (float) p;
      hs[s] = (float) c.height();
      ServerAttributes a = e.attributes();
      gameId[s] = gameIds.computeIfAbsent(a.game(), g -> gameIds.size());
      mapId[s] = mapIds.computeIfAbsent(a.map(), g -> mapIds.size());
      players[s] = a.players();
      maxPlayers[s] = a.maxPlayers();
      protocol[s] = a.protocol();
      password[s] = a.password();
    }
    Integer[] byKey = new Integer[n];
    for (int s = 0; s < n; s++) {
      byKey[s] = s;
    }
    Arrays.sort(byKey, (u, v) -> entries[u].key().compareTo(entries[v].key()));
    this.keyRank = new int[n];
    for (int r = 0; r < n; r++) {
      keyRank[byKey[r]] = r;
    }
  }

  /** Builds an index; O(n log n). @throws IllegalArgumentException null entry, duplicate key, mixed dimensions */
  public static RankingIndex of(List<ServerEntry> entries) {
    if (entries == null) {
      throw new IllegalArgumentException("entries must not be null");
    }
    return new RankingIndex(entries);
  }

  public int size() {
    return n;
  }

  /** Dimension count of the indexed coordinates (0 when empty). */
  public int dimensions() {
    return d;
  }

  /**
   * One page of servers in ascending predicted RTT from {@code client}, strictly after {@code after}.
   *
   * @throws IllegalArgumentException null client or filter, dimension mismatch, pageSize outside 1..10000
   */
  public RankedPage query(Coordinate client, RankingFilter filter, Cursor after, int pageSize) {
    validate(client, filter, pageSize);
    if (n == 0) {
      return new RankedPage(List.of(), null, 0);
    }
    double[] q = client.components();
    double hc = client.height();
    double pc = 0;
    for (int k = 0; k < d; k++) {
      pc += q[k] * axis[k];
    }
    int cap = pageSize + 1;
    double[] hv = new double[cap];
    int[] hi = new int[cap];
    int size = 0;
    double limit = filter.rttLimitMs() > 0 ? filter.rttLimitMs() : Double.POSITIVE_INFINITY;
    boolean anyAttr = !filter.attributesUnconstrained();
    int fg = anyAttr ? id(gameIds, filter.game()) : -1;
    int fm = anyAttr ? id(mapIds, filter.map()) : -1;
    if (anyAttr && (fg == -2 || fm == -2)) {
      return new RankedPage(List.of(), null, 0); // unknown game or map: nothing matches
    }
    int r = lowerBound(pc);
    int l = r - 1;
    while (l >= 0 || r < n) {
      double dl = l >= 0 ? pc - proj[l] : Double.POSITIVE_INFINITY;
      double dr = r < n ? proj[r] - pc : Double.POSITIVE_INFINITY;
      int i;
      double bound;
      if (dl <= dr) {
        i = l--;
        bound = dl;
      } else {
        i = r++;
        bound = dr;
      }
      bound = bound + hc - margin;
      if (bound > limit || (size == cap && bound > hv[0])) {
        break;
      }
      if (anyAttr && !matches(i, filter, fg, fm)) {
        continue;
      }
      double pred = predicted(i, q, hc);
      if (pred > limit) {
        continue;
      }
      if (after != null && !after.isBefore(pred, entries[i].key())) {
        continue;
      }
      if (size < cap) {
        size = siftUp(hv, hi, size, pred, i);
      } else if (greater(hv[0], hi[0], pred, i)) {
        siftDownReplace(hv, hi, size, pred, i);
      }
    }
    int[] idx = sortHeap(hv, hi, size);
    int take = Math.min(size, pageSize);
    List<Ranked> out = new ArrayList<>(take);
    for (int k = 0; k < take; k++) {
      out.add(new Ranked(entries[idx[k]], valueOf(hv, hi, size, idx[k], q, hc)));
    }
    Cursor next = size > pageSize ? new Cursor(out.get(take - 1).predictedMs(), out.get(take - 1).server().key()) : null;
    int total = countMatching(filter, fg, fm, q, hc, pc, limit);
    return new RankedPage(out, next, total);
  }

  /**
   * Servers ranked for a group of players at once (MUSST): MIN_MAX scores by the worst member's
   * predicted RTT, MEAN_UNDER_CEILING by the mean where every member is at or under
   * {@code memberCeilingMs}. A positive ceiling also bounds MIN_MAX; the filter's RTT_limit applies
   * to every member.
   *
   * @throws IllegalArgumentException empty or oversized group, dimension mismatch, bad ceiling or page size
   */
  public GroupRankedPage rankForGroup(List<Coordinate> members, GroupObjective objective, double memberCeilingMs,
      RankingFilter filter, Cursor after, int pageSize) {
    if (members == null || members.isEmpty() || members.size() > MAX_GROUP) {
      throw new IllegalArgumentException("a group needs 1.." + MAX_GROUP + " members, got "
          + (members == null ? "null" : members.size()));
    }
    if (objective == null) {
      throw new IllegalArgumentException("objective must not be null");
    }
    if (!Double.isFinite(memberCeilingMs) || memberCeilingMs < 0) {
      throw new IllegalArgumentException("memberCeilingMs must be finite and >= 0, got " + memberCeilingMs);
    }
    if (objective == GroupObjective.MEAN_UNDER_CEILING && memberCeilingMs == 0) {
      throw new IllegalArgumentException("MEAN_UNDER_CEILING needs a member ceiling > 0");
    }
    for (Coordinate m : members) {
      validate(m, filter, pageSize);
    }
    if (n == 0) {
      return new GroupRankedPage(List.of(), null, 0);
    }
    int g = members.size();
    double[] mq = new double[g * d];
    double[] mh = new double[g];
    for (int j = 0; j < g; j++) {
      for (int k = 0; k < d; k++) {
        mq[j * d + k] = members.get(j).component(k);
      }
      mh[j] = members.get(j).height();
    }
    double ceiling = memberCeilingMs > 0 ? memberCeilingMs : Double.POSITIVE_INFINITY;
    if (filter.rttLimitMs() > 0) {
      ceiling = Math.min(ceiling, filter.rttLimitMs());
    }
    boolean anyAttr = !filter.attributesUnconstrained();
    int fg = anyAttr ? id(gameIds, filter.game()) : -1;
    int fm = anyAttr ? id(mapIds, filter.map()) : -1;
    if (anyAttr && (fg == -2 || fm == -2)) {
      return new GroupRankedPage(List.of(), null, 0);
    }
    int cap = pageSize + 1;
    double[] hv = new double[cap];
    int[] hi = new int[cap];
    int size = 0;
    int total = 0;
    for (int i = 0; i < n; i++) {
      if (anyAttr && !matches(i, filter, fg, fm)) {
        continue;
      }
      double score = groupScore(i, mq, mh, g, objective, ceiling);
      if (Double.isNaN(score)) {
        continue;
      }
      total++;
      if (after != null && !after.isBefore(score, entries[i].key())) {
        continue;
      }
      if (size < cap) {
        size = siftUp(hv, hi, size, score, i);
      } else if (greater(hv[0], hi[0], score, i)) {
        siftDownReplace(hv, hi, size, score, i);
      }
    }
    int[] idx = sortHeap(hv, hi, size);
    int take = Math.min(size, pageSize);
    List<GroupRanked> out = new ArrayList<>(take);
    for (int k = 0; k < take; k++) {
      int i = idx[k];
      double[] per = new double[g];
      for (int j = 0; j < g; j++) {
        per[j] = predictedFrom(i, mq, j * d, mh[j]);
      }
      out.add(new GroupRanked(entries[i], groupScore(i, mq, mh, g, objective, ceiling), per));
    }
    Cursor next = size > pageSize ? new Cursor(out.get(take - 1).scoreMs(), out.get(take - 1).server().key()) : null;
    return new GroupRankedPage(out, next, total);
  }

  private double groupScore(int i, double[] mq, double[] mh, int g, GroupObjective objective, double ceiling) {
    double max = 0;
    double sum = 0;
    for (int j = 0; j < g; j++) {
      double p = predictedFrom(i, mq, j * d, mh[j]);
      if (p > ceiling) {
        return Double.NaN;
      }
      max = Math.max(max, p);
      sum += p;
    }
    return objective == GroupObjective.MIN_MAX ? max : sum / g;
  }

  private void validate(Coordinate client, RankingFilter filter, int pageSize) {
    if (client == null) {
      throw new IllegalArgumentException("client coordinate must not be null");
    }
    if (filter == null) {
      throw new IllegalArgumentException("filter must not be null (use RankingFilter.none())");
    }
    if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new IllegalArgumentException("pageSize must be 1.." + MAX_PAGE_SIZE + ", got " + pageSize);
    }
    if (n > 0 && client.dimensions() != d) {
      throw new IllegalArgumentException("dimension mismatch: client has " + client.dimensions()
          + " dimensions, the index " + d);
    }
  }

  /** -1 = any (empty), -2 = a name no server has. */
  private static int id(Map<String, Integer> ids, String name) {
    if (name.isEmpty()) {
      return -1;
    }
    Integer v = ids.get(name);
    return v == null ? -2 : v;
  }

  private boolean matches(int i, RankingFilter f, int fg, int fm) {
    return (fg < 0 || gameId[i] == fg)
        && (fm < 0 || mapId[i] == fm)
        && players[i] >= f.minPlayers()
        && !(f.notFull() && maxPlayers[i] > 0 && players[i] >= maxPlayers[i])
        && !(f.notEmpty() && players[i] == 0)
        && (f.password() == PasswordRule.ANY || (f.password() == PasswordRule.ONLY) == password[i])
        && (f.protocol() == 0 || protocol[i] == f.protocol());
  }

  private int countMatching(RankingFilter f, int fg, int fm, double[] q, double hc, double pc, double limit) {
    boolean anyAttr = !f.attributesUnconstrained();
    if (!anyAttr && limit == Double.POSITIVE_INFINITY) {
      return n;
    }
    int from = 0;
    int to = n;
    if (limit != Double.POSITIVE_INFINITY) {
      double reach = limit - hc + margin;
      if (reach < 0) {
        return 0;
      }
      from = lowerBound(pc - reach);
      to = lowerBound(pc + reach + Math.ulp(pc + reach));
      to = Math.min(n, to + 1);
    }
    int count = 0;
    for (int i = from; i < to; i++) {
      if (anyAttr && !matches(i, f, fg, fm)) {
        continue;
      }
      if (limit != Double.POSITIVE_INFINITY && predicted(i, q, hc) > limit) {
        continue;
      }
      count++;
    }
    return count;
  }

  private double predicted(int i, double[] q, double hc) {
    int o = i * d;
    double s = 0;
    for (int k = 0; k < d; k++) {
      double t = xs[o + k] - q[k];
      s += t * t;
    }
    return Math.sqrt(s) + hs[i] + hc;
  }

  private double predictedFrom(int i, double[] mq, int off, double h) {
    int o = i * d;
    double s = 0;
    for (int k = 0; k < d; k++) {
      double t = xs[o + k] - mq[off + k];
      s += t * t;
    }
    return Math.sqrt(s) + hs[i] + h;
  }

  private double valueOf(double[] hv, int[] hi, int size, int idx, double[] q, double hc) {
    for (int k = 0; k < size; k++) {
      if (hi[k] == idx) {
        return hv[k];
      }
    }
    return predicted(idx, q, hc);
  }

  /** First position whose projection is >= p. */
  private int lowerBound(double p) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (proj[mid] < p) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** (va, ia) ranks after (vb, ib). */
  private boolean greater(double va, int ia, double vb, int ib) {
    return va > vb || (va == vb && keyRank[ia] > keyRank[ib]);
  }

  private int siftUp(double[] hv, int[] hi, int size, double v, int idx) {
    int c = size;
    while (c > 0) {
      int parent = (c - 1) >>> 1;
      if (!greater(v, idx, hv[parent], hi[parent])) {
        break;
      }
      hv[c] = hv[parent];
      hi[c] = hi[parent];
      c = parent;
    }
    hv[c] = v;
    hi[c] = idx;
    return size + 1;
  }

  private void siftDownReplace(double[] hv, int[] hi, int size, double v, int idx) {
    int c = 0;
    while (true) {
      int left = 2 * c + 1;
      if (left >= size) {
        break;
      }
      int big = left;
      int right = left + 1;
      if (right < size && greater(hv[right], hi[right], hv[left], hi[left])) {
        big = right;
      }
      if (!greater(hv[big], hi[big], v, idx)) {
        break;
      }
      hv[c] = hv[big];
      hi[c] = hi[big];
      c = big;
    }
    hv[c] = v;
    hi[c] = idx;
  }

  /** Heap contents in ascending (value, key) order, as indices. */
  private int[] sortHeap(double[] hv, int[] hi, int size) {
    Integer[] pos = new Integer[size];
    for (int k = 0; k < size; k++) {
      pos[k] = k;
    }
    Arrays.sort(pos, (a, b) -> {
      int c = Double.compare(hv[a], hv[b]);
      return c != 0 ? c : Integer.compare(keyRank[hi[a]], keyRank[hi[b]]);
    });
    int[] idx = new int[size];
    for (int k = 0; k < size; k++) {
      idx[k] = hi[pos[k]];
    }
    return idx;
  }

  /** Unit principal axis of the coordinates (power iteration on the covariance). */
  private static double[] principalAxis(List<ServerEntry> list, int d) {
    double[] axis = new double[Math.max(d, 1)];
    if (d == 0) {
      return axis;
    }
    int n = list.size();
    double[] mean = new double[d];
    for (ServerEntry e : list) {
      for (int k = 0; k < d; k++) {
        mean[k] += e.coordinate().component(k) / n;
      }
    }
    double[] cov = new double[d * d];
    int stride = Math.max(1, n / 20_000); // a sample is plenty for an axis
    for (int i = 0; i < n; i += stride) {
      Coordinate c = list.get(i).coordinate();
      for (int a = 0; a < d; a++) {
        double da = c.component(a) - mean[a];
        for (int b = 0; b < d; b++) {
          cov[a * d + b] += da * (c.component(b) - mean[b]);
        }
      }
    }
    Arrays.fill(axis, 1.0 / Math.sqrt(d));
    for (int it = 0; it < 100; it++) {
      double[] next = new double[d];
      for (int a = 0; a < d; a++) {
        for (int b = 0; b < d; b++) {
          next[a] += cov[a * d + b] * axis[b];
        }
      }
      double len = 0;
      for (double v : next) {
        len += v * v;
      }
      len = Math.sqrt(len);
      if (!(len > 1e-300) || !Double.isFinite(len)) {
        break;
      }
      for (int a = 0; a < d; a++) {
        axis[a] = next[a] / len;
      }
    }
    return axis;
  }
}
