package dev.reed.cli.demo;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.Stats;
import dev.reed.coordinator.Coordinator;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.testbed.emulated.EmulatedGameServers;
import dev.reed.testbed.emulated.EmulatedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The landmarks' measurement: the mesh rounds that embed the landmarks, the catalog that gives
 * the agents their targets, then rounds of every landmark probing every server until the
 * coordinator's median fit error stops improving. Each round's figures describe coordinates that
 * include the round: the round ends once the coordinator has positioned the servers with it.
 */
final class MeasurementRounds {
  private static final Logger log = LoggerFactory.getLogger(MeasurementRounds.class);
  /** Random server pairs whose predicted RTT is checked against the world each round. */
  private static final int PAIRS = 2000;

  private final DemoEnvironment env;
  private final DemoOptions options;
  private final Progress progress;
  private final Heartbeat heartbeat;
  private final List<Double> delayErrors = new ArrayList<>();

  MeasurementRounds(DemoEnvironment env, DemoOptions options, Progress progress, Heartbeat heartbeat) {
    this.env = env;
    this.options = options;
    this.progress = progress;
    this.heartbeat = heartbeat;
  }

  /**
   * The mesh, the catalog, then measurement rounds until the coordinates converge or the round cap.
   *
   * @param out receives each measurement round's figures
   * @return true when converged before the cap
   */
  boolean run(List<RoundFigures> out) throws IOException, InterruptedException {
    meshRounds();
    publishCatalog();
    return measure(out);
  }

  /** The delay error over every measurement round's answered landmark probes so far. */
  DelayError delayError() {
    return DelayError.of(delayErrors.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /**
   * The landmark mesh first, with no targets yet: a round's mesh probes go to the landmarks
   * announced before it, so the first round introduces the landmarks and the second measures the
   * full mesh; the coordinator then embeds them (GNP) and can position targets from then on.
   */
  private void meshRounds() throws IOException, InterruptedException {
    long t = progress.now();
    Coordinator coordinator = env.coordinator();
    int landmarks = env.landmarks().size();
    int rounds = 0;
    boolean embedded = false;
    try (var a = heartbeat.begin("landmark mesh", () -> coordinator.servingState().landmarks().size() + "/" + landmarks
        + " landmarks embedded")) {
      while (!embedded && rounds < 4) {
        env.round();
        rounds++;
        if (rounds >= 2) {
          embedded = DemoEnvironment.await(Duration.ofSeconds(20), () -> coordinator.servingState().landmarks().size() >= landmarks);
        }
      }
    }
    ServingState s = coordinator.servingState();
    if (s.landmarks().size() <= options.dimensions()) {
      throw new IOException("the coordinator embedded only " + s.landmarks().size() + " of " + landmarks
          + " landmarks after " + rounds + " mesh rounds; cannot position servers");
    }
    double[] errors = s.landmarks().values().stream().mapToDouble(l -> l.getFit().getRelativeError()).sorted().toArray();
    progress.line("landmark mesh: %d rounds, %d/%d landmarks embedded (epoch %d), median mesh fit error %.3f (%.1f s)",
        rounds, s.landmarks().size(), landmarks, s.landmarkEpoch(), Stats.quantile(errors, 0.5), progress.secondsSince(t));
  }

  /** The catalog: every server goes into the coordinator's target file, from there to reed.targets. */
  private void publishCatalog() throws IOException, InterruptedException {
    long t = progress.now();
    StringBuilder sb = new StringBuilder("# the demo's emulated game servers\n");
    for (EmulatedServer s : env.servers()) {
      sb.append(s.protocol() == GameProtocol.GAME_PROTOCOL_A2S ? "a2s " : "q3 ").append(Endpoints.key(s.address())).append('\n');
    }
    Path tmp = env.workDir().resolve("targets.tmp");
    Files.writeString(tmp, sb);
    Files.move(tmp, env.targetsFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    int n = env.world().serverCount();
    Coordinator coordinator = env.coordinator();
    if (!DemoEnvironment.await(Duration.ofSeconds(60), () -> coordinator.servingState().targets().size() >= n)) {
      throw new IOException("the coordinator published only " + coordinator.servingState().targets().size() + " of " + n
          + " targets to reed.targets within 60 s");
    }
    progress.line("catalog: %d targets in reed.targets (static target file of the coordinator) (%.1f s)", n,
        progress.secondsSince(t));
  }

  /**
   * Measurement rounds until the median fit error stops improving by more than the convergence
   * threshold (at least two rounds), or the round cap.
   */
  private boolean measure(List<RoundFigures> out) throws IOException, InterruptedException {
    long t = progress.now();
    int landmarks = env.landmarks().size();
    int servers = env.world().serverCount();
    progress.line("measurement rounds: %d landmarks x %d servers, %.0f probes/s per landmark; until the median fit error "
        + "improves by < %.0f %% (at most %d rounds)", landmarks, servers, options.agentRate(),
        options.convergence() * 100, options.maxRounds());
    RoundFigures previous = null;
    for (int r = 1; r <= options.maxRounds(); r++) {
      Round round = measureRound(r);
      RoundFigures f = round.figures();
      out.add(f);
      long probes = (long) f.targets() * landmarks;
      progress.line("round %d: %d probes, %d replies, %d timeouts (%.2f %%) in %.1f s | coordinator: %d/%d servers positioned, "
              + "fit error median %.3f p90 %.3f, predicted server-to-server RTT error median %.3f (%.1f s)",
          r, probes, f.replies(), f.timeouts(), probes == 0 ? 0 : 100.0 * f.timeouts() / probes, f.measureSeconds(), f.positioned(),
          servers, f.medianFitError(), f.p90FitError(), f.medianPairError(), f.seconds());
      EmulatedGameServers.Counters c = round.counters();
      progress.line("  delay error of the emulation (measured - intended RTT) over %d landmark probes: p50 %.3f ms, p99 %.3f ms, "
          + "max %.1f ms (so far the servers' sender sent %d of %d replies > 1 ms late, the worst %.1f ms late)", f.delayError().probes(),
          f.delayError().p50Ms(), f.delayError().p99Ms(), f.delayError().maxMs(), c.lateOver1ms(), c.sent(), c.maxLatenessMicros() / 1e3);
      if (previous != null && f.positioned() >= 0.95 * servers
          && previous.medianFitError() - f.medianFitError() < options.convergence() * previous.medianFitError()) {
        progress.line("converged after %d rounds: median fit error %.3f -> %.3f (%.1f s)", r, previous.medianFitError(),
            f.medianFitError(), progress.secondsSince(t));
        return true;
      }
      previous = f;
    }
    progress.line("round cap of %d reached (%.1f s)", options.maxRounds(), progress.secondsSince(t));
    return false;
  }

  private record Round(RoundFigures figures, EmulatedGameServers.Counters counters) {}

  private Round measureRound(int r) throws IOException, InterruptedException {
    long t = progress.now();
    int n = env.world().serverCount();
    Coordinator coordinator = env.coordinator();
    AtomicLong agentRound = new AtomicLong(Long.MAX_VALUE);   // known once the landmarks are done
    try (var a = heartbeat.begin("round " + r, () -> agentRound.get() == Long.MAX_VALUE ? "landmarks probing"
        : "coordinator positioning: " + fresh(agentRound.get()) + "/" + n)) {
      List<EmulationProcess.AgentRound> reports = env.round();
      double measured = progress.secondsSince(t);
      EmulationProcess.Delays delays = env.delays();
      double[] delay = delays.errorsMs();
      for (double d : delay) delayErrors.add(d);
      long round = reports.stream().mapToLong(EmulationProcess.AgentRound::round).max().orElse(0);
      agentRound.set(round);
      int targets = reports.stream().mapToInt(EmulationProcess.AgentRound::targets).max().orElse(0);
      long replies = reports.stream().mapToLong(EmulationProcess.AgentRound::replies).sum();
      long timeouts = reports.stream().mapToLong(EmulationProcess.AgentRound::timeouts).sum();
      // every sample of the round is in Kafka now. The coordinator polls between its rounds, so the
      // second round it starts from now on positions with all of them
      long done = coordinator.roundsCompleted();
      if (!DemoEnvironment.await(Duration.ofSeconds(90), () -> coordinator.roundsCompleted() >= done + 2 && fresh(round) >= 0.99 * n)) {
        log.warn("coordinator: only {} of {} servers positioned with round {} after 90 s", fresh(round), n, round);
      }
      ServingState s = coordinator.servingState();
      double[] errors = s.servers().values().stream().mapToDouble(c -> c.getFit().getRelativeError()).sorted().toArray();
      RoundFigures f = new RoundFigures(r, round, targets, replies, timeouts, measured, fresh(round),
          Stats.quantile(errors, 0.5), Stats.quantile(errors, 0.9), pairError(s, r), DelayError.of(delay), progress.secondsSince(t));
      return new Round(f, delays.counters());
    }
  }

  /** One more round of every landmark while the demo serves: keeps the coordinates fresh. */
  List<EmulationProcess.AgentRound> servingRound() throws IOException {
    return env.round();
  }

  private int fresh(long agentRound) {
    int k = 0;
    for (ServerCoordinate c : env.coordinator().servingState().servers().values()) if (c.getRound() >= agentRound) k++;
    return k;
  }

  /** Median relative error of predicted vs true RTT over random server pairs (never measured by anyone). */
  private double pairError(ServingState s, int round) {
    List<Map.Entry<String, ServerCoordinate>> list = new ArrayList<>(s.servers().entrySet());
    if (list.size() < 2) return Double.NaN;
    SplittableRandom rng = new SplittableRandom(options.seed() + round);
    double[] rel = new double[PAIRS];
    int k = 0;
    for (int i = 0; i < PAIRS; i++) {
      var a = list.get(rng.nextInt(list.size()));
      var b = list.get(rng.nextInt(list.size()));
      Integer ha = env.host(a.getKey());
      Integer hb = env.host(b.getKey());
      if (ha == null || hb == null || ha.equals(hb)) continue;
      double truth = env.world().world().rttMs(ha, hb);
      if (!(truth > 0)) continue;
      double predicted = coordinate(a.getValue().getCoordinate()).distanceTo(coordinate(b.getValue().getCoordinate()));
      rel[k++] = Math.abs(predicted - truth) / truth;
    }
    double[] v = Arrays.copyOf(rel, k);
    Arrays.sort(v);
    return Stats.quantile(v, 0.5);
  }

  private static Coordinate coordinate(dev.reed.proto.v1.Coordinate c) {
    double[] v = new double[c.getComponentsCount()];
    for (int i = 0; i < v.length; i++) v[i] = c.getComponents(i);
    return new Coordinate(v, c.getHeightMs());
  }
}
