package dev.reed.cli.snapshot;

import com.google.protobuf.util.JsonFormat;
import dev.reed.coordinator.snapshot.SnapshotFiles;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.SnapshotHeader;
import dev.reed.proto.v1.SnapshotServiceGrpc;
import dev.reed.proto.v1.StreamSnapshotRequest;
import dev.reed.proto.v1.StreamSnapshotResponse;
import dev.reed.runtime.options.OptionHeadings;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Iterator;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./reed snapshot}: pulls the live coordinate snapshot from a coordinator through SnapshotService. */
@Command(name = "snapshot", mixinStandardHelpOptions = true,
    description = {"Download the live coordinate snapshot from a coordinator (CSV or JSON lines).",
        "Streams every server coordinate through SnapshotService.StreamSnapshot and writes it to --out"
            + " (written to a temporary file and moved into place; .gz in the name compresses)."})
public final class SnapshotCommand implements Callable<Integer>, OptionHeadings.Sectioned {

  /** --help by topic (OptionHeadings; ReedTest checks every option is under one). */
  static final OptionHeadings HEADINGS = OptionHeadings.of(
      OptionHeadings.section("Coordinator", "--coordinator", "--deadline", "--tls", "--tls-ca", "--api-key"),
      OptionHeadings.section("Output", "--out", "--format"));

  @Override
  public OptionHeadings optionHeadings() {
    return HEADINGS;
  }

  /** Output formats. */
  public enum Format { csv, jsonl }

  @Option(names = "--coordinator", required = true, paramLabel = "HOST:PORT", description = "coordinator gRPC address")
  String coordinator;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "output file ('-' = standard output)")
  Path out;

  @Option(names = "--format", defaultValue = "csv", description = "csv or jsonl (default: ${DEFAULT-VALUE})")
  Format format;

  @Option(names = "--tls", description = "connect with TLS")
  boolean tls;

  @Option(names = "--tls-ca", paramLabel = "FILE", description = "PEM CA certificate to trust (with --tls)")
  Path tlsCa;

  @Option(names = "--api-key", paramLabel = "KEY", defaultValue = "${REED_API_KEY}",
      description = "API key sent as x-api-key (default: env REED_API_KEY)")
  String apiKey;

  /** The same word and unit as browse's --deadline: a coordinator call's deadline. */
  @Option(names = "--deadline", defaultValue = "120000", paramLabel = "MS",
      description = "deadline of the coordinator call (default: ${DEFAULT-VALUE})")
  long deadlineMs;

  @Override
  public Integer call() throws Exception {
    PrintStream err = System.err;
    ChannelCredentials creds = InsecureChannelCredentials.create();
    if (tls) {
      TlsChannelCredentials.Builder b = TlsChannelCredentials.newBuilder();
      if (tlsCa != null) b.trustManager(tlsCa.toFile());
      creds = b.build();
    }
    ManagedChannel channel = Grpc.newChannelBuilder(coordinator, creds).build();
    try {
      SnapshotServiceGrpc.SnapshotServiceBlockingStub stub = SnapshotServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS);
      if (apiKey != null && !apiKey.isBlank()) {
        Metadata h = new Metadata();
        h.put(Metadata.Key.of("x-api-key", Metadata.ASCII_STRING_MARSHALLER), apiKey);
        stub = stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(h));
      }
      long n = download(stub, out, format, err);
      err.println("wrote " + n + " server coordinates to " + out);
      return 0;
    } catch (StatusRuntimeException e) {
      err.println("snapshot failed: " + e.getStatus().getCode() + ": " + e.getStatus().getDescription());
      return 2;
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** Streams the snapshot into {@code file}; returns the number of servers written. */
  public static long download(SnapshotServiceGrpc.SnapshotServiceBlockingStub stub, Path file, Format format,
      PrintStream progress) throws IOException {
    Iterator<StreamSnapshotResponse> it = stub.streamSnapshot(StreamSnapshotRequest.getDefaultInstance());
    if (!it.hasNext()) throw new IOException("empty snapshot stream");
    StreamSnapshotResponse first = it.next();
    if (!first.hasHeader()) throw new IOException("snapshot stream did not start with a header");
    SnapshotHeader header = first.getHeader();
    boolean stdout = file.toString().equals("-");
    Path tmp = stdout ? null : file.toAbsolutePath().resolveSibling("." + file.getFileName() + ".tmp");
    OutputStream raw = stdout ? System.out : Files.newOutputStream(tmp);
    if (!stdout && file.getFileName().toString().endsWith(".gz")) raw = new GZIPOutputStream(raw);
    long n = 0;
    Instant now = Instant.now();
    Writer w = new BufferedWriter(new OutputStreamWriter(raw, StandardCharsets.UTF_8));
    try {
      if (format == Format.csv) {
        w.write(SnapshotFiles.csvHeader(header.getDimensions()));
        w.write('\n');
      }
      JsonFormat.Printer json = JsonFormat.printer().omittingInsignificantWhitespace();
      long lastReport = System.nanoTime();
      while (it.hasNext()) {
        for (ServerCoordinate c : it.next().getChunk().getServersList()) {
          w.write(format == Format.csv ? SnapshotFiles.csvRow(c, now) : json.print(c));
          w.write('\n');
          n++;
        }
        if (System.nanoTime() - lastReport > 1_000_000_000L) {
          progress.printf("%d / %d servers%n", n, header.getServerCount());
          lastReport = System.nanoTime();
        }
      }
      w.flush();
    } finally {
      if (stdout) w.flush();
      else w.close();
    }
    if (!stdout) Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    if (n != header.getServerCount()) {
      throw new IOException("snapshot announced " + header.getServerCount() + " servers but streamed " + n);
    }
    return n;
  }
}
