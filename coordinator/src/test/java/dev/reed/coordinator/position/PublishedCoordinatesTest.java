package dev.reed.coordinator.position;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ServerCoordinate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a replica last published per target: read back as it was, forgotten on removal, its dead bytes bounded. */
class PublishedCoordinatesTest {
  private static final List<String> ROUND = List.of("lm-a", "lm-b", "lm-c");

  private static ServerCoordinate coordinate(int target, int round, List<String> ids) {
    ServerCoordinate.Builder b = ServerCoordinate.newBuilder()
        .setEndpoint(Endpoint.newBuilder().setIp("10.2." + target / 250 + "." + target % 250).setPort(27960))
        .setCoordinate(dev.reed.proto.v1.Coordinate.newBuilder().addComponents(target).addComponents(round).setHeightMs(2))
        .setRound(round);
    for (int i = 0; i < ids.size(); i++) b.addLandmarkRtts(LandmarkRtt.newBuilder().setLandmarkId(ids.get(i)).setRttUs(1000 * i + round));
    return b.build();
  }

  /** What the target last published, null for none. */
  private static ServerCoordinate coordinate(PublishedCoordinates published, String key) {
    int s = published.slot(key);
    return s < 0 ? null : published.coordinate(s);
  }

  /** When the target last published, null for none. */
  private static Long at(PublishedCoordinates published, String key) {
    int s = published.slot(key);
    return s < 0 ? null : published.at(s);
  }

  private static String key(int target) {
    return "10.2." + target / 250 + "." + target % 250 + ":27960";
  }

  @Test
  void readsBackWhatWasPublishedWithItsOwnLandmarksAndForgetsRemovedTargets() {
    PublishedCoordinates published = new PublishedCoordinates();
    ServerCoordinate usual = coordinate(1, 4, ROUND);
    ServerCoordinate other = coordinate(2, 4, List.of("lm-c", "lm-a")); // not the round's landmarks
    ServerCoordinate none = coordinate(3, 4, List.of());
    published.put(key(1), usual, ROUND, 100);
    published.put(key(2), other, ROUND, 200);
    published.put(key(3), none, ROUND, 300);

    assertThat(coordinate(published, key(1))).isEqualTo(usual);
    assertThat(coordinate(published, key(2))).isEqualTo(other);
    assertThat(coordinate(published, key(3))).isEqualTo(none);
    assertThat(at(published, key(2))).isEqualTo(200L);
    assertThat(coordinate(published, key(4))).isNull();
    assertThat(at(published, key(4))).isNull();

    ServerCoordinate again = coordinate(1, 5, ROUND);
    published.put(key(1), again, ROUND, 400);
    published.remove(key(2));
    published.remove(key(2));
    published.removeIf(k -> k.equals(key(3)));
    assertThat(published.size()).isEqualTo(1);
    assertThat(coordinate(published, key(1))).isEqualTo(again);
    assertThat(at(published, key(1))).isEqualTo(400L);
    assertThat(coordinate(published, key(2))).isNull();
    assertThat(coordinate(published, key(3))).isNull();
    published.put(key(5), usual, ROUND, 500); // takes a free slot
    assertThat(coordinate(published, key(5))).isEqualTo(usual);
    assertThat(coordinate(published, key(1))).isEqualTo(again);
  }

  @Test
  void deadBytesStayBoundedWhenSomeTargetsStopBeingRepublished() {
    int chunk = 4096;
    PublishedCoordinates published = new PublishedCoordinates(chunk);
    Map<String, ServerCoordinate> last = new HashMap<>();
    long written = 0;
    for (int round = 0; round < 60; round++) {
      // every round one target in 60 stops being republished: without compaction each round's chunks stay
      for (int t = 0; t < 3_000; t++) {
        if (t % 60 < round) continue;
        ServerCoordinate c = coordinate(t, round, ROUND);
        published.put(key(t), c, ROUND, round);
        last.put(key(t), c);
        written += c.getSerializedSize();
      }
      long live = 0;
      for (ServerCoordinate c : last.values()) live += c.toBuilder().clearLandmarkRtts().build().getSerializedSize() + 4 * 3;
      assertThat(published.chunks().held()).as("round " + round).isLessThanOrEqualTo(2 * live + 9L * chunk);
    }
    assertThat(written).isGreaterThan(5 * published.chunks().held());
    last.forEach((k, c) -> assertThat(coordinate(published, k)).as(k).isEqualTo(c));
  }
}
