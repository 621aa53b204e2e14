package dev.reed.testbed.world;

/** The range checks of the worlds' parameter records, each failing with a message naming the parameter. */
final class ParameterChecks {
  private ParameterChecks() {}

  static void positive(String name, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be positive and finite: " + v);
    }
  }

  static void nonNegative(String name, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be >= 0 and finite: " + v);
    }
  }

  /** A factor that only ever lengthens: >= 1 and finite. */
  static void atLeastOne(String name, double v) {
    if (!(v >= 1) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be >= 1: " + v);
    }
  }

  /** A share or probability: in [0, 1]. */
  static void share(String name, double v) {
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException(name + " must be in [0,1]: " + v);
    }
  }
}
