package dev.reed.coordinator.api;

import com.linecorp.armeria.common.HttpMethod;
import com.linecorp.armeria.common.grpc.GrpcSerializationFormats;
import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.ServerBuilder;
import com.linecorp.armeria.server.cors.CorsService;
import com.linecorp.armeria.server.cors.CorsServiceBuilder;
import com.linecorp.armeria.server.file.FileService;
import com.linecorp.armeria.server.grpc.GrpcService;
import com.linecorp.armeria.server.grpc.GrpcServiceBuilder;
import io.grpc.ServerServiceDefinition;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of reed.v1 for web clients, on one port (Armeria over the same grpc-java service
 * instances as the gRPC port): HTTP/JSON per the proto3 JSON mapping ({@code POST
 * /reed.v1.ReedService/Locate} with {@code Content-Type: application/json}), gRPC-Web, gRPC, and
 * the web page's static files at {@code /} (classpath {@code dev/reed/web/}, module {@code web}).
 * The services sit behind {@link ApiServer#guard}: the same validation, API keys ({@code x-api-key}
 * header) and per-key rate buckets as the gRPC port, and the same buckets per network prefix for
 * calls without a key; the static files spend those anonymous buckets too (HTTP 429 over them), so
 * a flood of page loads costs its network what a flood of calls does. CORS for the configured
 * origins. The Netty gRPC port is left as it is.
 */
public final class HttpApiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpApiServer.class);

  /** Largest request body: a Locate with 256 measurements is ~20 KB of JSON. */
  static final int MAX_REQUEST_BYTES = 64 * 1024;
  /** Classpath folder of the page. */
  static final String WEB_ROOT = "dev/reed/web";

  private final Server server;
  private final String url;

  private HttpApiServer(Server server, String url) {
    this.server = server;
    this.url = url;
  }

  /**
   * Starts listening.
   *
   * @param corsOrigins origins allowed to call from other pages; {@code *} = any; empty = no CORS
   * @param services already guarded ({@link ApiServer#guard}); ReedService bound with message
   *     responses ({@code ReedServiceGrpc.bindService}), not the gRPC port's pre-encoded binding
   */
  public static HttpApiServer start(InetSocketAddress bind, List<String> corsOrigins, List<ServerServiceDefinition> services) {
    return start(bind, corsOrigins, services, AnonymousAccess.UNLIMITED);
  }

  /**
   * The same, with the static files limited as {@code anonymous} limits calls without a key (pass
   * the gRPC port's: one bucket per network for both).
   */
  public static HttpApiServer start(InetSocketAddress bind, List<String> corsOrigins, List<ServerServiceDefinition> services,
      AnonymousAccess anonymous) {
    GrpcServiceBuilder grpc = GrpcService.builder()
        .supportedSerializationFormats(GrpcSerializationFormats.values())
        .enableUnframedRequests(true)
        .unframedGrpcErrorHandler(HttpApiServer::error)
        // unknown fields refused (Armeria ignores them by default): a misspelt field is an error the
        // page's author sees, not a silently missing filter
        .jsonMarshallerFactory(service -> new ExplainedJson(com.linecorp.armeria.common.grpc.GrpcJsonMarshaller.builder()
            .jsonMarshallerCustomizer(m -> m.ignoringUnknownFields(false))
            .build(service)))
        .maxRequestMessageLength(MAX_REQUEST_BYTES)
        // the handlers are CPU-bound and never block: they run on the event loops, like the gRPC port's
        .useBlockingTaskExecutor(false);
    for (ServerServiceDefinition s : services) grpc.addService(s);
    ServerBuilder b = Server.builder()
        .http(bind)
        .maxRequestLength(MAX_REQUEST_BYTES)
        .requestTimeout(Duration.ofSeconds(10))
        .gracefulShutdownTimeout(Duration.ZERO, Duration.ofSeconds(2))
        .service(grpc.build())
        .serviceUnder("/", FileService.builder(HttpApiServer.class.getClassLoader(), WEB_ROOT)
            .cacheControl("no-cache") // the page and the API change together on upgrade
            .build()
            .decorate((delegate, ctx, req) -> anonymous.take(anonymous.clients().resolve(ctx.remoteAddress(),
                req.headers().getAll(dev.reed.coordinator.location.ClientAddress.FORWARDED_FOR_HEADER)))
                ? delegate.serve(ctx, req) : tooMany()));
    if (!corsOrigins.isEmpty()) {
      CorsServiceBuilder cors = corsOrigins.contains("*") ? CorsService.builderForAnyOrigin() : CorsService.builder(corsOrigins);
      b.decorator(cors
          .allowRequestMethods(HttpMethod.POST, HttpMethod.GET, HttpMethod.OPTIONS)
          .allowRequestHeaders("content-type", "x-api-key", "x-grpc-web", "x-user-agent", "grpc-timeout")
          .exposeHeaders("grpc-status", "grpc-message", "grpc-status-details-bin")
          .maxAge(Duration.ofHours(1))
          .newDecorator());
    }
    Server server = b.build();
    server.start().join();
    InetSocketAddress bound = server.activePorts().values().iterator().next().localAddress();
    String host = bound.getAddress().isAnyLocalAddress() ? "0.0.0.0" : bound.getAddress().getHostAddress();
    if (host.contains(":")) host = "[" + host + "]";
    String url = "http://" + host + ":" + bound.getPort() + "/";
    log.info("HTTP (JSON, gRPC-Web, gRPC, web page) on {}{}", url,
        corsOrigins.isEmpty() ? "" : ", CORS for " + String.join(" ", corsOrigins));
    return new HttpApiServer(server, url);
  }

  private static com.linecorp.armeria.common.HttpResponse tooMany() {
    return com.linecorp.armeria.common.HttpResponse.of(com.linecorp.armeria.common.ResponseHeaders.builder(
            com.linecorp.armeria.common.HttpStatus.TOO_MANY_REQUESTS).contentType(com.linecorp.armeria.common.MediaType.PLAIN_TEXT_UTF_8)
            .set("retry-after", "1").build(),
        com.linecorp.armeria.common.HttpData.ofUtf8("too many requests from this network without an API key\n"));
  }

  /** Says why a body does not parse (Armeria would answer INVALID_ARGUMENT without a message). */
  private record ExplainedJson(com.linecorp.armeria.common.grpc.GrpcJsonMarshaller json)
      implements com.linecorp.armeria.common.grpc.GrpcJsonMarshaller {
    @Override
    public <T> void serializeMessage(io.grpc.MethodDescriptor.Marshaller<T> m, T message, java.io.OutputStream out)
        throws java.io.IOException {
      json.serializeMessage(m, message, out);
    }

    @Override
    public <T> T deserializeMessage(io.grpc.MethodDescriptor.Marshaller<T> m, java.io.InputStream in) throws java.io.IOException {
      try {
        return json.deserializeMessage(m, in);
      } catch (java.io.IOException | RuntimeException e) {
        throw io.grpc.Status.INVALID_ARGUMENT.withDescription("the request body is not valid in the proto3 JSON mapping: "
            + reason(e)).asRuntimeException();
      }
    }

    private static final java.util.regex.Pattern AT = java.util.regex.Pattern.compile("line: (\\d+), column: (\\d+)\\]\\s*$");

    /** The parser's reason in one line, with where, without Jackson's source-redaction notes. */
    static String reason(Exception e) {
      String m = String.valueOf(e.getMessage());
      String first = m.lines().findFirst().orElse(m).replaceAll("\\s*\\(start marker at .*", "")
          .replaceAll("\\s*at \\[Source: .*", "");
      java.util.regex.Matcher at = AT.matcher(m);
      return at.find() ? first + " at line " + at.group(1) + ", column " + at.group(2) : first;
    }
  }

  private static final com.linecorp.armeria.server.grpc.UnframedGrpcErrorHandler JSON_ERRORS =
      com.linecorp.armeria.server.grpc.UnframedGrpcErrorHandler.ofJson();

  /**
   * Armeria's JSON error body ({@code {"code":3,"grpc-code":"INVALID_ARGUMENT","message":...}}), with
   * a message also when the body did not parse (Armeria leaves it out: the reason is in the cause).
   */
  private static com.linecorp.armeria.common.HttpResponse error(com.linecorp.armeria.server.ServiceRequestContext ctx,
      io.grpc.Status status, com.linecorp.armeria.common.AggregatedHttpResponse response) {
    io.grpc.Status s = status;
    if (s.getDescription() == null && s.getCode() == io.grpc.Status.Code.INVALID_ARGUMENT) {
      Throwable cause = s.getCause();
      while (cause != null && cause.getCause() != null && cause.getMessage() != null
          && cause.getMessage().equals(String.valueOf(cause.getCause()))) {
        cause = cause.getCause();
      }
      s = s.withDescription("the request body is not " + ctx.path().substring(1) + "'s request in the proto3 JSON mapping"
          + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()));
    }
    return JSON_ERRORS.handle(ctx, s, response);
  }

  public InetSocketAddress address() {
    return server.activePorts().values().iterator().next().localAddress();
  }

  /** {@code http://HOST:PORT/}: the page; the API is under it. */
  public String url() {
    return url;
  }

  /** Stops accepting, lets running calls finish for up to 2 s. */
  @Override
  public void close() {
    server.stop().join();
  }
}
