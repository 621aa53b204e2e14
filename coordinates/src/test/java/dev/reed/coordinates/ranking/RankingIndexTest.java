package dev.reed.coordinates.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.Coordinate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RankingIndexTest {

  static List<ServerEntry> world(int n, int d, boolean height, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    String[] games = {"q3", "cs", "tf"};
    String[] maps = {"dm1", "dm2"};
    List<ServerEntry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      double[] c = new double[d];
      for (int k = 0; k < d; k++) {
        c[k] = (r.nextDouble() - 0.5) * 400;
      }
      // a few exact duplicates of the position so ties are exercised
      if (i % 50 == 7 && i > 0) {
        c = out.get(i - 1).coordinate().components();
      }
      int max = 8 + r.nextInt(24);
      out.add(new ServerEntry("10.0." + (i / 250) + "." + (i % 250) + ":27960",
          new Coordinate(c, height ? r.nextDouble() * 20 : 0),
          new ServerAttributes(games[r.nextInt(3)], maps[r.nextInt(2)], r.nextInt(max + 1), max, r.nextInt(5) == 0,
              68 + r.nextInt(2), i % 17 == 3)));
    }
    return out;
  }

  static List<Ranked> bruteForce(List<ServerEntry> all, Coordinate c, RankingFilter f) {
    return all.stream()
        .filter(e -> f.matches(e.attributes()))
        .map(e -> new Ranked(e, predicted(e.coordinate(), c)))
        .filter(rk -> f.rttLimitMs() == 0 || rk.predictedMs() <= f.rttLimitMs())
        .sorted(Comparator.comparingDouble(Ranked::predictedMs).thenComparing(rk -> rk.server().key()))
        .collect(Collectors.toList());
  }

  static double predicted(Coordinate s, Coordinate c) {
    double sum = 0;
    for (int k = 0; k < c.dimensions(); k++) {
      double t = (float) s.component(k) - c.component(k);
      sum += t * t;
    }
    return Math.sqrt(sum) + (float) s.height() + c.height();
  }

  @Test
  void pagesThroughExactlyTheBruteForceOrder() {
    for (boolean height : new boolean[] {false, true}) {
      List<ServerEntry> all = world(3000, 4, height, height ? 2 : 1);
      // with heights, built as the index feed builds it: keys known distinct, not checked again
      RankingIndex idx = height ? RankingIndex.ofDistinct(all) : RankingIndex.of(all);
      SplittableRandom r = new SplittableRandom(5);
      List<RankingFilter> filters = List.of(RankingFilter.none(),
          new RankingFilter("q3", "", 0, true, false, PasswordRule.EXCLUDE, 0, 0),
          new RankingFilter("", "dm2", 2, false, true, PasswordRule.ONLY, 68, 0),
          RankingFilter.none().withRttLimit(150),
          new RankingFilter("cs", "dm1", 0, false, false, PasswordRule.ANY, 0, 120),
          RankingFilter.none().withSuspects(SuspectRule.EXCLUDE),
          RankingFilter.none().withSuspects(SuspectRule.ONLY),
          new RankingFilter("q3", "", 0, false, false, PasswordRule.ANY, 0, 150, SuspectRule.ONLY));
      assertThat(idx.suspects()).isEqualTo((int) all.stream().filter(e -> e.attributes().suspect()).count()).isPositive();
      for (RankingFilter f : filters) {
        Coordinate client = new Coordinate(new double[] {r.nextDouble() * 100, 0, -50, 10}, height ? 5 : 0);
        List<Ranked> expected = bruteForce(all, client, f);
        List<Ranked> got = new ArrayList<>();
        Cursor cur = null;
        int pages = 0;
        do {
          RankedPage p = idx.query(client, f, cur, 97);
          assertThat(p.totalMatching()).isEqualTo(expected.size());
          got.addAll(p.servers());
          cur = p.next() == null ? null : Cursor.decode(p.next().encode());
          pages++;
        } while (cur != null && pages < 1000);
        assertThat(got.stream().map(x -> x.server().key()).toList())
            .as("filter %s height %s", f, height)
            .isEqualTo(expected.stream().map(x -> x.server().key()).toList());
        for (int i = 0; i < got.size(); i++) {
          assertThat(got.get(i).predictedMs()).isCloseTo(expected.get(i).predictedMs(),
              org.assertj.core.data.Offset.offset(1e-9));
        }
      }
    }
  }

  @Test
  void otherDimensionsPageThroughTheBruteForceOrderToo() {
    SplittableRandom r = new SplittableRandom(31);
    for (int d : new int[] {1, 2, 3, 5, 8}) {
      for (boolean height : new boolean[] {false, true}) {
        List<ServerEntry> all = world(2500, d, height, 40 + d);
        RankingIndex idx = RankingIndex.of(all);
        double[] c = new double[d];
        for (int k = 0; k < d; k++) {
          c[k] = (r.nextDouble() - 0.5) * 200;
        }
        Coordinate client = new Coordinate(c, height ? 2 : 0);
        for (RankingFilter f : List.of(RankingFilter.none(), RankingFilter.none().withRttLimit(120))) {
          List<String> expected = bruteForce(all, client, f).stream().map(x -> x.server().key()).toList();
          List<String> got = new ArrayList<>();
          Cursor cur = null;
          do {
            RankedPage p = idx.query(client, f, cur, 230);
            assertThat(p.totalMatching()).isEqualTo(expected.size());
            p.servers().forEach(x -> got.add(x.server().key()));
            cur = p.next();
          } while (cur != null && got.size() <= all.size());
          assertThat(got).as("d %d height %s filter %s", d, height, f).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void wallsOfEqualPredictionsPageByKeyAcrossPageBoundaries() {
    // 1,500 servers at one point and 1,500 on a sphere around the client: far more ties than a
    // page, so the page boundary falls inside a run of equal predictions
    List<ServerEntry> all = new ArrayList<>(world(2000, 4, false, 21));
    SplittableRandom r = new SplittableRandom(22);
    for (int i = 0; i < 1500; i++) {
      all.add(new ServerEntry("10.9." + (i / 250) + "." + (i % 250) + ":27960", Coordinate.of(30, 30, 30, 30),
          new ServerAttributes("q3", "dm1", r.nextInt(9), 8, false, 68)));
      double[] axis = new double[4];
      axis[i % 4] = (i / 4 % 2 == 0 ? 1 : -1) * 25;
      all.add(new ServerEntry("10.8." + (i / 250) + "." + (i % 250) + ":27960", new Coordinate(axis, 0),
          new ServerAttributes("cs", "dm2", r.nextInt(9), 8, false, 68)));
    }
    RankingIndex idx = RankingIndex.of(all);
    for (Coordinate client : List.of(Coordinate.of(0, 0, 0, 0), Coordinate.of(30, 30, 30, 30))) {
      for (int pageSize : new int[] {1, 230, 1000}) {
        List<Ranked> expected = bruteForce(all, client, RankingFilter.none());
        List<String> got = new ArrayList<>();
        Cursor cur = null;
        do {
          RankedPage p = idx.query(client, RankingFilter.none(), cur, pageSize);
          p.servers().forEach(x -> got.add(x.server().key()));
          cur = p.next();
        } while (cur != null && got.size() <= all.size());
        assertThat(got).as("client %s page %d", client, pageSize)
            .isEqualTo(expected.stream().map(x -> x.server().key()).toList());
      }
    }
  }

  @Test
  void unknownGameMatchesNothingAndEmptyIndexIsFine() {
    RankingIndex idx = RankingIndex.of(world(100, 3, false, 3));
    RankedPage p = idx.query(Coordinate.of(0, 0, 0),
        new RankingFilter("nope", "", 0, false, false, PasswordRule.ANY, 0, 0), null, 10);
    assertThat(p.servers()).isEmpty();
    assertThat(p.totalMatching()).isZero();
    RankedPage empty = RankingIndex.of(List.of()).query(Coordinate.of(1, 2), RankingFilter.none(), null, 5);
    assertThat(empty.servers()).isEmpty();
    assertThat(empty.next()).isNull();
  }

  @Test
  void groupRankingMatchesBruteForce() {
    List<ServerEntry> all = world(2000, 4, true, 9);
    RankingIndex idx = RankingIndex.of(all);
    List<Coordinate> members = List.of(new Coordinate(new double[] {0, 0, 0, 0}, 3),
        new Coordinate(new double[] {80, 10, 0, 0}, 1), new Coordinate(new double[] {20, 60, -5, 0}, 0));
    for (GroupObjective obj : GroupObjective.values()) {
      double ceiling = 180;
      List<String> expected = all.stream()
          .filter(e -> members.stream().allMatch(m -> predicted(e.coordinate(), m) <= ceiling))
          .sorted(Comparator.<ServerEntry>comparingDouble(e -> score(e, members, obj)).thenComparing(ServerEntry::key))
          .map(ServerEntry::key).toList();
      List<String> got = new ArrayList<>();
      Cursor cur = null;
      do {
        GroupRankedPage p = idx.rankForGroup(members, obj, ceiling, RankingFilter.none(), cur, 50);
        assertThat(p.totalMatching()).isEqualTo(expected.size());
        p.servers().forEach(g -> {
          got.add(g.server().key());
          assertThat(g.memberPredictedMs()).hasSize(3);
          double worst = 0;
          for (double v : g.memberPredictedMs()) {
            assertThat(v).isLessThanOrEqualTo(ceiling);
            worst = Math.max(worst, v);
          }
          if (obj == GroupObjective.MIN_MAX) {
            assertThat(g.scoreMs()).isEqualTo(worst);
          }
        });
        cur = p.next();
      } while (cur != null);
      assertThat(got).isEqualTo(expected);
    }
  }

  private static double score(ServerEntry e, List<Coordinate> members, GroupObjective obj) {
    double max = 0;
    double sum = 0;
    for (Coordinate m : members) {
      double p = predicted(e.coordinate(), m);
      max = Math.max(max, p);
      sum += p;
    }
    return obj == GroupObjective.MIN_MAX ? max : sum / members.size();
  }

  @Test
  void validatesInput() {
    List<ServerEntry> all = world(10, 3, false, 4);
    RankingIndex idx = RankingIndex.of(all);
    assertThatThrownBy(() -> idx.query(Coordinate.of(1, 2), RankingFilter.none(), null, 10))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimension mismatch");
    assertThatThrownBy(() -> idx.query(Coordinate.of(1, 2, 3), RankingFilter.none(), null, 0))
        .hasMessageContaining("pageSize");
    assertThatThrownBy(() -> idx.query(Coordinate.of(1, 2, 3), null, null, 5)).hasMessageContaining("filter");
    List<ServerEntry> dup = new ArrayList<>(all);
    dup.add(all.get(0));
    assertThatThrownBy(() -> RankingIndex.of(dup)).hasMessageContaining("duplicate");
    List<ServerEntry> mixed = new ArrayList<>(all);
    mixed.add(new ServerEntry("x:1", Coordinate.of(1, 2), null));
    assertThatThrownBy(() -> RankingIndex.of(mixed)).hasMessageContaining("dimension mismatch");
    assertThatThrownBy(() -> RankingIndex.ofDistinct(mixed)).hasMessageContaining("dimension mismatch");
    assertThatThrownBy(() -> idx.rankForGroup(List.of(), GroupObjective.MIN_MAX, 0, RankingFilter.none(), null, 5))
        .hasMessageContaining("group");
    assertThatThrownBy(() -> idx.rankForGroup(List.of(Coordinate.of(1, 2, 3)), GroupObjective.MEAN_UNDER_CEILING, 0,
        RankingFilter.none(), null, 5)).hasMessageContaining("ceiling");
    assertThatThrownBy(() -> new RankingFilter("", "", -1, false, false, null, 0, 0)).hasMessageContaining("minPlayers");
    assertThatThrownBy(() -> RankingFilter.none().withRttLimit(Double.NaN)).hasMessageContaining("rttLimitMs");
  }

  @Test
  void cursorRoundTripsExactlyAndRejectsGarbage() {
    Cursor c = new Cursor(Math.nextUp(123.456), "1.2.3.4:27015 with ünïcode");
    assertThat(Cursor.decode(c.encode())).isEqualTo(c);
    for (String bad : new String[] {null, "", "r1.", "r1.zz.abc", "x1.0.abc", "r1.7ff8000000000000.YQ", "r1.0.@@@",
        "r1.bff0000000000000.YQ", "r1." + "f".repeat(5000)}) {
      assertThatThrownBy(() -> Cursor.decode(bad)).as(String.valueOf(bad)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void concurrentQueriesOnASharedIndexAgree() throws Exception {
    RankingIndex idx = RankingIndex.of(world(5000, 4, false, 12));
    Coordinate client = Coordinate.of(10, 20, 30, 40);
    List<String> expected = idx.query(client, RankingFilter.none(), null, 230).servers().stream()
        .map(x -> x.server().key()).toList();
    Set<Boolean> ok = java.util.concurrent.ConcurrentHashMap.newKeySet();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread th = new Thread(() -> {
        for (int i = 0; i < 200; i++) {
          ok.add(idx.query(client, RankingFilter.none(), null, 230).servers().stream()
              .map(x -> x.server().key()).toList().equals(expected));
        }
      });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join(20_000);
    }
    assertThat(ok).containsExactly(true);
    assertThat(new HashSet<>(expected)).hasSize(230);
  }
}
