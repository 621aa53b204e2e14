package dev.reed.coordinates;

/**
 * A host's fitted coordinate and how well it fits.
 *
 * @param coordinate the position (finite, height &gt;= 0)
 * @param relativeError median over the anchors used of |predicted - measured| / measured
 * @param anchorsUsed how many anchors had a usable RTT
 */
public record PositionFit(Coordinate coordinate, double relativeError, int anchorsUsed) {
  public PositionFit {
    if (coordinate == null) {
      throw new IllegalArgumentException("coordinate must not be null");
    }
    if (!Double.isFinite(relativeError) || relativeError < 0) {
      throw new IllegalArgumentException("relativeError must be finite and >= 0, got " + relativeError);
    }
    if (anchorsUsed < 0) {
      throw new IllegalArgumentException("anchorsUsed must be >= 0, got " + anchorsUsed);
    }
  }
}
