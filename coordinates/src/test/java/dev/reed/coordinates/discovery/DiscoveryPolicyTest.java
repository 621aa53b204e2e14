package dev.reed.coordinates.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DiscoveryPolicyTest {
  private static final CoordinateConfig GEOMETRY = new CoordinateConfig(2, false);
  private static final Coordinate CLIENT = Coordinate.of(10, 10);

  /** Beacons on a grid and game servers near the client; answers with the true distance, minus the silent ones. */
  private static final class World implements CalibrationSource, CalibrationProber {
    final List<CalibrationPoint> beacons = new ArrayList<>();
    final List<CalibrationPoint> servers = new ArrayList<>();
    final List<List<String>> batches = new ArrayList<>();
    final List<String> calls = new ArrayList<>();
    Set<String> silent = Set.of();
    boolean nearFails;

    World() {
      int k = 0;
      for (int x = -200; x <= 200; x += 100) {
        for (int y = -200; y <= 200; y += 100) {
          beacons.add(new CalibrationPoint("b" + k, Coordinate.of(x, y), "lm" + k++));
        }
      }
      for (int j = 0; j < 5; j++) {
        servers.add(new CalibrationPoint("g" + j, Coordinate.of(12 + j, 9), ""));
      }
    }

    @Override
    public List<CalibrationPoint> spread(int count, Kind kind) {
      calls.add("spread " + kind);
      return (kind == Kind.BEACON ? beacons : all()).stream().limit(count).toList();
    }

    @Override
    public List<CalibrationPoint> nearest(Coordinate around, int count, Kind kind) {
      calls.add("near " + kind);
      if (nearFails) {
        return null;
      }
      return (kind == Kind.BEACON ? beacons : all()).stream()
          .sorted(Comparator.comparingDouble(p -> around.distanceTo(p.coordinate()))).limit(count).toList();
    }

    @Override
    public Map<String, Double> probe(List<CalibrationPoint> batch, int minReplies) {
      batches.add(batch.stream().map(CalibrationPoint::key).toList());
      Map<String, Double> out = new HashMap<>();
      for (CalibrationPoint p : batch) {
        if (!silent.contains(p.key())) {
          out.put(p.key(), CLIENT.distanceTo(p.coordinate()));
        }
      }
      return out;
    }

    private List<CalibrationPoint> all() {
      List<CalibrationPoint> out = new ArrayList<>(beacons);
      out.addAll(servers);
      return out;
    }
  }

  @Test
  void spreadThenTheNearBeaconsThenAnyKindForWhatIsLeft() {
    World w = new World();
    DiscoveryModel model = DiscoveryModel.defaults().withCalibration(10, 0, DiscoveryModel.NearCalibration.BEACONS);
    Calibration cal = new DiscoveryPolicy(model, GEOMETRY).calibrate(w, w);
    assertThat(w.batches.get(0)).hasSize(4); // D+2
    // within 100 ms of (10, 10): b12 (0,0), b7 (-100,0)... only the beacons at distance <= 100 qualify
    assertThat(w.batches.get(1)).hasSize(6);
    assertThat(w.calls).containsExactly("spread BEACON", "near BEACON", "near ANY");
    assertThat(w.batches.get(1)).contains("b12").anyMatch(k -> k.startsWith("g"));
    for (String key : w.batches.get(1)) {
      CalibrationPoint p = (key.startsWith("g") ? w.servers : w.beacons).stream().filter(x -> x.key().equals(key)).findFirst().orElseThrow();
      assertThat(p.beacon() ? CLIENT.distanceTo(p.coordinate()) <= 100 + 30 : true).isTrue();
    }
    assertThat(cal.probes()).isEqualTo(10);
    assertThat(cal.position().distanceTo(CLIENT)).isLessThan(1);
    assertThat(cal.landmarkRttMs()).containsKey("lm12").doesNotContainKey("");
  }

  @Test
  void whenTheNearPhaseCannotRunTheRestOfTheSpreadSetIsProbed() {
    World w = new World();
    w.nearFails = true;
    Calibration cal = new DiscoveryPolicy(DiscoveryModel.defaults(), GEOMETRY).calibrate(w, w);
    assertThat(w.batches.get(1)).containsExactlyElementsOf(w.beacons.subList(4, 10).stream().map(CalibrationPoint::key).toList());
    assertThat(cal.position().distanceTo(CLIENT)).isLessThan(1);

    World silent = new World();
    silent.silent = Set.of("b0", "b1"); // the spread phase gets 2 of 4 replies: too few for a rough fit
    Calibration c2 = new DiscoveryPolicy(DiscoveryModel.defaults(), GEOMETRY).calibrate(silent, silent);
    assertThat(silent.calls).doesNotContain("near BEACON");
    assertThat(c2.probes()).isEqualTo(10);
  }

  @Test
  void tooFewBeaconsMeansASpreadOfAnyKindAndTooFewRepliesAClearError() {
    World w = new World();
    w.beacons.subList(2, w.beacons.size()).clear();
    new DiscoveryPolicy(DiscoveryModel.defaults(), GEOMETRY).calibrate(w, w);
    assertThat(w.calls.subList(0, 2)).containsExactly("spread BEACON", "spread ANY");

    World dead = new World();
    dead.silent = Set.of("b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8");
    assertThatThrownBy(() -> new DiscoveryPolicy(DiscoveryModel.defaults(), GEOMETRY).calibrate(dead, dead))
        .isInstanceOf(InsufficientCalibrationException.class).hasMessageContaining("only 1 of 10").hasMessageContaining("needs 3");

    World empty = new World();
    empty.beacons.clear();
    empty.servers.clear();
    assertThatThrownBy(() -> new DiscoveryPolicy(DiscoveryModel.defaults(), GEOMETRY).calibrate(empty, empty))
        .isInstanceOf(InsufficientCalibrationException.class).hasMessageContaining("offers 0");
  }
}
