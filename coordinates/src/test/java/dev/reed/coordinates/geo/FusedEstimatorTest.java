package dev.reed.coordinates.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A synthetic deployment where RTT is 2 ms + 0.015 ms/km + each end's access delay: the estimator
 * must recover the line and the servers' access delays from landmark data alone.
 */
class FusedEstimatorTest {
  private static final int L = 12;
  private static final int S = 60;

  private final SplittableRandom r = new SplittableRandom(21);
  private final Place[] lm = new Place[L];
  private final Place[] srv = new Place[S];
  private final double[] lmAccess = new double[L];
  private final double[] srvAccess = new double[S];

  private Place randomPlace() {
    return new Place(r.nextDouble(-50, 60), r.nextDouble(-120, 150), null);
  }

  private static double rtt(Place a, double accessA, Place b, double accessB) {
    return 2 + 0.015 * a.kmTo(b) + accessA + accessB;
  }

  private LandmarkData deployment() {
    for (int k = 0; k < L; k++) {
      lm[k] = randomPlace();
      lmAccess[k] = r.nextDouble(0, 2);
    }
    for (int s = 0; s < S; s++) {
      srv[s] = randomPlace();
      srvAccess[s] = r.nextDouble(0, 30);
    }
    double[][] mesh = new double[L][L];
    for (int k = 0; k < L; k++) {
      for (int k2 = 0; k2 < L; k2++) {
        mesh[k][k2] = k == k2 ? Double.NaN : rtt(lm[k], lmAccess[k], lm[k2], lmAccess[k2]);
      }
    }
    double[][] serverMs = new double[S][L];
    for (int s = 0; s < S; s++) {
      for (int k = 0; k < L; k++) {
        serverMs[s][k] = rtt(lm[k], lmAccess[k], srv[s], srvAccess[s]);
      }
    }
    return new LandmarkData(lm, mesh, srv, serverMs);
  }

  @Test
  void learnsTheLineAndEachServersExcessFromLandmarkDataAlone() {
    LandmarkData d = deployment();
    GeoPrior prior = GeoPrior.learn(EstimatorModel.defaults(), d, -1);
    assertThat(prior.model().global().msPerKm()).isCloseTo(0.015, within(0.001));
    // the excess is the server's access delay up to one shared offset (the line's intercept absorbs the median)
    double offset = prior.serverExcessMs()[0] - srvAccess[0];
    for (int s = 0; s < S; s++) {
      assertThat(prior.serverExcessMs()[s] - srvAccess[s]).as("server %d", s).isCloseTo(offset, within(3.0));
    }
    // a new client at a known place with an access delay of 5 ms, having measured every landmark
    Place client = new Place(48.85, 2.35, null);
    double[] toLandmark = new double[L];
    for (int k = 0; k < L; k++) {
      toLandmark[k] = rtt(client, 5, lm[k], lmAccess[k]);
    }
    double excess = prior.clientExcessMs(client, toLandmark);
    for (int s = 0; s < S; s++) {
      double truth = rtt(client, 5, srv[s], srvAccess[s]);
      assertThat(prior.predictMs(client, s, excess)).as("server %d", s).isCloseTo(truth, within(Math.max(3, 0.1 * truth)));
    }
  }

  @Test
  void crossValidationGivesNoWeightToACoordinateSourceThatIsNoise() {
    LandmarkData d = deployment();
    double[][] noise = new double[L][S];
    for (double[] row : noise) {
      for (int s = 0; s < S; s++) {
        row[s] = r.nextDouble(0, 300);
      }
    }
    FusedEstimator e = FusedEstimator.train(EstimatorModel.defaults(), d, noise);
    assertThat(e.folds()).isEqualTo(L);
    assertThat(e.weights().coordinate()).isLessThanOrEqualTo(0.05);
    assertThat(e.cvError()).isLessThan(0.1);
    // with no probe the prediction is the geographic one, the client taken as a typical server
    assertThat(e.predictMs(lm[0], null, 3, Double.NaN))
        .isEqualTo(e.prior().predictMs(lm[0], 3, e.prior().typicalExcessMs()));
  }

  @Test
  void calibrationMovesAWronglyLocatedClientToWhereItsRttsSayItIs() {
    LandmarkData d = deployment();
    FusedEstimator e = FusedEstimator.train(EstimatorModel.defaults(), d, null);
    Place truth = srv[7];
    double[] toLandmark = new double[L];
    for (int k = 0; k < L; k++) {
      toLandmark[k] = rtt(truth, 4, lm[k], lmAccess[k]);
    }
    double[] far = GreatCircle.destination(truth.lat(), truth.lon(), 3000, 1.0);
    Place wrong = new Place(far[0], far[1], null);
    assertThat(e.locate(wrong, toLandmark, 10).kmTo(truth)).isLessThan(500);
    // a prior that explains the RTTs is kept, and without RTTs nothing moves
    Place near = new Place(truth.lat(), truth.lon(), null);
    assertThat(e.locate(near, toLandmark, 10)).isSameAs(near);
    assertThat(e.locate(wrong, null, 10)).isSameAs(wrong);
  }

  @Test
  void aDeploymentWithoutLocationsCannotTrain() {
    LandmarkData d = new LandmarkData(new Place[2], new double[][] {{0, 5}, {5, 0}}, new Place[1], new double[][] {{3, 4}});
    assertThatThrownBy(() -> FusedEstimator.train(EstimatorModel.defaults(), d, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LandmarkData(new Place[2], new double[][] {{0, 5}}, new Place[0], new double[0][]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mesh has 1 rows");
  }

  @Test
  void uncertaintiesAreTheMedianErrorsOfEachKindInCrossValidation() {
    LandmarkData d = deployment();
    double[][] noise = new double[L][S];
    for (double[] row : noise) {
      for (int s = 0; s < S; s++) {
        row[s] = r.nextDouble(0, 300);
      }
    }
    FusedEstimator e = FusedEstimator.train(EstimatorModel.defaults(), d, noise);
    CvErrors err = e.errors();
    // the geography is the truth up to access delays, the coordinates are noise
    assertThat(err.geo()).isLessThan(0.1);
    assertThat(err.coordinates()).isGreaterThan(0.3);
    assertThat(err.geoAndCoordinates()).isLessThan(0.1);
    assertThat(err.fused()).isLessThan(0.1);
    FusedEstimator noCoordinates = FusedEstimator.train(EstimatorModel.defaults(), d, null);
    assertThat(noCoordinates.errors().coordinates()).isNaN();
    assertThat(noCoordinates.errors().geoAndCoordinates()).isNaN();
  }

  @Test
  void aServerNotLearnedFromIsPredictedAsALearnedOneWouldBe() {
    LandmarkData d = deployment();
    GeoPrior prior = GeoPrior.learn(EstimatorModel.defaults(), d, -1);
    Place client = new Place(40.4, -3.7, null);
    for (int s = 0; s < 5; s++) {
      double excess = prior.hostExcessMs(srv[s], d.serverMs()[s], 3);
      assertThat(excess).isEqualTo(prior.serverExcessMs()[s]);
      assertThat(prior.predictMs(client, srv[s], excess, 2)).isEqualTo(prior.predictMs(client, s, 2));
    }
    assertThat(prior.predictMs(null, srv[0], 0, 0)).isNaN();
    assertThat(prior.hostExcessMs(null, d.serverMs()[0], 3)).isZero();
    assertThat(prior.hostExcessMs(srv[0], new double[L], 3)).isNotZero(); // RTTs of 0 are measurements
    double[] none = new double[L];
    java.util.Arrays.fill(none, Double.NaN);
    assertThat(prior.hostExcessMs(srv[0], none, 3)).isZero();
  }

  @Test
  void leaveOneOutCoordinatesNeverSeeTheHeldOutRtt() {
    // landmarks and servers on a 2-D plane where RTT is the distance: positioning without landmark
    // k must still find every server, so the distance to k is the true RTT even when k's own RTT lies
    dev.reed.coordinates.CoordinateConfig cfg = new dev.reed.coordinates.CoordinateConfig(2, false);
    java.util.List<dev.reed.coordinates.Coordinate> lms = java.util.List.of(dev.reed.coordinates.Coordinate.of(0, 0),
        dev.reed.coordinates.Coordinate.of(100, 0), dev.reed.coordinates.Coordinate.of(0, 100),
        dev.reed.coordinates.Coordinate.of(100, 100));
    double[][] srvXy = {{30, 40}, {70, 20}, {50, 80}};
    double[][] ms = new double[3][4];
    for (int j = 0; j < 3; j++) {
      for (int k = 0; k < 4; k++) {
        ms[j][k] = Math.hypot(srvXy[j][0] - lms.get(k).component(0), srvXy[j][1] - lms.get(k).component(1));
      }
    }
    double[] lie = ms[0].clone();
    ms[0][2] = 999; // landmark 2's RTT to server 0 is wrong: the fold without it must not care
    double[][] out = new LeaveOneOutCoordinates(new dev.reed.coordinates.HostPositioner(cfg), Double.NaN)
        .distances(lms, new double[4][4], ms, null);
    assertThat(out[2][0]).isCloseTo(lie[2], within(1.0));
    assertThat(out[0][1]).isCloseTo(ms[1][0], within(1.0));
    // with only D landmarks left a server cannot be positioned
    double[][] few = new LeaveOneOutCoordinates(new dev.reed.coordinates.HostPositioner(cfg), Double.NaN)
        .distances(lms.subList(0, 3), new double[3][3], new double[][] {{1, 2, 3}}, null);
    assertThat(few[0][0]).isNaN();
  }
}
