package dev.reed.proto;

import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * gRPC messages kept as their encoded bytes, neither built nor parsed: the coordinator answers
 * GetOrderedServers with pages assembled from pre-encoded servers, and load generators count the
 * answers without the parse a real client does on its own machine.
 */
public final class EncodedMessages {
  private EncodedMessages() {}

  /** Bytes out as they are, bytes in as they came. */
  public static final MethodDescriptor.Marshaller<byte[]> MARSHALLER = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new KnownLengthStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  private static final class KnownLengthStream extends ByteArrayInputStream implements KnownLength {
    KnownLengthStream(byte[] b) {
      super(b);
    }
  }
}
