package dev.reed.coordinator.api;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link StatusRuntimeException} thrown by a handler into that status (grpc-java would
 * otherwise report UNKNOWN), and any other exception into INTERNAL without leaking its message.
 * Handlers can then validate by throwing, and a bug never becomes a hung call.
 */
final class StatusExceptionInterceptor implements ServerInterceptor {
  private static final Logger log = LoggerFactory.getLogger(StatusExceptionInterceptor.class);

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    ServerCall.Listener<Q> delegate = next.startCall(call, headers);
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
      @Override
      public void onMessage(Q message) {
        guard(() -> super.onMessage(message));
      }

      @Override
      public void onHalfClose() {
        guard(super::onHalfClose);
      }

      @Override
      public void onReady() {
        guard(super::onReady);
      }

      private void guard(Runnable r) {
        try {
          r.run();
        } catch (StatusRuntimeException e) {
          close(e.getStatus(), e.getTrailers());
        } catch (RuntimeException e) {
          log.error("{} failed", call.getMethodDescriptor().getFullMethodName(), e);
          close(Status.INTERNAL.withDescription("internal error"), null);
        }
      }

      private void close(Status status, Metadata trailers) {
        try {
          call.close(status, trailers == null ? new Metadata() : trailers);
        } catch (IllegalStateException alreadyClosed) {
          // the handler closed the call before it threw
        }
      }
    };
  }
}
