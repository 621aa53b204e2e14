package dev.reed.coordinates.ranking;

import dev.reed.coordinates.Coordinate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntToDoubleFunction;

/**
 * REED's ordered server list (Armitage &amp; Heyde 2011, Algorithm 4): servers in ascending predicted
 * RTT from a client's coordinate, filtered, paged with a (predicted RTT, key) cursor.
 *
 * <p>Immutable: build a new index with {@link #of(List)} and swap the reference (a volatile field
 * or AtomicReference) while queries keep running on the old one.
 *
 * <p>Layout: a static k-d tree (median splits on the widest dimension, leaves of {@value #LEAF}
 * entries) over float coordinate arrays, with each node's bounding box and smallest height;
 * keys and the number of each server's set of attributes (servers share few: the filter reads
 * them as int arrays by that number, game and map names interned to ids), all in tree order so a
 * leaf is a contiguous run. A query visits nodes best-first by the lower bound {@code dist(client, box) +
 * min height + client height} and stops once that bound exceeds the bound of its top-k selection
 * (Friedman, Bentley &amp; Finkel 1977): the first page of 230 out of 50,000 touches about 1,200
 * entries, not all. The nearer child is entered without queueing it, and a child that cannot make
 * the page is never queued. An entry farther than the leaf's reach is rejected on its squared
 * distance; the rest go to {@link TopEntries}, a buffer cut down by histogram and bucket-sorted at
 * the end, which costs far fewer comparisons than a binary heap and its final heapsort. The scan
 * allocates nothing per entry: primitive arrays, a node queue of primitives, no boxing.
 */
public final class RankingIndex {

  /** Largest page a query may ask for. */
  public static final int MAX_PAGE_SIZE = 10_000;
  /** Largest group {@link #rankForGroup} accepts. */
  public static final int MAX_GROUP = 64;

  private final int n;
  private final int d;
  /**
   * By position: what {@link #entry} is made of on demand. Columns rather than an entry object per
   * server: a replica builds an index of every server every few seconds, and objects per server
   * were what its young collections spent their time on (docs/research/scale.md).
   */
  private final String[] keys;
  /** By position, the number of its attributes in {@link #attributeTable}: servers share few sets of them. */
  private final int[] attributeOf;
  /** By position, the source's number of the server. */
  private final int[] origin;
  /** The coordinates (a query scans floats; an entry is made of them too). */
  private final float[] xs;
  private final float[] hs;
  /** Entries per k-d tree leaf. */
  static final int LEAF = 32;

  private final int nodes;
  private final int[] nodeLo;
  private final int[] nodeHi;
  private final int[] nodeLeft; // -1 for a leaf; the right child is nodeLeft + 1
  private final float[] boxMin;
  private final float[] boxMax;
  private final float[] boxMinH;
  /** The distinct attributes, and by their number what a filter reads of them (names as ids). */
  private final ServerAttributes[] attributeTable;
  private final int[] gameId;
  private final int[] mapId;
  private final int[] players;
  private final int[] maxPlayers;
  private final int[] protocol;
  private final boolean[] password;
  private final boolean[] suspect;
  private final int suspects;
  private final Map<String, Integer> gameIds;
  private final Map<String, Integer> mapIds;
  /** Memo of attribute-only match counts; derived data, so the index stays logically immutable. */
  private final Map<RankingFilter, Integer> attributeCounts = new java.util.concurrent.ConcurrentHashMap<>();
  private static final int MAX_CACHED_COUNTS = 1024;

  /**
   * What an index is built from: {@code size()} servers numbered 0..size-1 (an index's {@link
   * #sourceIndex} gives a position's number back), read once while the index is built. The feed of
   * a replica keeps its servers in columns and hands them over without an object per server
   * (docs/research/scale.md).
   */
  public interface Source {
    int size();

    /** Dimension count of every coordinate (ignored when size is 0). */
    int dimensions();

    /** The canonical key ("ip:port"), non-empty. */
    String key(int i);

    /** Component {@code k} of server i's coordinate: finite. */
    double component(int i, int k);

    /** Server i's height: finite, >= 0. */
    double height(int i);

    /** Server i's attributes; null = unknown. */
    ServerAttributes attributes(int i);
  }

  /** A list of entries as a source. */
  private record ListSource(List<ServerEntry> list) implements Source {
    @Override
    public int size() {
      return list.size();
    }

    @Override
    public int dimensions() {
      return list.isEmpty() ? 0 : list.get(0).coordinate().dimensions();
    }

    @Override
    public String key(int i) {
      return list.get(i).key();
    }

    @Override
    public double component(int i, int k) {
      return list.get(i).coordinate().component(k);
    }

    @Override
    public double height(int i) {
      return list.get(i).coordinate().height();
    }

    @Override
    public ServerAttributes attributes(int i) {
      return list.get(i).attributes();
    }
  }

  private static Source checked(List<ServerEntry> list) {
    if (list == null) {
      throw new IllegalArgumentException("entries must not be null");
    }
    int d = list.isEmpty() || list.get(0) == null ? 0 : list.get(0).coordinate().dimensions();
    for (int i = 0; i < list.size(); i++) {
      ServerEntry e = list.get(i);
      if (e == null) {
        throw new IllegalArgumentException("entry " + i + " is null");
      }
      if (e.coordinate().dimensions() != d) {
        throw new IllegalArgumentException("dimension mismatch: entry " + e.key() + " has "
            + e.coordinate().dimensions() + " dimensions, the first entry " + d);
      }
    }
    return new ListSource(list);
  }

  private RankingIndex(Source source, boolean checkKeys) {
    this.n = source.size();
    this.d = n == 0 ? 0 : source.dimensions();
    if (n > 0 && (d < 1 || d > Coordinate.MAX_DIMENSIONS)) {
      throw new IllegalArgumentException("coordinates need 1.." + Coordinate.MAX_DIMENSIONS + " dimensions, got " + d);
    }
    Set<String> seen = checkKeys ? new HashSet<>(n * 2) : null;
    for (int i = 0; i < n; i++) {
      String key = source.key(i);
      if (key == null || key.isEmpty()) {
        throw new IllegalArgumentException("server " + i + " has no key");
      }
      if (seen != null && !seen.add(key)) {
        throw new IllegalArgumentException("duplicate server key " + key);
      }
    }
    float[] x0 = new float[n * Math.max(d, 1)];
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < d; k++) {
        double v = source.component(i, k);
        if (!Double.isFinite(v)) {
          throw new IllegalArgumentException("coordinate component " + k + " of " + source.key(i) + " is not finite: " + v);
        }
        x0[i * d + k] = (float) v;
      }
      double h = source.height(i);
      if (!Double.isFinite(h) || h < 0) {
        throw new IllegalArgumentException("height of " + source.key(i) + " must be finite and >= 0, got " + h);
      }
    }
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    int maxNodes = Math.max(1, 2 * ((n + LEAF - 1) / LEAF) * 2 + 1);
    int[] lo = new int[maxNodes];
    int[] hi = new int[maxNodes];
    int[] left = new int[maxNodes];
    int count = 0;
    int flagged = 0;
    if (n > 0) {
      // breadth-first construction; children are allocated in pairs so right = left + 1
      lo[0] = 0;
      hi[0] = n;
      count = 1;
      for (int node = 0; node < count; node++) {
        int a = lo[node];
        int b = hi[node];
        if (b - a <= LEAF || d == 0) {
          left[node] = -1;
          continue;
        }
        int dim = widestDimension(x0, perm, a, b, d);
        int mid = (a + b) >>> 1;
        select(x0, perm, a, b - 1, mid, dim, d);
        left[node] = count;
        lo[count] = a;
        hi[count] = mid;
        lo[count + 1] = mid;
        hi[count + 1] = b;
        count += 2;
      }
    }
    this.nodes = count;
    this.nodeLo = java.util.Arrays.copyOf(lo, count);
    this.nodeHi = java.util.Arrays.copyOf(hi, count);
    this.nodeLeft = java.util.Arrays.copyOf(left, count);
    this.origin = perm;
    this.keys = new String[n];
    this.attributeOf = new int[n];
    this.xs = new float[n * d];
    this.hs = new float[n];
    Map<ServerAttributes, Integer> numbers = new HashMap<>();
    List<ServerAttributes> table = new ArrayList<>();
    for (int s = 0; s < n; s++) {
      int i = perm[s];
      keys[s] = source.key(i);
      System.arraycopy(x0, i * d, xs, s * d, d);
      hs[s] = (float) source.height(i);
      ServerAttributes a = source.attributes(i) == null ? ServerAttributes.unknown() : source.attributes(i);
      Integer number = numbers.putIfAbsent(a, table.size());
      if (number == null) {
        number = table.size();
        table.add(a);
      }
      attributeOf[s] = number;
      if (a.suspect()) flagged++;
    }
    int m = table.size();
    this.attributeTable = table.toArray(new ServerAttributes[0]);
    this.gameId = new int[m];
    this.mapId = new int[m];
    this.players = new int[m];
    this.maxPlayers = new int[m];
    this.protocol = new int[m];
    this.password = new boolean[m];
    this.suspect = new boolean[m];
    this.gameIds = new HashMap<>();
    this.mapIds = new HashMap<>();
    for (int a = 0; a < m; a++) {
      ServerAttributes t = attributeTable[a];
      gameId[a] = gameIds.computeIfAbsent(t.game(), g -> gameIds.size());
      mapId[a] = mapIds.computeIfAbsent(t.map(), g -> mapIds.size());
      players[a] = t.players();
      maxPlayers[a] = t.maxPlayers();
      protocol[a] = t.protocol();
      password[a] = t.password();
      suspect[a] = t.suspect();
    }
    this.suspects = flagged;
    this.boxMin = new float[count * Math.max(d, 1)];
    this.boxMax = new float[count * Math.max(d, 1)];
    this.boxMinH = new float[count];
    for (int node = count - 1; node >= 0; node--) { // children have higher numbers: bottom-up
      int o = node * d;
      if (nodeLeft[node] < 0) {
        java.util.Arrays.fill(boxMin, o, o + d, Float.POSITIVE_INFINITY);
        java.util.Arrays.fill(boxMax, o, o + d, Float.NEGATIVE_INFINITY);
        float mh = Float.POSITIVE_INFINITY;
        for (int s = nodeLo[node]; s < nodeHi[node]; s++) {
          for (int k = 0; k < d; k++) {
            float v = xs[s * d + k];
            boxMin[o + k] = Math.min(boxMin[o + k], v);
            boxMax[o + k] = Math.max(boxMax[o + k], v);
          }
          mh = Math.min(mh, hs[s]);
        }
        boxMinH[node] = mh;
      } else {
        int l = nodeLeft[node] * d;
        int r = (nodeLeft[node] + 1) * d;
        for (int k = 0; k < d; k++) {
          boxMin[o + k] = Math.min(boxMin[l + k], boxMin[r + k]);
          boxMax[o + k] = Math.max(boxMax[l + k], boxMax[r + k]);
        }
        boxMinH[node] = Math.min(boxMinH[nodeLeft[node]], boxMinH[nodeLeft[node] + 1]);
      }
    }
  }

  private int keyOrder(int a, int b) {
    return keys[a].compareTo(keys[b]);
  }

  /** Builds an index; O(n log n). @throws IllegalArgumentException null entry, duplicate key, mixed dimensions */
  public static RankingIndex of(List<ServerEntry> entries) {
    return new RankingIndex(checked(entries), true);
  }

  /**
   * Builds an index of entries whose keys are known to be distinct (the values of a map by key):
   * {@link #of} checks that with a set of every key, 250,000 nodes of garbage per build.
   *
   * @throws IllegalArgumentException null entry, mixed dimensions
   */
  public static RankingIndex ofDistinct(List<ServerEntry> entries) {
    return new RankingIndex(checked(entries), false);
  }

  /**
   * Builds an index of a source whose keys are distinct.
   *
   * @throws IllegalArgumentException empty key, dimensions outside 1..16, a component that is not
   *     finite, a negative or non-finite height
   */
  public static RankingIndex ofDistinct(Source source) {
    return new RankingIndex(source, false);
  }

  public int size() {
    return n;
  }

  /** How many servers the integrity check flags ({@link ServerAttributes#suspect}). */
  public int suspects() {
    return suspects;
  }

  /** Dimension count of the indexed coordinates (0 when empty). */
  public int dimensions() {
    return d;
  }

  /**
   * The entry at {@code position} in the index's order (the order of {@link Ranked#position}), made
   * on demand: its coordinate as the index holds it, components and height rounded to float.
   */
  public ServerEntry entry(int position) {
    double[] c = new double[d];
    for (int k = 0; k < d; k++) {
      c[k] = xs[position * d + k];
    }
    return new ServerEntry(keys[position], new Coordinate(c, hs[position]), attributeTable[attributeOf[position]]);
  }

  /** The key of the entry at {@code position}, without making the entry. */
  public String key(int position) {
    return keys[position];
  }

  /** The number in its source of the server at {@code position} (its index in the list built from). */
  public int sourceIndex(int position) {
    return origin[position];
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
    double limit = filter.rttLimitMs() > 0 ? filter.rttLimitMs() : Double.POSITIVE_INFINITY;
    boolean anyAttr = !filter.attributesUnconstrained();
    int fg = anyAttr ? id(gameIds, filter.game()) : -1;
    int fm = anyAttr ? id(mapIds, filter.map()) : -1;
    if (anyAttr && (fg == -2 || fm == -2)) {
      return new RankedPage(List.of(), null, 0); // unknown game or map: nothing matches
    }
    TopEntries top = new TopEntries(pageSize + 1, limit, this::keyOrder);
    double q0 = d > 0 ? q[0] : 0;
    double q1 = d > 1 ? q[1] : 0;
    double q2 = d > 2 ? q[2] : 0;
    double q3 = d > 3 ? q[3] : 0;
    // best-first over the tree: a binary min-heap of (lower bound, node) in primitive arrays; the
    // nearer child is entered directly when nothing queued is nearer, and a child that cannot make
    // the page is never queued
    double[] qb = new double[64];
    int[] qn = new int[64];
    int qs = 0;
    int node = 0;
    double nodeBound = lowerBound(0, q, hc);
    while (true) {
      double tau = top.bound();
      if (nodeBound <= tau) {
        int l = nodeLeft[node];
        if (l >= 0) {
          double bl = lowerBound(l, q, hc);
          double br = lowerBound(l + 1, q, hc);
          int near = l;
          double bn = bl;
          int far = l + 1;
          double bf = br;
          if (br < bl) {
            near = l + 1;
            bn = br;
            far = l;
            bf = bl;
          }
          if (qs + 2 > qb.length) {
            qb = Arrays.copyOf(qb, qb.length * 2);
            qn = Arrays.copyOf(qn, qn.length * 2);
          }
          if (bf <= tau) {
            qs = pushMin(qb, qn, qs, bf, far);
          }
          if (bn <= tau) {
            if (qs == 0 || bn <= qb[0]) {
              node = near;
              nodeBound = bn;
              continue;
            }
            qs = pushMin(qb, qn, qs, bn, near);
          }
        } else {
          double reachSq = reachSquared(tau, boxMinH[node], hc);
          for (int i = nodeLo[node], end = nodeHi[node]; i < end; i++) {
            if (anyAttr && !matches(i, filter, fg, fm)) {
              continue;
            }
            int o = i * d;
            double sq;
            if (d == 4) { // the default model, unrolled; the same sum in the same order as the loop
              double t0 = xs[o] - q0;
              double t1 = xs[o + 1] - q1;
              double t2 = xs[o + 2] - q2;
              double t3 = xs[o + 3] - q3;
              sq = t0 * t0 + t1 * t1 + t2 * t2 + t3 * t3;
            } else {
              sq = 0;
              for (int k = 0; k < d; k++) {
                double t = xs[o + k] - q[k];
                sq += t * t;
              }
            }
            if (sq > reachSq) {
              continue; // cannot make the page: rejected without a square root
            }
            double pred = Math.sqrt(sq) + hs[i] + hc;
            if (pred > tau || (after != null && !after.isBefore(pred, keys[i]))) {
              continue;
            }
            top.add(pred, i);
            if (top.bound() != tau) {
              tau = top.bound();
              reachSq = reachSquared(tau, boxMinH[node], hc);
            }
          }
        }
      }
      if (qs == 0) {
        break;
      }
      nodeBound = qb[0];
      node = qn[0];
      qs = popMin(qb, qn, qs);
      if (nodeBound > top.bound()) {
        break; // every queued node is at least this far
      }
    }
    return page(top, pageSize, countMatching(filter, fg, fm, q, hc, limit));
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
    double ceiling = Math.min(memberCeilingMs > 0 ? memberCeilingMs : Double.POSITIVE_INFINITY,
        filter.rttLimitMs() > 0 ? filter.rttLimitMs() : Double.POSITIVE_INFINITY);
    boolean anyAttr = !filter.attributesUnconstrained();
    int fg = anyAttr ? id(gameIds, filter.game()) : -1;
    int fm = anyAttr ? id(mapIds, filter.map()) : -1;
    if (anyAttr && (fg == -2 || fm == -2)) {
      return new GroupRankedPage(List.of(), null, 0);
    }
    TopEntries top = new TopEntries(pageSize + 1, Double.POSITIVE_INFINITY, this::keyOrder);
    int total = scanTop(top, filter, fg, fm, after, i -> groupScore(i, mq, mh, g, objective, ceiling));
    int held = top.finish();
    int take = Math.min(held, pageSize);
    List<GroupRanked> out = new ArrayList<>(take);
    for (int k = 0; k < take; k++) {
      int i = top.entry(k);
      double[] per = new double[g];
      for (int j = 0; j < g; j++) {
        per[j] = predictedFrom(i, mq, j * d, mh[j]);
      }
      out.add(new GroupRanked(entry(i), top.value(k), per));
    }
    Cursor next = held > pageSize ? new Cursor(out.get(take - 1).scoreMs(), out.get(take - 1).server().key()) : null;
    return new GroupRankedPage(out, next, total);
  }

  /**
   * A prediction the tree cannot order: anything but the coordinate distance alone (the fused and
   * geographic predictions of the location prior).
   */
  @FunctionalInterface
  public interface EntryScore {
    /**
     * @param key the server's key
     * @param coordinateMs its coordinate distance from the client, NaN without a client coordinate
     * @return the predicted RTT in ms; NaN (or negative) = the entry cannot be ranked and is left out
     */
    double predictedMs(String key, double coordinateMs);
  }

  /**
   * One page of servers in ascending {@code score}, strictly after {@code after}: a full scan
   * (about 5 ms for 50,000 servers with a geographic score), for rankings whose order is not the
   * coordinate distance. RTT_limit applies to the score; entries it scores NaN are left out and
   * not counted.
   *
   * @param client the client's coordinate, or null (the score then gets NaN as coordinate distance)
   * @throws IllegalArgumentException null score or filter, dimension mismatch, pageSize outside 1..10000
   */
  public RankedPage scan(Coordinate client, EntryScore score, RankingFilter filter, Cursor after, int pageSize) {
    if (score == null) {
      throw new IllegalArgumentException("score must not be null");
    }
    if (client != null) {
      validate(client, filter, pageSize);
    } else if (filter == null || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      validate(Coordinate.origin(Math.max(d, 1)), filter, pageSize); // the same messages
    }
    if (n == 0) {
      return new RankedPage(List.of(), null, 0);
    }
    double limit = filter.rttLimitMs() > 0 ? filter.rttLimitMs() : Double.POSITIVE_INFINITY;
    boolean anyAttr = !filter.attributesUnconstrained();
    int fg = anyAttr ? id(gameIds, filter.game()) : -1;
    int fm = anyAttr ? id(mapIds, filter.map()) : -1;
    if (anyAttr && (fg == -2 || fm == -2)) {
      return new RankedPage(List.of(), null, 0);
    }
    double[] q = client == null ? null : client.components();
    double hc = client == null ? 0 : client.height();
    TopEntries top = new TopEntries(pageSize + 1, Double.POSITIVE_INFINITY, this::keyOrder);
    int total = scanTop(top, filter, fg, fm, after, i -> {
      double pred = score.predictedMs(keys[i], q == null ? Double.NaN : predictedFrom(i, q, 0, hc));
      return pred >= 0 && pred != Double.POSITIVE_INFINITY && pred <= limit ? pred : Double.NaN;
    });
    return page(top, pageSize, total);
  }

  /** The first {@code pageSize} of the held entries as a page, with the cursor after its last. */
  private RankedPage page(TopEntries top, int pageSize, int total) {
    int held = top.finish();
    int take = Math.min(held, pageSize);
    List<Ranked> out = new ArrayList<>(take);
    for (int k = 0; k < take; k++) {
      out.add(new Ranked(entry(top.entry(k)), top.value(k), top.entry(k)));
    }
    Cursor next = held > pageSize ? new Cursor(top.value(take - 1), keys[top.entry(take - 1)]) : null;
    return new RankedPage(out, next, total);
  }

  /**
   * The full scan behind {@link #scan} and {@link #rankForGroup}: every entry the filter passes
   * and {@code score} ranks (a score, not NaN) goes to {@code top} when it comes after
   * {@code after}. Returns how many entries were ranked, the page's total.
   *
   * @param fg the filter's game id, -1 for any; {@code fm} likewise its map id
   */
  private int scanTop(TopEntries top, RankingFilter filter, int fg, int fm, Cursor after, IntToDoubleFunction score) {
    boolean anyAttr = !filter.attributesUnconstrained();
    int total = 0;
    for (int i = 0; i < n; i++) {
      if (anyAttr && !matches(i, filter, fg, fm)) {
        continue;
      }
      double s = score.applyAsDouble(i);
      if (Double.isNaN(s)) {
        continue;
      }
      total++;
      if (s > top.bound() || (after != null && !after.isBefore(s, keys[i]))) {
        continue;
      }
      top.add(s, i);
    }
    return total;
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
    int a = attributeOf[i];
    return (fg < 0 || gameId[a] == fg)
        && (fm < 0 || mapId[a] == fm)
        && players[a] >= f.minPlayers()
        && !(f.notFull() && maxPlayers[a] > 0 && players[a] >= maxPlayers[a])
        && !(f.notEmpty() && players[a] == 0)
        && (f.password() == PasswordRule.ANY || (f.password() == PasswordRule.ONLY) == password[a])
        && (f.protocol() == 0 || protocol[a] == f.protocol())
        && (f.suspects() == SuspectRule.ANY || (f.suspects() == SuspectRule.ONLY) == suspect[a]);
  }

  private int countMatching(RankingFilter f, int fg, int fm, double[] q, double hc, double limit) {
    boolean anyAttr = !f.attributesUnconstrained();
    if (!anyAttr && limit == Double.POSITIVE_INFINITY) {
      return n;
    }
    if (limit == Double.POSITIVE_INFINITY) {
      // attribute-only counts do not depend on the client: memoised per filter (bounded)
      RankingFilter key = f.withRttLimit(0);
      Integer cached = attributeCounts.get(key);
      if (cached != null) {
        return cached;
      }
      int count = 0;
      for (int i = 0; i < n; i++) {
        if (matches(i, f, fg, fm)) {
          count++;
        }
      }
      if (attributeCounts.size() >= MAX_CACHED_COUNTS) {
        attributeCounts.clear();
      }
      attributeCounts.put(key, count);
      return count;
    }
    // RTT_limit: only subtrees that can reach under the limit
    int count = 0;
    int[] stack = new int[64];
    int sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      int node = stack[--sp];
      if (lowerBound(node, q, hc) > limit) {
        continue;
      }
      int l = nodeLeft[node];
      if (l >= 0) {
        if (sp + 2 > stack.length) {
          stack = java.util.Arrays.copyOf(stack, stack.length * 2);
        }
        stack[sp++] = l;
        stack[sp++] = l + 1;
        continue;
      }
      for (int i = nodeLo[node]; i < nodeHi[node]; i++) {
        if ((!anyAttr || matches(i, f, fg, fm)) && predicted(i, q, hc) <= limit) {
          count++;
        }
      }
    }
    return count;
  }

  /** Smallest possible predicted RTT from the client to any entry of the node. */
  private double lowerBound(int node, double[] q, double hc) {
    int o = node * d;
    double s = 0;
    for (int k = 0; k < d; k++) {
      s += gap(q[k], boxMin[o + k], boxMax[o + k]);
    }
    // a hair below the exact bound so float rounding can never prune a true neighbour
    return (Math.sqrt(s) + boxMinH[node] + hc) * (1 - 1e-12) - 1e-9;
  }

  /**
   * Square of the largest distance at which an entry of a leaf with smallest height {@code minH}
   * can still be predicted at or under {@code tau}, widened by a hair so rounding never rejects
   * an entry the exact test would keep.
   */
  private static double reachSquared(double tau, double minH, double hc) {
    double reach = Math.max(0, tau - minH - hc) + 1e-9 * (1 + Math.abs(tau));
    return reach * reach;
  }

  /** Squared distance from v to [mn, mx] along one axis; branch-free, as the sides are unpredictable. */
  private static double gap(double v, float mn, float mx) {
    double g = Math.max(0, Math.max(mn - v, v - mx));
    return g * g;
  }

  private static int pushMin(double[] b, int[] nd, int size, double v, int node) {
    int c = size;
    while (c > 0) {
      int parent = (c - 1) >>> 1;
      if (b[parent] <= v) {
        break;
      }
      b[c] = b[parent];
      nd[c] = nd[parent];
      c = parent;
    }
    b[c] = v;
    nd[c] = node;
    return size + 1;
  }

  private static int popMin(double[] b, int[] nd, int size) {
    int last = size - 1;
    double v = b[last];
    int node = nd[last];
    int c = 0;
    while (true) {
      int l = 2 * c + 1;
      if (l >= last) {
        break;
      }
      int m = (l + 1 < last && b[l + 1] < b[l]) ? l + 1 : l;
      if (b[m] >= v) {
        break;
      }
      b[c] = b[m];
      nd[c] = nd[m];
      c = m;
    }
    if (last > 0) {
      b[c] = v;
      nd[c] = node;
    }
    return last;
  }

  private static int widestDimension(float[] x, int[] perm, int a, int b, int d) {
    int best = 0;
    float bestSpread = -1;
    for (int k = 0; k < d; k++) {
      float mn = Float.POSITIVE_INFINITY;
      float mx = Float.NEGATIVE_INFINITY;
      for (int s = a; s < b; s++) {
        float v = x[perm[s] * d + k];
        mn = Math.min(mn, v);
        mx = Math.max(mx, v);
      }
      if (mx - mn > bestSpread) {
        bestSpread = mx - mn;
        best = k;
      }
    }
    return best;
  }

  /** Quickselect: afterwards perm[a..k) <= perm[k] <= perm(k..b] on dimension dim. */
  private static void select(float[] x, int[] perm, int a, int b, int k, int dim, int d) {
    while (b > a) {
      float pivot = x[perm[(a + b) >>> 1] * d + dim];
      int i = a;
      int j = b;
      while (i <= j) {
        while (x[perm[i] * d + dim] < pivot) {
          i++;
        }
        while (x[perm[j] * d + dim] > pivot) {
          j--;
        }
        if (i <= j) {
          int t = perm[i];
          perm[i] = perm[j];
          perm[j] = t;
          i++;
          j--;
        }
      }
      if (k <= j) {
        b = j;
      } else if (k >= i) {
        a = i;
      } else {
        return;
      }
    }
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
}
