package dev.reed.coordinates.clustering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.clustering.ClusterOrder.Kind;
import dev.reed.coordinates.clustering.ClusterOrder.Pick;
import dev.reed.coordinates.clustering.ClusterOrder.Server;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterOrderTest {

  /** Drives the order against fixed RTTs (absent = no reply) and returns every pick in order. */
  private static List<Pick> drive(ClusterOrder o, Map<String, Double> rtt) {
    List<Pick> picks = new ArrayList<>();
    Pick p;
    while ((p = o.next()) != null) {
      picks.add(p);
      if (p.kind() != Kind.MEASURED) {
        Double ms = rtt.get(p.key());
        if (ms == null) {
          o.noReply(p.key());
        } else {
          o.replied(p.key(), ms);
        }
      }
    }
    return picks;
  }

  private static List<String> keys(List<Pick> picks) {
    return picks.stream().map(Pick::key).toList();
  }

  /** DE: a1 a2 a3, US: b1 b2 b3, JP: c1, unknown: u1 u2 u3. */
  private static final List<Server> LIST = List.of(new Server("a1", "DE"), new Server("b1", "US"), new Server("u1", null),
      new Server("a2", "DE"), new Server("c1", "JP"), new Server("b2", "US"), new Server("a3", "DE"), new Server("u2", ""),
      new Server("b3", "US"), new Server("u3", " "));

  private static Map<String, Double> rtts() {
    Map<String, Double> m = new HashMap<>();
    m.putAll(Map.of("a1", 30.0, "a2", 12.0, "a3", 11.0, "b1", 90.0, "b2", 100.0, "b3", 95.0, "c1", 250.0));
    m.putAll(Map.of("u1", 5.0, "u2", 400.0, "u3", 6.0));
    return m;
  }

  @Test
  void samplesEveryClusterThenProbesClustersByTheirLowestSample() {
    ClusterOrder o = new ClusterOrder(ClusterConfig.defaults(), LIST);
    assertThat(o.clusterCount()).isEqualTo(4);
    assertThat(o.sampleCount()).isEqualTo(7);
    List<Pick> picks = drive(o, rtts());
    // samples: the first two of each cluster in list order (JP has one)
    assertThat(keys(picks.subList(0, 7))).containsExactly("a1", "b1", "u1", "a2", "c1", "b2", "u2");
    assertThat(picks.subList(0, 7)).allMatch(p -> p.kind() == Kind.SAMPLE && Double.isNaN(p.predictedMs()));
    // unknown (5) < DE (12) < US (90) < JP (250); samples again ascending, then the rest
    assertThat(o.ranking()).containsExactly(null, "DE", "US", "JP");
    assertThat(keys(picks.subList(7, picks.size()))).containsExactly("u1", "u2", "u3", "a2", "a1", "a3", "b1", "b2", "b3", "c1");
    assertThat(picks.get(9)).isEqualTo(new Pick("u3", null, Kind.RANKED, 5.0));
    assertThat(picks.get(10)).isEqualTo(new Pick("a2", "DE", Kind.MEASURED, 12.0));
    assertThat(picks.get(12)).isEqualTo(new Pick("a3", "DE", Kind.RANKED, 12.0));
    assertThat(picks.stream().filter(p -> p.kind() != Kind.MEASURED).count()).isEqualTo(LIST.size());
    assertThat(o.exhausted()).isTrue();
  }

  @Test
  void theMedianRanksByTheTypicalSample() {
    ClusterOrder o = new ClusterOrder(new ClusterConfig(2, ClusterConfig.Statistic.MEDIAN), LIST);
    drive(o, rtts());
    // unknown: median of 5 and 400 = 202.5, now behind DE (21) and US (95)
    assertThat(o.ranking()).containsExactly("DE", "US", null, "JP");
  }

  @Test
  void aClusterNoSampleAnsweredComesLastAndSilentSamplesLastInTheirCluster() {
    Map<String, Double> rtt = rtts();
    rtt.remove("b1");
    rtt.remove("b2");
    rtt.remove("a1");
    ClusterOrder o = new ClusterOrder(ClusterConfig.defaults(), LIST);
    List<Pick> picks = drive(o, rtt);
    assertThat(o.ranking()).containsExactly(null, "DE", "JP", "US");
    List<String> de = picks.stream().skip(7).filter(p -> "DE".equals(p.cluster())).map(Pick::key).toList();
    assertThat(de).containsExactly("a2", "a1", "a3");
    Pick b3 = picks.stream().filter(p -> p.key().equals("b3")).findFirst().orElseThrow();
    assertThat(b3.predictedMs()).isNaN();
  }

  @Test
  void waitsForEverySampleBeforeRanking() {
    ClusterOrder o = new ClusterOrder(new ClusterConfig(1, ClusterConfig.Statistic.MIN),
        List.of(new Server("x1", "AS1"), new Server("x2", "AS1"), new Server("y1", "AS2"), new Server("y2", "AS2")));
    assertThat(o.next().key()).isEqualTo("x1");
    assertThat(o.next().key()).isEqualTo("y1");
    assertThat(o.next()).as("x1 and y1 unanswered").isNull();
    assertThat(o.exhausted()).isFalse();
    o.replied("y1", 20);
    o.replied("nobody", 1);
    assertThat(o.next()).as("x1 unanswered").isNull();
    o.replied("x1", 40);
    o.replied("x1", 1); // a second report changes nothing
    assertThat(keys(List.of(o.next(), o.next(), o.next(), o.next()))).containsExactly("y1", "y2", "x1", "x2");
    assertThat(o.next()).isNull();
    assertThat(o.exhausted()).isTrue();
  }

  @Test
  void labelsAndBadInput() {
    assertThat(ClusterOrder.asLabel(8075)).isEqualTo("AS8075");
    assertThat(ClusterOrder.asLabel(0)).isNull();
    assertThat(ClusterOrder.countryLabel(" de ")).isEqualTo("DE");
    assertThat(ClusterOrder.countryLabel("")).isNull();
    assertThatThrownBy(() -> new ClusterOrder(ClusterConfig.defaults(), List.of(new Server("a", "X"), new Server("a", "Y"))))
        .hasMessageContaining("a is listed twice");
    assertThatThrownBy(() -> new ClusterConfig(0, ClusterConfig.Statistic.MIN)).hasMessageContaining("probesPerCluster must be 1-64");
    ClusterOrder o = new ClusterOrder(ClusterConfig.defaults(), LIST);
    assertThatThrownBy(() -> o.replied("a1", Double.NaN)).hasMessageContaining("finite and >= 0");
    ClusterOrder empty = new ClusterOrder(ClusterConfig.defaults(), List.of());
    assertThat(empty.next()).isNull();
    assertThat(empty.exhausted()).isTrue();
  }
}
