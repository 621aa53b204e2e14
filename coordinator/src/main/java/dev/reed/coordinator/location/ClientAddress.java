package dev.reed.coordinator.location;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Endpoint;
import dev.reed.runtime.DenyList;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

/**
 * The client's address as the coordinator sees it, put in the call's {@link Context} for the
 * location prior: the gRPC connection's peer, or, when that peer is a configured trusted proxy
 * ({@code --trusted-proxy CIDR}), the rightmost address of {@code X-Forwarded-For} that is not a
 * trusted proxy itself (every hop appends the address it received from, so only the part written
 * by trusted proxies can be believed; a client can put anything on the left). Untrusted peers'
 * headers are ignored: otherwise any client could claim any location.
 */
public final class ClientAddress implements ServerInterceptor {
  /** The client's address for this call, or absent when unknown (in-process transport, a malformed header). */
  public static final Context.Key<InetAddress> KEY = Context.key("reed-client-address");

  /** The header trusted proxies write. */
  public static final String FORWARDED_FOR_HEADER = "x-forwarded-for";

  static final Metadata.Key<String> FORWARDED_FOR = Metadata.Key.of(FORWARDED_FOR_HEADER, Metadata.ASCII_STRING_MARSHALLER);

  private final DenyList trusted;

  /** @param trusted proxies whose X-Forwarded-For is believed (the deny list's CIDR grammar and matcher) */
  public ClientAddress(DenyList trusted) {
    this.trusted = trusted;
  }

  /**
   * Trusted proxies from CIDR blocks or addresses ({@code 10.0.0.0/8}, {@code 2001:db8::/32},
   * {@code 192.0.2.7}).
   *
   * @throws IllegalArgumentException naming the bad entry
   */
  public static ClientAddress trusting(List<String> cidrs) {
    return new ClientAddress(DenyList.parse("--trusted-proxy", cidrs));
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    InetAddress client = of(call, headers);
    if (client == null) return next.startCall(call, headers);
    return Contexts.interceptCall(Context.current().withValue(KEY, client), call, headers, next);
  }

  /** The client of a call; null when unknown. */
  public InetAddress of(ServerCall<?, ?> call, Metadata headers) {
    SocketAddress peer = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    if (peer == null) {
      // Armeria's calls (the HTTP face) carry no transport attributes: the peer is in its request context
      com.linecorp.armeria.server.ServiceRequestContext ctx = com.linecorp.armeria.server.ServiceRequestContext.currentOrNull();
      if (ctx != null) peer = ctx.remoteAddress();
    }
    return resolve(peer, headers.getAll(FORWARDED_FOR));
  }

  /**
   * The client behind {@code peer}; null when unknown.
   *
   * @param forwardedFor every X-Forwarded-For header value, in order (null = none)
   */
  public InetAddress resolve(SocketAddress peer, Iterable<String> forwardedFor) {
    if (!(peer instanceof InetSocketAddress isa) || isa.getAddress() == null) return null;
    InetAddress at = isa.getAddress();
    if (forwardedFor == null || !isTrusted(at)) return at;
    List<String> hops = new java.util.ArrayList<>();
    for (String h : forwardedFor) {
      for (String part : h.split(",")) hops.add(part.strip());
    }
    for (int i = hops.size() - 1; i >= 0; i--) {
      InetAddress hop;
      try {
        hop = Endpoints.literal(stripPort(hops.get(i)));
      } catch (IllegalArgumentException e) {
        return null; // a hop our proxies did not write: nothing left of it can be believed
      }
      at = hop;
      if (!isTrusted(hop)) return hop;
    }
    return at; // only trusted hops: the leftmost is as close to the client as we can get
  }

  private boolean isTrusted(InetAddress a) {
    return trusted.denies(Endpoint.newBuilder().setIp(a.getHostAddress()).setPort(1).build());
  }

  /** {@code 203.0.113.7:5123} and {@code [2001:db8::1]:443} carry a port some proxies add. */
  private static String stripPort(String hop) {
    if (hop.startsWith("[")) {
      int close = hop.indexOf(']');
      return close < 0 ? hop : hop.substring(1, close);
    }
    int colon = hop.indexOf(':');
    return colon >= 0 && colon == hop.lastIndexOf(':') ? hop.substring(0, colon) : hop;
  }
}
