package dev.reed.testbed.world;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorldModelTest {

  @Test
  void addressPlanMapsEveryIndexToItsOwnLoopbackAddressAndBack() throws Exception {
    AddressPlan plan = AddressPlan.DEFAULT;
    for (int i : new int[] {0, 1, 253, 254, 255, 65_023, 65_024, 100_000, plan.capacity() - 1}) {
      InetAddress a = plan.address(i);
      assertThat(a.isLoopbackAddress()).isTrue();
      byte[] b = a.getAddress();
      assertThat(b[3] & 0xff).isBetween(1, 254);
      assertThat(plan.indexOf(a)).isEqualTo(i);
    }
    assertThat(plan.address(0).getHostAddress()).isEqualTo("127.100.0.1");
    assertThat(plan.address(254).getHostAddress()).isEqualTo("127.100.1.1");
    assertThat(plan.indexOf(InetAddress.getByName("127.0.0.1"))).isEqualTo(-1);
    assertThat(plan.indexOf(InetAddress.getByName("127.100.0.0"))).isEqualTo(-1);
    assertThat(plan.indexOf(InetAddress.getByName("10.100.0.1"))).isEqualTo(-1);
    assertThat(plan.indexOf(InetAddress.getByName("::1"))).isEqualTo(-1);
    assertThatThrownBy(() -> plan.address(plan.capacity())).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> new AddressPlan(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void syntheticWorldIsDeterministicSymmetricAndGeographic() {
    SyntheticWorldModel a = sample(42);
    SyntheticWorldModel b = sample(42);
    SyntheticWorldModel c = sample(43);
    assertThat(a.size()).isEqualTo(b.size());
    boolean differs = false;
    for (int i = 0; i < a.size(); i++) {
      assertThat(a.host(i)).isEqualTo(b.host(i));
      for (int j = 0; j < a.size(); j++) {
        assertThat(a.rttMs(i, j)).isEqualTo(b.rttMs(i, j)).isEqualTo(a.rttMs(j, i));
        differs |= a.rttMs(i, j) != c.rttMs(i, j);
      }
      assertThat(a.rttMs(i, i)).isZero();
    }
    assertThat(differs).as("another seed gives another world").isTrue();
    // landmarks: Frankfurt, London (the two biggest EU cities), New York, Tokyo, Sydney
    int fra = a.size() - 5;
    int lon = fra + 1;
    int nyc = fra + 2;
    int tyo = fra + 3;
    int syd = fra + 4;
    assertThat(a.host(fra).city()).isEqualTo("Frankfurt");
    assertThat(a.host(lon).city()).isEqualTo("London");
    double fraLon = dev.reed.coordinates.geo.GreatCircle.km(50.11, 8.68, 51.51, -0.13);
    assertThat(fraLon).isCloseTo(638, within(10.0));
    // 2 * 638 km / 200 km/ms * ~2.0 inflation + 2 x 1 ms access
    assertThat(a.rttMs(fra, lon)).isBetween(9.0, 25.0);
    assertThat(a.rttMs(fra, nyc)).isBetween(70.0, 160.0);
    assertThat(a.rttMs(fra, tyo)).isBetween(150.0, 320.0);
    assertThat(a.rttMs(nyc, syd)).isGreaterThan(a.rttMs(nyc, fra));
    assertThatThrownBy(() -> a.rttMs(0, a.size())).isInstanceOf(IndexOutOfBoundsException.class);
  }

  private static SyntheticWorldModel sample(long seed) {
    var b = SyntheticWorldModel.builder(seed);
    b.addGameServers(200);
    b.addLandmark("lm-eu-1", Region.EU);
    b.addLandmark("lm-eu-2", Region.EU);
    b.addLandmark("lm-na-1", Region.NA);
    b.addLandmark("lm-as-1", Region.AS);
    b.addLandmark("lm-oc-1", Region.OC);
    return b.build();
  }

  @Test
  void gameServersFollowTheHostingSkew() {
    var b = SyntheticWorldModel.builder(7);
    b.addGameServers(20_000);
    SyntheticWorldModel m = b.build();
    Map<Region, Long> counts = m.hosts().stream().collect(Collectors.groupingBy(Host::region, Collectors.counting()));
    double n = m.size();
    assertThat(counts.get(Region.EU) / n).isBetween(0.52, 0.60);
    assertThat(counts.get(Region.NA) / n).isBetween(0.24, 0.30);
    assertThat(counts.get(Region.AS) / n).isBetween(0.08, 0.12);
    assertThat(counts.get(Region.EU)).isGreaterThan(counts.get(Region.NA));
    assertThat(counts.get(Region.NA)).isGreaterThan(counts.get(Region.AS));
    assertThat(counts.keySet()).contains(Region.SA, Region.OC, Region.AF, Region.ME);
  }

  @Test
  void clientsHaveALastMileLandmarksDoNot() {
    var b = SyntheticWorldModel.builder(1);
    int lm = b.addLandmark("lm", City.named("Paris"));
    int cl = b.addClient("player", City.named("paris"));
    SyntheticWorldModel m = b.build();
    assertThat(m.accessMs(lm)).isEqualTo(1.0);
    assertThat(m.accessMs(cl)).isGreaterThanOrEqualTo(11.0);
    assertThatThrownBy(() -> City.named("Atlantis")).hasMessageContaining("Atlantis");
    assertThatThrownBy(() -> SyntheticWorldModel.builder(1).build()).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void matrixFilesLoadWithMissingCellsAndLabels(@TempDir Path dir) throws Exception {
    Path m = dir.resolve("matrix.csv");
    Files.writeString(m, "0,10.5,\n11,0,30\n,29,0\n");
    Files.writeString(dir.resolve("nodes.csv"), "index,name\n0,alpha\n1,beta\n2,gamma\n");
    MatrixModel model = MatrixModel.load(m);
    assertThat(model.size()).isEqualTo(3);
    assertThat(model.rttMs(0, 1)).isEqualTo(10.5);
    assertThat(model.rttMs(1, 0)).isEqualTo(11.0);
    assertThat(model.rttMs(0, 2)).isNaN();
    assertThat(model.rttMs(2, 2)).isZero();
    assertThat(model.host(2).label()).isEqualTo("gamma");
    assertThat(model.host(2).region()).isEqualTo(Region.UNKNOWN);
    WorldStatistics s = WorldStatistics.of(model, 1000, 1);
    assertThat(s.missingFraction()).isCloseTo(2 / 6.0, within(1e-9));
  }

  @Test
  void malformedMatricesFailWithLineAndColumn(@TempDir Path dir) throws Exception {
    assertThatThrownBy(() -> load(dir, "0,1\n1,zero\n")).isInstanceOf(IOException.class)
        .hasMessageContaining("line 2 column 2").hasMessageContaining("zero");
    assertThatThrownBy(() -> load(dir, "0,1,2\n1,0\n")).hasMessageContaining("line 2");
    assertThatThrownBy(() -> load(dir, "0,1\n1,0\n2,2\n")).hasMessageContaining("not square");
    assertThatThrownBy(() -> load(dir, "0,-1\n1,0\n")).hasMessageContaining(">= 0");
    assertThatThrownBy(() -> load(dir, "0,Infinity\n1,0\n")).hasMessageContaining(">= 0");
    assertThatThrownBy(() -> load(dir, "")).hasMessageContaining("empty");
    assertThatThrownBy(() -> MatrixModel.of(new double[][] {{0, 1}, {1}}, null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MatrixModel.of(new double[][] {{0, -2}, {1, 0}}, null)).isInstanceOf(IllegalArgumentException.class);
  }

  private static MatrixModel load(Path dir, String text) throws IOException {
    Path m = dir.resolve("bad.csv");
    Files.writeString(m, text);
    return MatrixModel.load(m);
  }

  @Test
  void theMeasuredMatricesLoad() throws Exception {
    Path data = Path.of(System.getProperty("reed.data.dir", "../data"));
    assertThat(data).as("the repository's data/ (data/README.md; -Dreed.data.dir)").isDirectory();
    MatrixModel seattle = MatrixModel.load(data.resolve("seattle99_netlatency/matrix.csv"));
    assertThat(seattle.size()).isEqualTo(99);
    assertThat(seattle.rttMs(0, 1)).isNotEqualTo(seattle.rttMs(1, 0)); // asymmetric data
    MatrixModel pl = MatrixModel.load(data.resolve("planetlab490_netlatency/matrix.csv"));
    assertThat(pl.host(3).label()).isEqualTo("planetlab490_3");
    World world = World.of(pl);
    assertThat(world.address(489).getHostAddress()).isEqualTo("127.100.1.236");
    assertThat(world.indexOf(world.address(489))).isEqualTo(489);
    assertThat(world.indexOf(world.plan().address(490))).isEqualTo(-1);
  }

  @Test
  void noiseAddsExponentialJitterAndLoss() {
    Noise noise = new Noise(4.0, 0.1);
    SplittableRandom rng = new SplittableRandom(3);
    double[] s = IntStream.range(0, 100_000).mapToDouble(i -> noise.sample(50, rng)).toArray();
    long lost = Arrays.stream(s).filter(Double::isNaN).count();
    assertThat(lost / 100_000.0).isCloseTo(0.1, within(0.01));
    double mean = Arrays.stream(s).filter(v -> !Double.isNaN(v)).average().orElseThrow();
    assertThat(mean).isCloseTo(54.0, within(0.2));
    assertThat(Arrays.stream(s).filter(v -> !Double.isNaN(v)).min().orElseThrow()).isGreaterThanOrEqualTo(50.0);
    assertThat(Noise.NONE.sample(50, rng)).isEqualTo(50.0);
    assertThat(noise.sample(Double.NaN, rng)).isNaN();
    assertThatThrownBy(() -> new Noise(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Noise(0, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void pathDelayIsHalfTheRttPerDirectionAndZeroForOutsiders() throws Exception {
    World world = World.of(MatrixModel.of(new double[][] {{0, 80, Double.NaN}, {80, 0, 20}, {Double.NaN, 20, 0}},
        List.of("a", "b", "c")));
    var delay = world.pathDelayTo(0, 1);
    assertThat(delay.oneWay(new InetSocketAddress(world.address(1), 5000))).isEqualTo(Duration.ofMillis(40));
    assertThat(delay.oneWay(new InetSocketAddress(world.address(2), 5000))).as("unreachable pair = lost").isNull();
    assertThat(delay.oneWay(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 5000))).isEqualTo(Duration.ZERO);
    World lossy = world.withNoise(new Noise(2.0, 0.19));
    var lossyDelay = lossy.pathDelayTo(0, 1);
    Function<Integer, Long> lostOf = n -> IntStream.range(0, n)
        .mapToObj(i -> lossyDelay.oneWay(new InetSocketAddress(world.address(1), 5000))).filter(d -> d == null).count();
    // each direction loses 1 - sqrt(0.81) = 10 %
    assertThat(lostOf.apply(20_000) / 20_000.0).isCloseTo(0.10, within(0.01));
  }
}
