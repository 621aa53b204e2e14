package dev.reed.coordinates.ranking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinates.Coordinate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RankingIndexScanTest {

  /** A score that is not the distance: by the key's last octet, every third entry unrankable. */
  private static double score(String key, double coordinateMs) {
    int last = Integer.parseInt(key.substring(key.lastIndexOf('.') + 1, key.indexOf(':')));
    if (last % 3 == 0) {
      return Double.NaN;
    }
    return (last % 17) + (Double.isNaN(coordinateMs) ? 0 : coordinateMs / 1000);
  }

  @Test
  void pagesThroughExactlyTheBruteForceOrderOfTheScore() {
    List<ServerEntry> all = RankingIndexTest.world(2000, 4, true, 5);
    RankingIndex index = RankingIndex.of(all);
    for (Coordinate client : new Coordinate[] {null, Coordinate.of(10, -20, 30, 5)}) {
      RankingFilter f = new RankingFilter("q3", "", 0, false, false, PasswordRule.ANY, 0, 12);
      List<Ranked> truth = all.stream().filter(e -> f.matches(e.attributes()))
          .map(e -> new Ranked(e, score(e.key(), client == null ? Double.NaN : RankingIndexTest.predicted(e.coordinate(), client))))
          .filter(r -> !Double.isNaN(r.predictedMs()) && r.predictedMs() <= 12)
          .sorted(Comparator.comparingDouble(Ranked::predictedMs).thenComparing(r -> r.server().key()))
          .collect(Collectors.toList());
      List<String> paged = new ArrayList<>();
      Cursor after = null;
      do {
        RankedPage p = index.scan(client, RankingIndexScanTest::score, f, after, 37);
        assertThat(p.totalMatching()).isEqualTo(truth.size());
        p.servers().forEach(r -> paged.add(r.server().key()));
        after = p.next();
      } while (after != null);
      assertThat(paged).as("client %s", client).containsExactlyElementsOf(truth.stream().map(r -> r.server().key()).toList());
      assertThat(truth).isNotEmpty();
    }
  }

  @Test
  void withTheDistanceAsScoreItAgreesWithTheTree() {
    List<ServerEntry> all = RankingIndexTest.world(3000, 4, false, 9);
    RankingIndex index = RankingIndex.of(all);
    Coordinate client = Coordinate.of(50, 50, -10, 0);
    RankedPage tree = index.query(client, RankingFilter.none(), null, 100);
    RankedPage scan = index.scan(client, (e, ms) -> ms, RankingFilter.none(), null, 100);
    assertThat(scan.servers()).isEqualTo(tree.servers());
    assertThat(scan.totalMatching()).isEqualTo(3000);
  }
}
