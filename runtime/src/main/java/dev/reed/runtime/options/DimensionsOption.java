package dev.reed.runtime.options;

import java.util.List;
import picocli.CommandLine.Option;

/** {@code --dimensions D}: the coordinate space's dimensions (coordinator, eval, demo). */
public final class DimensionsOption {
  /** What the coordinate engine supports. */
  public static final List<Integer> SUPPORTED = List.of(2, 3, 4, 5, 8, 10);
  /** The paper's best, and the coordinator's default. */
  public static final int DEFAULT = 4;

  @Option(names = "--dimensions", paramLabel = "D",
      description = "coordinate dimensions: 2, 3, 4, 5, 8 or 10 (default: ${DEFAULT-VALUE})")
  int dimensions = DEFAULT;

  /** The dimensions given (not checked: each command says what it supports). */
  public int dimensions() {
    return dimensions;
  }
}
