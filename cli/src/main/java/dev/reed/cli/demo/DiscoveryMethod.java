package dev.reed.cli.demo;

import java.io.IOException;
import java.util.List;

/**
 * One way a demo client finds servers, giving its rows of the table: REED through the client SDK
 * ({@link ReedMethod}), a list probed in a given order and scored by REED's stop rules
 * ({@link OrderedListMethod}), or the whole list ({@link TraditionalMethod}).
 */
interface DiscoveryMethod {

  /** What the progress line calls it, e.g. "geo distance, no calibration". */
  String name();

  /**
   * Discovers from {@code client}'s address, for real.
   *
   * @return the method's rows, in table order; none when it cannot run (having said why)
   */
  List<MethodFigures> discover(DemoWorld.Site client, ClientOptimum optimum) throws IOException;
}
