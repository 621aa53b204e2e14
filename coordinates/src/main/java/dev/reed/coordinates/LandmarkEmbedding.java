package dev.reed.coordinates;

import java.util.List;

/**
 * The landmarks' coordinates from one embedding and each landmark's fit error.
 *
 * @param coordinates one coordinate per landmark, in the order of the input matrix
 * @param relativeErrors per landmark: median over its measured peers of |predicted - measured| / measured
 *     (NaN when the landmark had no measured peer at all)
 */
public record LandmarkEmbedding(List<Coordinate> coordinates, double[] relativeErrors) {
  public LandmarkEmbedding {
    coordinates = List.copyOf(coordinates);
    relativeErrors = relativeErrors.clone();
    if (coordinates.size() != relativeErrors.length) {
      throw new IllegalArgumentException("one relative error per coordinate expected: "
          + coordinates.size() + " vs " + relativeErrors.length);
    }
  }

  @Override
  public double[] relativeErrors() {
    return relativeErrors.clone();
  }

  /** Median of the landmarks' relative errors (NaN entries ignored). */
  public double medianRelativeError() {
    return Stats.median(relativeErrors);
  }
}
