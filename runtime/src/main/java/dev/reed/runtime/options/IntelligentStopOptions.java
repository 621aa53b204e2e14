package dev.reed.runtime.options;

import picocli.CommandLine.Option;

/**
 * Intelligent N_close's window (browse, eval): how many probes without finding a nearer server
 * end a discovery, and what counts as nearer.
 */
public final class IntelligentStopOptions {
  @Option(names = "--intelligent-window", paramLabel = "W",
      description = "W of Intelligent N_close: probes without improving the N_close set before it stops "
          + "(default: ${DEFAULT-VALUE})")
  int window = 20;

  @Option(names = "--window-margin", paramLabel = "MS",
      description = "Intelligent N_close: an improvement of the N_close set by no more than MS does not restart "
          + "the window (default: ${DEFAULT-VALUE}, the paper's rule)")
  double windowMargin;

  public int window() {
    return window;
  }

  public double windowMargin() {
    return windowMargin;
  }
}
