package dev.reed.coordinator.api;

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
 * Optional API-key authentication for third-party browsers: the key travels in the
 * {@code x-api-key} metadata header; a missing or unknown key is UNAUTHENTICATED, a key over its
 * rate (token bucket: burst = one second of rate) is RESOURCE_EXHAUSTED. The health service stays
 * open so load balancers can probe without a key.
 */
final class ApiKeyInterceptor implements ServerInterceptor {
  public static final Metadata.Key<String> HEADER = Metadata.Key.of("x-api-key", Metadata.ASCII_STRING_MARSHALLER);
  /** The key a call was admitted with (client reports are grouped by it); absent without keys. */
  static final Context.Key<String> KEY = Context.key("reed-api-key");

  private final ApiKeys keys;
  private final LongSupplier nanos;
  private final BiConsumer<String, Refusal> refused;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  /** Why a call was refused before reaching its service. */
  enum Refusal { UNAUTHENTICATED, RATE_LIMITED }

  /** @param nanos monotonic time source (System::nanoTime; a fake in tests) */
  public ApiKeyInterceptor(ApiKeys keys, LongSupplier nanos) {
    this(keys, nanos, (method, why) -> { });
  }

  /** @param refused told of every refused call (full method name, why), for the calls' own metrics */
  ApiKeyInterceptor(ApiKeys keys, LongSupplier nanos, BiConsumer<String, Refusal> refused) {
    this.keys = keys;
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
    String presented = headers.get(HEADER);
    String key = presented == null ? null : keys.match(presented.strip());
    if (key == null) {
      refused.accept(call.getMethodDescriptor().getFullMethodName(), Refusal.UNAUTHENTICATED);
      call.close(Status.UNAUTHENTICATED.withDescription(presented == null
          ? "missing API key: send it in the x-api-key header" : "unknown API key"), new Metadata());
      return new ServerCall.Listener<>() { };
    }
    long now = nanos.getAsLong();
    Bucket b = buckets.computeIfAbsent(key, k -> new Bucket(keys.ratePerKey().get(k), now));
    if (!b.take(now)) {
      refused.accept(call.getMethodDescriptor().getFullMethodName(), Refusal.RATE_LIMITED);
      call.close(Status.RESOURCE_EXHAUSTED.withDescription("rate limit of " + keys.ratePerKey().get(key)
          + " requests/s exceeded for this API key"), new Metadata());
      return new ServerCall.Listener<>() { };
    }
    return Contexts.interceptCall(Context.current().withValue(KEY, key), call, headers, next);
  }
}
