package dev.reed.coordinator.api;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.Cursor;
import dev.reed.coordinates.ranking.PasswordRule;
import dev.reed.coordinates.ranking.RankingFilter;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.ServingState;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ServerFilter;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Locale;

/**
 * Validates RPC input and maps it to the ranking module's types. Every rejection is
 * INVALID_ARGUMENT with a message that names the field and what is wrong with it (DESIGN.md
 * section 7: NaN, infinities, sizes, dimension mismatch never reach the index).
 */
final class RequestMapping {
  static final int DEFAULT_PAGE = 230;
  static final int MAX_PAGE = 5000;

  private RequestMapping() {}

  static StatusRuntimeException invalid(String message) {
    return Status.INVALID_ARGUMENT.withDescription(message).asRuntimeException();
  }

  static Coordinate coordinate(boolean present, dev.reed.proto.v1.Coordinate c, int dimensions, String field) {
    if (!present) throw invalid(field + " is required");
    try {
      return CoordinateCodec.fromProto(c, dimensions, field);
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
  }

  static int pageSize(int requested, String field) {
    if (requested < 0) throw invalid(field + " is too large: " + Integer.toUnsignedString(requested) + " (at most " + MAX_PAGE + ")");
    if (requested == 0) return DEFAULT_PAGE;
    if (requested > MAX_PAGE) throw invalid(field + " is too large: " + requested + " (at most " + MAX_PAGE + ")");
    return requested;
  }

  static Cursor cursor(String token) {
    if (token.isEmpty()) return null;
    try {
      return Cursor.decode(token);
    } catch (IllegalArgumentException e) {
      throw invalid("page_token is not a token this service issued: " + e.getMessage());
    }
  }

  static RankingFilter filter(ServerFilter f) {
    PasswordRule password = switch (f.getPassword()) {
      case PASSWORD_FILTER_UNSPECIFIED -> PasswordRule.ANY;
      case PASSWORD_FILTER_EXCLUDE -> PasswordRule.EXCLUDE;
      case PASSWORD_FILTER_ONLY -> PasswordRule.ONLY;
      default -> throw invalid("filter.password: unknown value " + f.getPasswordValue());
    };
    if (f.getProtocol() == GameProtocol.UNRECOGNIZED) throw invalid("filter.protocol: unknown value " + f.getProtocolValue());
    if (f.getMinPlayers() < 0) throw invalid("filter.min_players is too large: " + Integer.toUnsignedString(f.getMinPlayers()));
    double limitMs = Integer.toUnsignedLong(f.getRttLimitUs()) / 1000.0;
    return new RankingFilter(f.getGame().toLowerCase(Locale.ROOT), f.getMap().toLowerCase(Locale.ROOT), f.getMinPlayers(),
        f.getNotFull(), f.getNotEmpty(), password, f.getProtocol().getNumber(), limitMs);
  }

  static RankedServer ranked(ServingState state, String key, double predictedMs, boolean compact) {
    dev.reed.coordinator.index.RankedTemplate template = state.ranked().get(key);
    RankedServer.Builder b = template == null ? RankedServer.newBuilder().setEndpoint(dev.reed.proto.Endpoints.parse(key))
        : template.message(compact).toBuilder();
    return b.setPredictedRttUs(CoordinateCodec.toMicros(predictedMs)).build();
  }
}
