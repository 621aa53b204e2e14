package dev.reed.coordinator.api;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import java.util.concurrent.TimeUnit;

/**
 * A deadline counted from each call's start. A stub's {@code withDeadlineAfter} is one instant for
 * every call made with it: a stub built once for a class then failed every call made after it, which
 * a loaded machine reached. A deadline set for one call ({@code stub.withDeadlineAfter(...).call()})
 * is kept: a test of an expired deadline still gets its own.
 */
public final class EachCallDeadline implements ClientInterceptor {
  private final long seconds;

  public EachCallDeadline(long seconds) {
    this.seconds = seconds;
  }

  @Override
  public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
    return next.newCall(method, options.getDeadline() != null ? options : options.withDeadlineAfter(seconds, TimeUnit.SECONDS));
  }
}
