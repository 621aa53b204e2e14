package dev.reed.runtime.options;

import picocli.CommandLine.Option;

/** {@code --n-close N}: how many nearby servers a discovery wants (browse, eval, demo). */
public final class NCloseOption {
  @Option(names = "--n-close", paramLabel = "N",
      description = "N_close: the nearby servers the First and Intelligent N_close stop rules want (default: ${DEFAULT-VALUE})")
  int nClose;

  /** Each command gives its own default: 40 (a server list's first page) or the paper's 10. */
  public NCloseOption(int nClose) {
    this.nClose = nClose;
  }

  public int nClose() {
    return nClose;
  }
}
