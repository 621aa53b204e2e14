/**
 * {@code ./reed demo}: the whole REED system (Armitage &amp; Heyde, "REED: RTT Estimation to
 * Expedite Discovery", ACM TOMCCAP 2011) on one machine, in an emulated world.
 *
 * <pre>
 * ./reed demo [--servers 5000] [--landmarks 15] [--world synthetic|matrix:PATH] [--serve] [--json FILE] [--out DIR] [--no-reports]
 * </pre>
 *
 * <p>The parts: {@link dev.reed.cli.demo.Demo} wires them; {@link dev.reed.cli.demo.DemoEnvironment}
 * starts and stops everything: embedded Kafka broker; the world ({@link dev.reed.cli.demo.DemoWorld}:
 * servers, landmarks 5/5/5 in Europe, North America and Asia, one client per region, each host on its
 * own 127.x address); the world's location database for the coordinator (off with {@code --no-geo},
 * or for a matrix without locations); emulated game servers (testbed, A2S with challenge and Quake3,
 * replies delayed by the world's RTT to the prober; in a child JVM, {@link
 * dev.reed.cli.demo.EmulationProcess}); the coordinator (in-process, 4-D+height, a round every 2 s);
 * the landmark agents (in the same child JVM, probes sent from their own address, beacons delayed by
 * the world). {@link dev.reed.cli.demo.MeasurementRounds}: two mesh-only rounds until the coordinator
 * has embedded every landmark; the catalog (every server in the coordinator's target file, hence in
 * {@code reed.targets}); measurement rounds until the median fit error improves by less than 5 % or
 * 3 rounds. {@link dev.reed.cli.demo.ClientDiscoveries}: traditional discovery of the whole shuffled
 * list from all clients at once, in the background from then on (it needs no coordinator); from
 * each client in turn, one discovery at a time, its {@link dev.reed.cli.demo.DiscoveryMethod}s:
 * REED First and Intelligent N_close (40) through the real {@code ReedClient} bound to the client's
 * address ({@link dev.reed.cli.demo.ReedMethod}), then the geo distance and zero-probe orders ({@link
 * dev.reed.cli.demo.OrderedListMethod}: no calibration, the same stop rules); those REED discoveries
 * report what they measured and, once the coordinator has learned the reports, a new player in each
 * client's city runs REED again ({@link dev.reed.cli.demo.ReportsRound}, the "REED + reports" rows;
 * {@code --no-reports} skips both). Then the table (paper Tables III-VI) with the locations target
 * per client, one PNG per client (probed RTT vs time, paper Figures 7-9), optional JSON. A heartbeat
 * line names what is still running whenever nothing was printed for 8 s.
 *
 * <p>Time budget (2 minutes on 2 shared cores) and the trade-offs made for it:
 *
 * <ul>
 *   <li>agents probe at 500 probes/s each (production: 140), so 15 agents x 5000 servers take
 *       ~12 s a round; at 1000/s each the machine overloads (46,000 of 75,000 probes timed out)
 *       and RTT samples are inflated by scheduling delays;
 *   <li>at most 3 measurement rounds; each waits until the coordinator has completed two of its
 *       own rounds after the last sample reached Kafka and positioned 99 % of the servers with it,
 *       so the figures printed per round describe coordinates that include the round; nothing else
 *       runs during a round, whose probes would time out;
 *   <li>clients probe at the paper's 140 probes/s for real; the three traditional discoveries
 *       (5000 probes, ~36 s each) run at the same time, beside the wait for the location model and
 *       the other discoveries ({@code --traditional-rate} above 140 rescales the time to 140
 *       probes/s from the probe count and marks it with '*');
 *   <li>the world has 1 ms mean jitter and no loss by default ({@code --loss}): the client SDK
 *       feeds replies to the stop rule in probe order, so one lost probe holds the decision for
 *       the 1 s timeout while 140 more probes go out, which would dominate REED's probe count.
 * </ul>
 */
package dev.reed.cli.demo;
