package dev.reed.coordinates;

import java.util.Arrays;

/**
 * A network coordinate: a point in D-dimensional Euclidean space plus an optional height, all in
 * milliseconds of RTT. The predicted RTT between two coordinates is the Euclidean distance of the
 * components plus both heights: the height models the access link that every path to or from a
 * host has to cross (Dabek et al., "Vivaldi", SIGCOMM 2004, section 5.5). Without the height model
 * the height is 0 and the distance is plain GNP (Ng &amp; Zhang, INFOCOM 2002).
 *
 * <p>Immutable: the array is copied in and out. Every component is finite and the height is finite
 * and {@code >= 0}; anything else is rejected with an {@link IllegalArgumentException}, so a NaN can
 * never enter a ranking or leave through an API.
 */
public record Coordinate(double[] components, double height) {

  /** Largest supported dimension count. */
  public static final int MAX_DIMENSIONS = 16;

  public Coordinate {
    if (components == null) {
      throw new IllegalArgumentException("coordinate components must not be null");
    }
    if (components.length < 1 || components.length > MAX_DIMENSIONS) {
      throw new IllegalArgumentException(
          "coordinate needs 1.." + MAX_DIMENSIONS + " components, got " + components.length);
    }
    components = components.clone();
    for (int i = 0; i < components.length; i++) {
      if (!Double.isFinite(components[i])) {
        throw new IllegalArgumentException("coordinate component " + i + " is not finite: " + components[i]);
      }
    }
    if (!Double.isFinite(height) || height < 0) {
      throw new IllegalArgumentException("coordinate height must be finite and >= 0, got " + height);
    }
  }

  /** A coordinate without height. */
  public static Coordinate of(double... components) {
    return new Coordinate(components, 0.0);
  }

  /** The origin of a D-dimensional space, height 0. */
  public static Coordinate origin(int dimensions) {
    return new Coordinate(new double[dimensions], 0.0);
  }

  @Override
  public double[] components() {
    return components.clone();
  }

  /** Component {@code i} without copying the array. */
  public double component(int i) {
    return components[i];
  }

  public int dimensions() {
    return components.length;
  }

  /** Predicted RTT in ms: {@code ||a - b|| + ha + hb}. */
  public double distanceTo(Coordinate o) {
    requireSameDimensions(o);
    return euclideanTo(o) + height + o.height;
  }

  /** Euclidean distance of the components only (heights ignored). */
  public double euclideanTo(Coordinate o) {
    requireSameDimensions(o);
    double s = 0;
    for (int i = 0; i < components.length; i++) {
      double d = components[i] - o.components[i];
      s += d * d;
    }
    return Math.sqrt(s);
  }

  /** The same point with another height. */
  public Coordinate withHeight(double newHeight) {
    return new Coordinate(components, newHeight);
  }

  void requireSameDimensions(Coordinate o) {
    if (o == null) {
      throw new IllegalArgumentException("other coordinate must not be null");
    }
    if (o.components.length != components.length) {
      throw new IllegalArgumentException(
          "dimension mismatch: " + components.length + " vs " + o.components.length);
    }
  }

  /** Package-private view of the array for the solvers (never handed out). */
  double[] raw() {
    return components;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Coordinate c && Arrays.equals(components, c.components)
        && Double.compare(height, c.height) == 0;
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(components) + Double.hashCode(height);
  }

  @Override
  public String toString() {
    return "Coordinate" + Arrays.toString(components) + (height > 0 ? " h=" + height : "");
  }
}
