package dev.reed.runtime.options;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --model FILE}: the client's discovery model, one file format for every command that runs
 * the client SDK's discovery (browse, demo, eval). Each reads it with the coordinates module's one
 * loader, {@code ModelFile.option("--model", file(), DiscoveryModel.defaults())}.
 */
public final class DiscoveryModelOption {
  @Option(names = "--model", paramLabel = "FILE",
      description = "The client's discovery model as a properties file: calibration, ordering, learning and the stop "
          + "rules' tunables (Intelligent N_close's window and margin, RTT_stop's window, RTT_limit's delta); keys "
          + "left out keep the SDK's defaults (eval/models/default.properties documents every one) (default: the "
          + "SDK's model)")
  Path file;

  /** The model file, null when not given. */
  public Path file() {
    return file;
  }
}
