package dev.reed.coordinator.api;

import dev.reed.runtime.PrefixBuckets;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * Who may call, and how often: a call with an API key ({@code x-api-key} metadata header) spends its
 * key's token bucket (burst = one second of rate) and an unknown key is UNAUTHENTICATED; a call
 * without a key is anonymous and spends the bucket of its client's network prefix
 * ({@link PrefixBuckets}: /24 of IPv4, /56 of IPv6, the client behind a trusted proxy), so a public
 * page works with no key at all and keys are for higher limits. Over a rate is RESOURCE_EXHAUSTED.
 * The health service stays open so load balancers can probe without a key.
 */
final class ApiKeyInterceptor implements ServerInterceptor {
  public static final Metadata.Key<String> HEADER = Metadata.Key.of("x-api-key", Metadata.ASCII_STRING_MARSHALLER);
  /** The key a call was admitted with (client reports are grouped by it); absent for anonymous calls. */
  static final Context.Key<String> KEY = Context.key("reed-api-key");

  private final ApiKeys keys;
  private final AnonymousAccess anonymous;
  private final LongSupplier nanos;
  private final BiConsumer<String, Refusal> refused;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  /** Why a call was refused before reaching its service. */
  enum Refusal { UNAUTHENTICATED, RATE_LIMITED }

  /**
   * @param keys the API keys, or null for none (a presented key is then ignored: the call is anonymous)
   * @param refused told of every refused call (full method name, why), for the calls' own metrics
   */
  ApiKeyInterceptor(ApiKeys keys, AnonymousAccess anonymous, LongSupplier nanos, BiConsumer<String, Refusal> refused) {
    this.keys = keys;
    this.anonymous = anonymous;
    this.nanos = nanos;
    this.refused = refused;
  }

  private static final class Bucket {
    private final double rate;
    private double tokens;
    private long last;

    Bucket(double rate, long now) {
      this.rate = rate;
      this.tokens = Math.max(1, rate);
      this.last = now;
    }

    synchronized boolean take(long now) {
      tokens = Math.min(Math.max(1, rate), tokens + (now - last) / 1e9 * rate);
      last = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    }
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (call.getMethodDescriptor().getServiceName() != null
        && call.getMethodDescriptor().getServiceName().startsWith("grpc.health.")) {
      return next.startCall(call, headers);
    }
    String presented = keys == null ? null : headers.get(HEADER);
    if (presented == null) return anonymous(call, headers, next);
    String key = keys.match(presented.strip());
    if (key == null) return refuse(call, Refusal.UNAUTHENTICATED, Status.UNAUTHENTICATED.withDescription("unknown API key"));
    long now = nanos.getAsLong();
    Bucket b = buckets.computeIfAbsent(key, k -> new Bucket(keys.ratePerKey().get(k), now));
    if (!b.take(now)) {
      return refuse(call, Refusal.RATE_LIMITED, Status.RESOURCE_EXHAUSTED.withDescription("rate limit of "
          + keys.ratePerKey().get(key) + " requests/s exceeded for this API key"));
    }
    return Contexts.interceptCall(Context.current().withValue(KEY, key), call, headers, next);
  }

  private <Q, R> ServerCall.Listener<Q> anonymous(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (anonymous.refused()) {
      return refuse(call, Refusal.UNAUTHENTICATED,
          Status.UNAUTHENTICATED.withDescription("missing API key: send it in the x-api-key header"));
    }
    if (anonymous.buckets() != null && !anonymous.take(anonymous.clients().of(call, headers))) {
      return refuse(call, Refusal.RATE_LIMITED, Status.RESOURCE_EXHAUSTED.withDescription("rate limit of "
          + anonymous.buckets().limit().ratePerSecond() + " requests/s for calls without an API key exceeded "
          + "for this network; an API key (x-api-key header) raises it"));
    }
    return next.startCall(call, headers);
  }

  private <Q> ServerCall.Listener<Q> refuse(ServerCall<Q, ?> call, Refusal why, Status status) {
    refused.accept(call.getMethodDescriptor().getFullMethodName(), why);
    call.close(status, new Metadata());
    return new ServerCall.Listener<>() { };
  }
}
