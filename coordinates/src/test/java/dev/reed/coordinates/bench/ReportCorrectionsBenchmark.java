package dev.reed.coordinates.bench;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.reports.ClientReport;
import dev.reed.coordinates.reports.NeighbourhoodCorrections;
import dev.reed.coordinates.reports.ReportConfig;
import dev.reed.coordinates.reports.ReportScreen;
import dev.reed.coordinates.reports.ReportedServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What client reports cost the coordinator, on one core: learning one report (50 RTTs)
 * and the report_factor of a 230-server page, with every one of 5,000 servers full (64
 * observations, 320,000 in all, from 20,000 reports). Reporters sit at 500 sites, each with its 15
 * landmark RTTs plus 0.2 ms of noise, so a client shares its site with a few reporters of a server
 * and is far from the rest: the mix the serving path sees.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Threads(1)
public class ReportCorrectionsBenchmark {
  static final int SERVERS = 5000;
  static final int SITES = 500;
  static final int LANDMARKS = 15;

  NeighbourhoodCorrections corrections;
  Coordinate[] servers;
  Coordinate[] siteCoordinate;
  double[][] siteLandmarks;
  SplittableRandom random;
  int next;

  @Setup(Level.Trial)
  public void setUp() {
    random = new SplittableRandom(42);
    corrections = new NeighbourhoodCorrections(ReportConfig.defaults());
    servers = new Coordinate[SERVERS];
    for (int i = 0; i < SERVERS; i++) servers[i] = point();
    siteCoordinate = new Coordinate[SITES];
    siteLandmarks = new double[SITES][LANDMARKS];
    for (int s = 0; s < SITES; s++) {
      siteCoordinate[s] = point();
      for (int l = 0; l < LANDMARKS; l++) siteLandmarks[s][l] = 5 + random.nextDouble(200);
    }
    for (int k = 0; k < 20_000; k++) corrections.add(report(k));
  }

  private Coordinate point() {
    return new Coordinate(new double[] {random.nextDouble(300), random.nextDouble(300), random.nextDouble(50),
        random.nextDouble(50)}, 0);
  }

  private Map<String, Double> landmarks(int site) {
    Map<String, Double> out = new HashMap<>();
    for (int l = 0; l < LANDMARKS; l++) out.put("lm-" + l, siteLandmarks[site][l] + random.nextDouble(0.2));
    return out;
  }

  private ReportScreen.Screened report(int k) {
    int site = random.nextInt(SITES);
    Coordinate me = siteCoordinate[site];
    Map<String, Double> rtt = new HashMap<>();
    Map<String, ReportScreen.Kept> kept = new HashMap<>();
    for (int j = 0; j < 50; j++) {
      int s = random.nextInt(SERVERS);
      double ms = me.distanceTo(servers[s]) * (0.7 + random.nextDouble(0.8));
      rtt.put("s" + s, ms);
      kept.put("s" + s, new ReportScreen.Kept(new ReportedServer(servers[s], Map.of(), null), ms));
    }
    ClientReport r = new ClientReport(me, null, landmarks(site), rtt, Set.of(), List.of("p:" + k, "k:" + (k % 10)), k);
    return new ReportScreen.Screened(r, kept, Map.of(), 0, 0, 0);
  }

  @Benchmark
  public int learnOneReport() {
    return corrections.add(report(20_000 + next++));
  }

  @Benchmark
  public double factorsOfOnePage() {
    int site = random.nextInt(SITES);
    NeighbourhoodCorrections.Query q = corrections.query(siteCoordinate[site], landmarks(site), 30_000);
    double sum = 0;
    for (int i = 0; i < 230; i++) {
      int s = random.nextInt(SERVERS);
      sum += q.factor("s" + s, servers[s]);
    }
    return sum;
  }
}
