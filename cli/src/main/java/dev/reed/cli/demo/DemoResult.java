package dev.reed.cli.demo;

import java.util.List;

/**
 * What a demo run produced.
 *
 * @param world the world's description
 * @param servers emulated game servers
 * @param landmarks landmark agents
 * @param kafka the broker's bootstrap address
 * @param coordinator the coordinator's gRPC address
 * @param geo what the run did with locations (location database, stated client locations, or off and why)
 * @param rounds measurement rounds
 * @param converged true when the fit error stopped improving before the round cap
 * @param nClose N_close of the stop rules
 * @param methods one entry per client and method, traditional last per client
 * @param delayError the emulation's delay error over every measurement round's answered landmark probes
 * @param seconds wall time of the run up to the table
 */
record DemoResult(String world, int servers, int landmarks, String kafka, String coordinator, String geo, List<RoundFigures> rounds,
    boolean converged, int nClose, List<MethodFigures> methods,
    DelayError delayError, double seconds) {

  /** The traditional row of a client. */
  MethodFigures traditional(DemoWorld.Site client) {
    return methods.stream().filter(m -> m.client().equals(client) && m.method().equals("traditional")).findFirst()
        .orElseThrow(() -> new IllegalStateException("no traditional discovery for " + client.id()));
  }

  /** The locations target for what a player sees, per client in table order: how REED First did. */
  List<TargetFigures> targets() {
    return methods.stream().filter(m -> m.method().equals("first")).map(m -> TargetFigures.of(m, nClose)).toList();
  }
}
