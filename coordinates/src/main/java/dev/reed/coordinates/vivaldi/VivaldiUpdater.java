package dev.reed.coordinates.vivaldi;

import dev.reed.coordinates.Coordinate;

/**
 * One Vivaldi step (Dabek et al. 2004, Figure 3, with the height model of section 5.5): moves a node
 * along the spring between it and a remote node in proportion to the RTT misprediction, weighted by
 * the two nodes' confidence, and updates its error estimate. REED's coordinator uses it between full
 * GNP fits: a server's coordinate follows each new RTT sample from a landmark (whose coordinate stays
 * fixed), cheaply and without jumps; the next full fit re-anchors it.
 *
 * <p>Pure and thread-safe: states are immutable values; an invalid input is rejected with an
 * {@link IllegalArgumentException}, an RTT above {@link VivaldiConfig#maxRttMs()} leaves the state
 * unchanged, and a step that would produce a non-finite value is dropped (serf resets its coordinate
 * in that case; here the previous state simply stays).
 */
public final class VivaldiUpdater {

  private static final double ZERO = 1e-6;
  private final VivaldiConfig config;

  public VivaldiUpdater(VivaldiConfig config) {
    if (config == null) {
      throw new IllegalArgumentException("config must not be null");
    }
    this.config = config;
  }

  /** A fresh node at the origin with the maximum error. */
  public VivaldiState initial(int dimensions, boolean height) {
    return new VivaldiState(new Coordinate(new double[dimensions], height ? config.heightMinMs() : 0.0),
        config.errorMax());
  }

  /**
   * @param self this node's state
   * @param remote the other node's coordinate
   * @param remoteError the other node's error estimate (a landmark's fit error, say)
   * @param rttMs measured RTT, &gt; 0
   * @param height whether the height model is on
   */
  public VivaldiState update(VivaldiState self, Coordinate remote, double remoteError, double rttMs, boolean height) {
    if (self == null || remote == null) {
      throw new IllegalArgumentException("self and remote must not be null");
    }
    if (self.coordinate().dimensions() != remote.dimensions()) {
      throw new IllegalArgumentException("dimension mismatch: " + self.coordinate().dimensions()
          + " vs " + remote.dimensions());
    }
    if (!Double.isFinite(rttMs) || rttMs < 0) {
      throw new IllegalArgumentException("rttMs must be finite and >= 0, got " + rttMs);
    }
    if (!Double.isFinite(remoteError) || remoteError < 0) {
      throw new IllegalArgumentException("remoteError must be finite and >= 0, got " + remoteError);
    }
    if (rttMs > config.maxRttMs()) {
      return self;
    }
    double rtt = Math.max(rttMs, ZERO);
    Coordinate c = self.coordinate();
    double dist = c.distanceTo(remote);
    double totalError = Math.max(self.error() + remoteError, ZERO);
    double weight = self.error() / totalError;
    double wrongness = Math.abs(dist - rtt) / rtt;
    double error = config.ce() * weight * wrongness + self.error() * (1 - config.ce() * weight);
    error = Math.min(error, config.errorMax());
    double force = config.cc() * weight * (rtt - dist);

    int d = c.dimensions();
    double[] v = c.components();
    double mag = 0;
    for (int k = 0; k < d; k++) {
      double t = v[k] - remote.component(k);
      mag += t * t;
    }
    mag = Math.sqrt(mag);
    double[] unit = new double[d];
    if (mag > ZERO) {
      for (int k = 0; k < d; k++) {
        unit[k] = (v[k] - remote.component(k)) / mag;
      }
    } else {
      // same point: push apart along a direction derived from the remote's position (deterministic)
      long seed = Double.doubleToLongBits(remote.component(0)) * 0x9E3779B97F4A7C15L + d;
      java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
      double len = 0;
      for (int k = 0; k < d; k++) {
        unit[k] = r.nextDouble() - 0.5;
        len += unit[k] * unit[k];
      }
      len = Math.sqrt(len);
      for (int k = 0; k < d; k++) {
        unit[k] /= len;
      }
    }
    for (int k = 0; k < d; k++) {
      v[k] += unit[k] * force;
    }
    double h = c.height();
    if (height) {
      if (mag > ZERO) {
        h = (h + remote.height()) * force / mag + h;
      }
      h = Math.max(h, config.heightMinMs());
    }
    for (double x : v) {
      if (!Double.isFinite(x)) {
        return self;
      }
    }
    if (!Double.isFinite(h) || !Double.isFinite(error)) {
      return self;
    }
    return new VivaldiState(new Coordinate(v, h), error);
  }
}
