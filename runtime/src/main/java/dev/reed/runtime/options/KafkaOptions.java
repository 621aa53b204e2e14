package dev.reed.runtime.options;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --kafka} and {@code --kafka-config}: where the services' Kafka is and how to talk to it (agent, coordinator). */
public final class KafkaOptions {
  @Option(names = "--kafka", paramLabel = "HOST:PORT[,HOST:PORT...]",
      description = "Kafka bootstrap servers; required")
  String bootstrap;

  @Option(names = "--kafka-config", paramLabel = "FILE",
      description = "Kafka client properties for TLS/SASL (security.protocol, ssl.*, sasl.*), applied to every Kafka "
          + "client of the process (default: none)")
  Path config;

  /** The bootstrap servers, null when not given. */
  public String bootstrap() {
    return bootstrap;
  }

  /** The client properties file, null when not given. */
  public Path config() {
    return config;
  }
}
