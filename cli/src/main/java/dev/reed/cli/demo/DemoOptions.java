package dev.reed.cli.demo;

import dev.reed.coordinates.discovery.DiscoveryModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything one demo run needs, validated.
 *
 * @param servers emulated game servers
 * @param landmarks landmark agents, split evenly over Europe, North America and Asia
 * @param world "synthetic" or "matrix:PATH"
 * @param dimensions coordinate dimensions (the paper's best: 4)
 * @param height coordinates carry a height (access-link delay) as well
 * @param seed seed of the world, the agents' shuffles and the traditional list order
 * @param jitterMs mean of the exponential per-probe jitter of the world
 * @param lossRate per-probe loss of the world
 * @param agentRate probes per second of each landmark agent
 * @param maxRounds measurement rounds at most (with targets)
 * @param convergence relative improvement of the median fit error below which rounds stop
 * @param nClose N_close of the REED stop rules (the paper's example: 40)
 * @param model the client's discovery model (--model): N_calib, ordering, learning, and the
 *     window and margin of Intelligent N_close (the client SDK's defaults unless a file is given)
 * @param clientRate probes per second of REED discovery (140: the paper's DSL setting)
 * @param traditionalRate probes per second of traditional discovery; above 140 the time at 140
 *     probes/s is computed from the probe count
 * @param out directory for the plots
 * @param json file for the figures as JSON, or null
 * @param markdown file for the table as Markdown, or null
 * @param serve keep everything running after the table until Ctrl-C
 * @param serveInterval time between measurement rounds while serving
 * @param geo give the coordinator the world's location database and the clients their location
 *     (locations); a world without locations runs without either whatever this says
 * @param web the web face (web clients): each landmark's WebSocket beacon, delaying its echo by the
 *     world's RTT to the browser's host, and the coordinator's HTTP face serving the page
 * @param browserCity where the browser is in the world: a demo client's city or id
 *     (case-insensitive); null = the first client
 * @param reports the first round's REED discoveries report what they measured, and a second round
 *     from new players in the same cities measures what the coordinator learned (client reports)
 * @param realtime move the timing threads of the emulation's child JVMs (the emulated servers'
 *     receive and send loops, the landmarks' probe send and receive threads, HotSpot's VM thread
 *     and GC workers) to SCHED_FIFO, as kernel
 *     netem runs ahead of every process; needs root, otherwise nothing changes
 */
record DemoOptions(int servers, int landmarks, String world, int dimensions, boolean height, long seed, double jitterMs, double lossRate,
    double agentRate, int maxRounds, double convergence, int nClose, DiscoveryModel model, double clientRate, double traditionalRate,
    Path out, Path json, Path markdown, boolean serve, Duration serveInterval, boolean geo, boolean web, String browserCity,
    boolean reports, boolean realtime) {

  /** The paper's probe rate (DSL), at which the table's times are given. */
  static final double PAPER_RATE = 140;

  DemoOptions {
    if (servers < 50 || servers > 50_000) throw new IllegalArgumentException("--servers must be 50-50000: " + servers);
    if (landmarks < 6 || landmarks > 60) {
      throw new IllegalArgumentException("--landmarks must be 6-60 (4-D coordinates need at least 5 anchors): " + landmarks);
    }
    Objects.requireNonNull(world, "world");
    if (!List.of(2, 3, 4, 5, 8, 10).contains(dimensions)) {
      throw new IllegalArgumentException("--dimensions must be 2, 3, 4, 5, 8 or 10: " + dimensions);
    }
    if (landmarks <= dimensions + 1) {
      throw new IllegalArgumentException("--landmarks must exceed dimensions + 1 = " + (dimensions + 1) + ": " + landmarks);
    }
    if (!world.equals("synthetic") && !(world.startsWith("matrix:") && world.length() > "matrix:".length())) {
      throw new IllegalArgumentException("--world must be 'synthetic' or 'matrix:PATH', got '" + world + "'");
    }
    if (!(jitterMs >= 0) || jitterMs > 100) throw new IllegalArgumentException("--jitter must be 0-100 ms: " + jitterMs);
    if (!(lossRate >= 0) || lossRate > 0.2) throw new IllegalArgumentException("--loss must be 0-0.2: " + lossRate);
    if (!(agentRate >= 10) || agentRate > 20_000) throw new IllegalArgumentException("--agent-rate must be 10-20000: " + agentRate);
    if (maxRounds < 1 || maxRounds > 20) throw new IllegalArgumentException("--max-rounds must be 1-20: " + maxRounds);
    if (!(convergence >= 0) || convergence >= 1) throw new IllegalArgumentException("--convergence must be in [0, 1): " + convergence);
    if (nClose < 1 || nClose > servers / 2) throw new IllegalArgumentException("--n-close must be 1-" + servers / 2 + ": " + nClose);
    Objects.requireNonNull(model, "model");
    if (model.calibrationProbes() < dimensions + 2) {
      throw new IllegalArgumentException("--model: calibrationProbes must be >= dimensions + 2 = " + (dimensions + 2) + ": "
          + model.calibrationProbes());
    }
    if (!(clientRate >= 10) || clientRate > 5_000) throw new IllegalArgumentException("--rate must be 10-5000: " + clientRate);
    if (!(traditionalRate >= 10) || traditionalRate > 20_000) {
      throw new IllegalArgumentException("--traditional-rate must be 10-20000: " + traditionalRate);
    }
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(serveInterval, "serveInterval");
    if (serveInterval.toSeconds() < 5) throw new IllegalArgumentException("--serve-interval must be >= 5 s");
    if (browserCity != null && browserCity.isBlank()) throw new IllegalArgumentException("--browser-city must not be blank");
    if (browserCity != null && !web) throw new IllegalArgumentException("--browser-city needs the web face (--serve)");
  }
}
