package dev.reed.coordinates.bench;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.PasswordRule;
import dev.reed.coordinates.ranking.RankedPage;
import dev.reed.coordinates.ranking.RankingFilter;
import dev.reed.coordinates.ranking.RankingIndex;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Algorithm 4 on one core: the first page (230, the Valve master's page) of the ordered list for
 * a random client, over 50,000 and 1,000,000 servers in 4-D, with and without the height model
 * (the default model has none: CoordinateConfig.defaults()). "none" is the unfiltered list;
 * "filtered" asks for one game, not full, no password (counts every match for totalMatching).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@Threads(1)
public class RankingBenchmark {

  @Param({"50000", "1000000"})
  int servers;

  @Param({"none", "filtered"})
  String filter;

  @Param({"false", "true"})
  boolean height;

  RankingIndex index;
  List<Coordinate> clients;
  RankingFilter rankingFilter;
  int next;

  @Setup(Level.Trial)
  public void setUp() {
    index = RankingIndex.of(BenchWorld.servers(servers, 4, height, 42));
    clients = BenchWorld.clients(4096, 4, height, 7);
    rankingFilter = filter.equals("none") ? RankingFilter.none()
        : new RankingFilter("openarena", "", 0, true, false, PasswordRule.EXCLUDE, 0, 0);
  }

  @Benchmark
  public RankedPage firstPage() {
    Coordinate c = clients.get(next++ & 4095);
    return index.query(c, rankingFilter, null, 230);
  }
}
