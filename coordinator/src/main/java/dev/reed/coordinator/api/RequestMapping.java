package dev.reed.coordinator.api;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.Cursor;
import dev.reed.coordinates.ranking.PasswordRule;
import dev.reed.coordinates.ranking.RankingFilter;
import dev.reed.coordinates.ranking.SuspectRule;
import dev.reed.proto.v1.SuspectServers;
import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinator.index.read.ServingState;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ServerFilter;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Locale;

/**
 * Validates RPC input and maps it to the ranking module's types. Every rejection is
 * INVALID_ARGUMENT with a message that names the field and what is wrong with it (docs/design.md
 * section 6: NaN, infinities, sizes, dimension mismatch never reach the index).
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
    long limitUs = Integer.toUnsignedLong(f.getRttLimitUs());
    // the limit applies to the predicted RTT as served, rounded to a microsecond: a client that asks for
    // at most a server's served 8,748 us must get that server even if its prediction was 8,748.4 us
    double limitMs = limitUs == 0 ? 0 : Math.nextDown((limitUs + 0.5) / 1000.0);
    SuspectRule suspects = switch (f.getSuspectServers()) {
      case SUSPECT_SERVERS_HIDE -> SuspectRule.EXCLUDE;
      case SUSPECT_SERVERS_UNSPECIFIED, SUSPECT_SERVERS_INCLUDE, SUSPECT_SERVERS_DEMOTE -> SuspectRule.ANY;
      default -> throw invalid("filter.suspect_servers: unknown value " + f.getSuspectServersValue());
    };
    return new RankingFilter(f.getGame().toLowerCase(Locale.ROOT), f.getMap().toLowerCase(Locale.ROOT), f.getMinPlayers(),
        f.getNotFull(), f.getNotEmpty(), password, f.getProtocol().getNumber(), limitMs, suspects);
  }

  /**
   * Whether flagged servers go after the rest (SUSPECT_SERVERS_DEMOTE, the default): only when the
   * index flags some, or the token continues the flagged half.
   */
  static boolean demotes(ServerFilter f, dev.reed.coordinates.ranking.RankingIndex index, String token) {
    boolean asked = f.getSuspectServers() == SuspectServers.SUSPECT_SERVERS_UNSPECIFIED
        || f.getSuspectServers() == SuspectServers.SUSPECT_SERVERS_DEMOTE;
    return asked && (index.suspects() > 0 || DemotedPages.isSecondHalf(token));
  }

  static RankedServer ranked(ServingState state, String key, double predictedMs, boolean compact) {
    dev.reed.coordinator.index.read.RankedTemplate template = state.ranked().get(key);
    RankedServer.Builder b = template == null ? RankedServer.newBuilder().setEndpoint(dev.reed.proto.Endpoints.parse(key))
        : template.message(compact, state.landmarkIds()).toBuilder();
    return b.setPredictedRttUs(CoordinateCodec.toMicros(predictedMs)).build();
  }
}
