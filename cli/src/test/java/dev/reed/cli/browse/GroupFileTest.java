package dev.reed.cli.browse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.Coordinate;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupFileTest {
  @Test
  void coordinatesLocateLinesCommentsAndDefaultIds() {
    List<GroupFile.Entry> e = GroupFile.parse(List.of(
        "# my group",
        "alice  12.5 -3.0 40.1 7.0 h=2.5",
        "",
        "1,2,3,4   # bob forgot his name",
        "me @127.0.0.1:7400"), "friends.txt");
    assertThat(e).hasSize(3);
    assertThat(e.get(0)).isEqualTo(new GroupFile.Entry("alice", new Coordinate(new double[] {12.5, -3, 40.1, 7}, 2.5), null));
    assertThat(e.get(1)).isEqualTo(new GroupFile.Entry("member-2", Coordinate.of(1, 2, 3, 4), null));
    assertThat(e.get(2)).isEqualTo(new GroupFile.Entry("me", null, "127.0.0.1:7400"));
  }

  @Test
  void formatRoundTrips() {
    Coordinate c = new Coordinate(new double[] {1.5, -2, 3.25}, 4);
    assertThat(GroupFile.parse(List.of(GroupFile.format("me", c)), "x").get(0).coordinate()).isEqualTo(c);
  }

  @Test
  void badLinesNameFileAndLine() {
    assertThatThrownBy(() -> GroupFile.parse(List.of("alice 1 2", "bob 1 NaN"), "g.txt"))
        .hasMessageContaining("g.txt:2").hasMessageContaining("not a finite number");
    assertThatThrownBy(() -> GroupFile.parse(List.of("bob 1 x"), "g.txt")).hasMessageContaining("not a number: x");
    assertThatThrownBy(() -> GroupFile.parse(List.of("bob"), "g.txt")).hasMessageContaining("no coordinate");
    assertThatThrownBy(() -> GroupFile.parse(List.of("bob 1 2 h=-1"), "g.txt")).hasMessageContaining("height");
    assertThatThrownBy(() -> GroupFile.parse(List.of("# nothing"), "g.txt")).hasMessageContaining("no group members");
  }
}
