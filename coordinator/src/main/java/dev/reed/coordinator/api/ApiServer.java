package dev.reed.coordinator.api;

import io.grpc.BindableService;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.TlsServerCredentials;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC endpoint: ReedService and SnapshotService behind the exception and (optional) API-key
 * interceptors, plus the standard health and reflection services (so {@code grpcurl} and
 * {@code buf curl --reflect} work without the .proto files). TLS from PEM files when configured.
 */
public final class ApiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
  /**
   * grpc-java's Netty handler logs a 30-line WARNING for every call a client cancels before its
   * answer is written ("Stream closed before write could take place"): 61,692 of them in one
   * overloaded scale run. A client's deadline is the client's business; the server's own failures
   * are still logged. Held here because java.util.logging keeps loggers only weakly.
   */
  private static final java.util.logging.Logger NETTY_STREAM_ERRORS =
      java.util.logging.Logger.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler");

  private final Server server;
  private final HealthStatusManager health;
  private final ExecutorService executor;

  private final ServerInterceptor[] guards;

  private ApiServer(Server server, HealthStatusManager health, ExecutorService executor, ServerInterceptor[] guards) {
    this.guards = guards;
    this.server = server;
    this.health = health;
    this.executor = executor;
  }

  /**
   * @param tlsCert PEM certificate chain, or null for plaintext
   * @param tlsKey PEM private key, or null
   * @param apiKeys keys and rates, or null for no authentication
   */
  public static ApiServer start(InetSocketAddress bind, Path tlsCert, Path tlsKey, ApiKeys apiKeys,
      List<BindableService> services) throws IOException {
    return start(bind, tlsCert, tlsKey, apiKeys, services, method -> { }, method -> { });
  }

  /**
   * The same, telling of calls the API-key check refuses (by full method name), so a call's own
   * metrics can count them (client reports: reed_client_reports_rejected_total).
   */
  public static ApiServer start(InetSocketAddress bind, Path tlsCert, Path tlsKey, ApiKeys apiKeys,
      List<BindableService> services, java.util.function.Consumer<String> unauthenticated,
      java.util.function.Consumer<String> rateLimited) throws IOException {
    return start(bind, tlsCert, tlsKey, apiKeys,
        apiKeys == null ? AnonymousAccess.UNLIMITED : AnonymousAccess.REFUSED,
        services, unauthenticated, rateLimited);
  }

  /**
   * The same, with calls without an API key admitted as {@code anonymous} says (per network prefix,
   * refused, or unlimited).
   */
  public static ApiServer start(InetSocketAddress bind, Path tlsCert, Path tlsKey, ApiKeys apiKeys,
      AnonymousAccess anonymous, List<BindableService> services,
      java.util.function.Consumer<String> unauthenticated, java.util.function.Consumer<String> rateLimited)
      throws IOException {
    java.util.function.BiConsumer<String, ApiKeyInterceptor.Refusal> refused = (method, why) -> {
      if (why == ApiKeyInterceptor.Refusal.UNAUTHENTICATED) unauthenticated.accept(method);
      else rateLimited.accept(method);
    };
    NETTY_STREAM_ERRORS.setLevel(java.util.logging.Level.SEVERE);
    ServerCredentials creds = tlsCert == null ? InsecureServerCredentials.create()
        : TlsServerCredentials.create(tlsCert.toFile(), tlsKey.toFile());
    HealthStatusManager health = new HealthStatusManager();
    // handlers are CPU-bound and never block: one thread per core, no more
    ExecutorService executor = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
        Thread.ofPlatform().name("grpc-", 0).daemon().factory());
    NettyServerBuilder b = NettyServerBuilder.forAddress(bind, creds).executor(executor);
    // one key interceptor for every service and the HTTP face too: a key's rate, and a network's, is shared by all
    ApiKeyInterceptor admission = new ApiKeyInterceptor(apiKeys, anonymous, System::nanoTime, refused);
    ServerInterceptor[] guards = {new StatusExceptionInterceptor(), admission};
    for (BindableService s : services) {
      b.addService(ServerInterceptors.intercept(s, guards));
    }
    b.addService(health.getHealthService());
    b.addService(ServerInterceptors.intercept(ProtoReflectionServiceV1.newInstance(), admission));
    health.setStatus("", ServingStatus.NOT_SERVING);
    Server server = b.build().start();
    log.info("gRPC listening on {}{}{}, calls without a key: {}", server.getListenSockets().getFirst(),
        tlsCert == null ? "" : " (TLS)", apiKeys == null ? "" : " (API keys: " + apiKeys.ratePerKey().size() + ")",
        anonymous.describe());
    return new ApiServer(server, health, executor, guards);
  }

  /**
   * The service behind the same interceptors as this server's services (validation errors as their
   * status, API keys with the same per-key rate buckets), for the HTTP face.
   */
  public ServerServiceDefinition guard(ServerServiceDefinition service) {
    return ServerInterceptors.intercept(service, guards);
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) server.getListenSockets().getFirst();
  }

  /** Health: SERVING once the index has been read to the end. */
  public void serving(boolean serving) {
    ServingStatus s = serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    health.setStatus("", s);
    health.setStatus("reed.v1.ReedService", s);
    health.setStatus("reed.v1.SnapshotService", s);
  }

  @Override
  public void close() {
    health.enterTerminalState();
    server.shutdown();
    try {
      if (!server.awaitTermination(3, TimeUnit.SECONDS)) server.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.shutdownNow();
    }
    executor.shutdownNow();
  }
}
