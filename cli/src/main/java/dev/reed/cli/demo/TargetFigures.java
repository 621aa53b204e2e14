package dev.reed.cli.demo;

/**
 * The locations target for what a player sees, for one demo client: REED First N_close's mean RTT
 * within {@value #MAX_EXCESS_MS} ms of the optimum and at least 3/4 of the N_close nearest servers
 * found (30 of 40), with no more probes than before locations (the demo cannot know the earlier
 * count: compare {@code probes} with a {@code --no-geo} run).
 *
 * @param client the client
 * @param probes REED First's probes, calibration included
 * @param excessMs REED First's mean RTT minus the optimum, ms
 * @param nearestFound how many of the true N_close nearest it found
 * @param nearestWanted how many the target asks for
 * @param met both conditions hold
 */
record TargetFigures(DemoWorld.Site client, int probes, double excessMs, int nearestFound, int nearestWanted, boolean met) {
  static final double MAX_EXCESS_MS = 3;
  /** 30 of 40: three quarters of the true nearest. */
  static final double NEAREST_SHARE = 0.75;

  static TargetFigures of(MethodFigures first, int nClose) {
    int wanted = (int) Math.ceil(NEAREST_SHARE * nClose);
    double excess = first.excessMs();
    return new TargetFigures(first.client(), first.probes(), excess, first.nearestFound(), wanted,
        excess <= MAX_EXCESS_MS && first.nearestFound() >= wanted);
  }
}
