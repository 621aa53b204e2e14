package dev.reed.runtime.options;

import picocli.CommandLine.Option;

/** {@code --log-client-addresses}: whether log lines may name clients (agent, coordinator; see LoggedAddresses). */
public final class ClientAddressLogging {
  @Option(names = "--log-client-addresses",
      description = "let log lines name clients' addresses (to trace a flood); by default none does, at any level")
  boolean enabled;

  /** True when log lines may name clients' addresses. */
  public boolean enabled() {
    return enabled;
  }
}
