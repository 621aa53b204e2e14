package dev.reed.coordinator.index;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.ServerAttributes;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.util.Locale;

/**
 * Conversions between the wire coordinate ({@code reed.v1.Coordinate}, ms) and the math module's
 * {@link Coordinate}, with the validation every boundary needs: finite components, height >= 0,
 * the deployment's dimension count (docs/design.md section 6: coordinates never contain NaN/Inf).
 */
public final class CoordinateCodec {
  private CoordinateCodec() {}

  /**
   * @throws IllegalArgumentException naming what is wrong: dimension count, NaN/Inf, negative height
   */
  public static Coordinate fromProto(dev.reed.proto.v1.Coordinate c, int dimensions, String what) {
    if (c.getComponentsCount() != dimensions) {
      throw new IllegalArgumentException(what + " has " + c.getComponentsCount() + " components, this deployment uses "
          + dimensions + " dimensions");
    }
    double[] v = new double[dimensions];
    for (int i = 0; i < dimensions; i++) {
      v[i] = c.getComponents(i);
      if (!Double.isFinite(v[i])) throw new IllegalArgumentException(what + " component " + i + " is not finite: " + v[i]);
    }
    double h = c.getHeightMs();
    if (!Double.isFinite(h) || h < 0) throw new IllegalArgumentException(what + " height must be finite and >= 0: " + h);
    return new Coordinate(v, h);
  }

  public static dev.reed.proto.v1.Coordinate toProto(Coordinate c) {
    dev.reed.proto.v1.Coordinate.Builder b = dev.reed.proto.v1.Coordinate.newBuilder();
    for (double v : c.components()) b.addComponents(v);
    return b.setHeightMs(c.height()).build();
  }

  /**
   * Ranking attributes of a server; game and map lower-cased so filters match case-insensitively
   * (reed_service.proto), protocol = the {@link GameProtocol} number.
   */
  public static ServerAttributes attributes(ServerInfo info, GameProtocol protocol) {
    return attributes(info, protocol, false, n -> n);
  }

  /**
   * The same, with whether the host integrity check flags the server; the game and map names (lower
   * case) pass through {@code names}, which may give one shared String per name.
   */
  public static ServerAttributes attributes(ServerInfo info, GameProtocol protocol, boolean suspect,
      java.util.function.UnaryOperator<String> names) {
    return new ServerAttributes(names.apply(info.getGame().toLowerCase(Locale.ROOT)),
        names.apply(info.getMap().toLowerCase(Locale.ROOT)),
        info.getPlayers(), info.getMaxPlayers(), info.getPassword(),
        protocol == GameProtocol.UNRECOGNIZED ? 0 : protocol.getNumber(), suspect);
  }

  /** Microseconds from ms, clamped to the uint32 range the protos use. */
  public static int toMicros(double ms) {
    double us = Math.rint(ms * 1000.0);
    return us >= 4_294_967_295.0 ? -1 : (int) (long) us;
  }
}
