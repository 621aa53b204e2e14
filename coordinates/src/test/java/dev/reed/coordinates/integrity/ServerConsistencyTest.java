package dev.reed.coordinates.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.geo.Place;
import org.junit.jupiter.api.Test;

class ServerConsistencyTest {
  // five landmarks on a line, 1 ms of RTT per unit
  private static final double[] AT = {0, 40, 100, 150, 160};
  private final ServerConsistency check = new ServerConsistency(IntegrityConfig.defaults());

  static double[][] mesh() {
    double[][] m = new double[AT.length][AT.length];
    for (int a = 0; a < AT.length; a++) for (int b = 0; b < AT.length; b++) m[a][b] = Math.abs(AT[a] - AT[b]);
    return m;
  }

  static double[] hostAt(double x) {
    double[] r = new double[AT.length];
    for (int k = 0; k < AT.length; k++) r[k] = Math.abs(AT[k] - x) + 2;
    return r;
  }

  @Test
  void aHostAnywhereOnTheLineIsOk() {
    MeshBounds b = check.bounds(mesh(), null, null);
    for (double x = -50; x <= 210; x += 5) {
      assertThat(check.check(b, hostAt(x), null, null).kind()).as("x=%s", x).isEqualTo(IntegrityKind.OK);
    }
  }

  @Test
  void nearTwoFarLandmarksIsAnycast() {
    MeshBounds b = check.bounds(mesh(), null, null);
    double[] r = {3, 45, 60, 8, 4}; // near landmark 0 and landmark 4, 160 ms apart
    IntegrityVerdict v = check.check(b, r, null, null);
    assertThat(v.kind()).isEqualTo(IntegrityKind.ANYCAST_OR_PROXY);
    assertThat(v.violatingPairs()).isGreaterThanOrEqualTo(2);
    assertThat(v.worstViolationMs()).isEqualTo(160 - 7, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(v.evidence()).contains("#0").contains("#4");
  }

  @Test
  void aProxyBesideOneLandmarkIsFlagged() {
    MeshBounds b = check.bounds(mesh(), null, null);
    double[] r = hostAt(160);
    for (int k = 1; k < r.length; k++) r[k] += 5; // detour through the proxy
    r[0] = 1; // the proxy answers landmark 0 itself
    assertThat(check.check(b, r, null, null).kind()).isEqualTo(IntegrityKind.ANYCAST_OR_PROXY);
  }

  @Test
  void sumsBelowTheMeshFarFromTheLandmarksAreInconsistent() {
    MeshBounds b = check.bounds(mesh(), null, null);
    // beside landmark 0 yet only 60 ms from landmarks 150 and 160 ms from it: short sums, but not
    // near both ends of either pair
    double[] r = {2, 50, 110, 58, 60};
    IntegrityVerdict v = check.check(b, r, null, null);
    assertThat(v.violatingPairs()).isEqualTo(2);
    assertThat(v.kind()).isEqualTo(IntegrityKind.INCONSISTENT);
  }

  @Test
  void oneViolatedPairIsNotEnough() {
    MeshBounds b = check.bounds(mesh(), null, null);
    double[] r = hostAt(0);
    r[4] = 50; // (0,4): 52 < 160 * 0.5 - 10; every other pair holds
    IntegrityVerdict v = check.check(b, r, null, null);
    assertThat(v.violatingPairs()).isEqualTo(1);
    assertThat(v.kind()).isEqualTo(IntegrityKind.OK);
  }

  @Test
  void theMeshsOwnDetoursDoNotFlagAServerOnTheShortPath() {
    double[][] m = mesh();
    m[0][4] = m[4][0] = 400; // a detoured mesh route; via landmark 1 it is 160
    MeshBounds b = check.bounds(m, null, null);
    assertThat(b.reference(0, 4)).isEqualTo(160);
    assertThat(check.check(b, hostAt(80), null, null).kind()).isEqualTo(IntegrityKind.OK);
  }

  @Test
  void lightFloorOfLocatedLandmarksAndTheServersOwnLocation() {
    Place frankfurt = Place.of(50.1, 8.7);
    Place sydney = Place.of(-33.9, 151.2);
    Place newYork = Place.of(40.7, -74.0);
    Place tokyo = Place.of(35.7, 139.7);
    Place[] places = {frankfurt, sydney, newYork, tokyo, frankfurt};
    double[][] nothing = new double[5][5];
    for (double[] row : nothing) java.util.Arrays.fill(row, Double.NaN);
    MeshBounds b = check.bounds(nothing, places, null);
    // no mesh at all: the light floor alone says Frankfurt-Sydney needs >= 165 ms
    IntegrityVerdict anycast = check.check(b, new double[] {5, 5, 5, 5, 5}, null, places);
    assertThat(anycast.kind()).isEqualTo(IntegrityKind.ANYCAST_OR_PROXY);
    // a server said to be in Frankfurt, measured 5 ms from New York and far from the rest: one
    // contradiction (a stale location entry) is not enough; 5 ms from Sydney too is
    MeshBounds none = MeshBounds.of(new double[5][5], null, null);
    IntegrityVerdict moved = check.check(none, new double[] {300, 300, 5, 300, 300}, frankfurt, places);
    assertThat(moved.lightViolations()).isEqualTo(1);
    assertThat(moved.kind()).isEqualTo(IntegrityKind.OK);
    IntegrityVerdict twice = check.check(none, new double[] {300, 5, 5, 300, 300}, frankfurt, places);
    assertThat(twice.kind()).isEqualTo(IntegrityKind.INCONSISTENT);
    assertThat(twice.evidence()).contains("light floor");
  }

  @Test
  void badInputIsRejectedWithTheReason() {
    MeshBounds b = check.bounds(mesh(), null, null);
    assertThatThrownBy(() -> check.check(b, new double[3], null, null)).hasMessageContaining("3 values for 5");
    assertThatThrownBy(() -> check.bounds(new double[][] {{0, 1}, {1}}, null, null)).hasMessageContaining("square");
    assertThatThrownBy(() -> IntegrityConfig.defaults().with(java.util.Map.of("nearShare", "0"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IntegrityConfig.defaults().with(java.util.Map.of("bogus", "1")))
        .hasMessageContaining("unknown key bogus; allowed: absoluteToleranceMs, relativeTolerance");
    assertThat(IntegrityConfig.defaults().with(java.util.Map.of("relativeTolerance", "0.3")).relativeTolerance()).isEqualTo(0.3);
  }
}
