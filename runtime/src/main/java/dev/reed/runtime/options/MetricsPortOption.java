package dev.reed.runtime.options;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --metrics-port PORT|off}: where a service serves {@code /metrics} (Prometheus) and
 * {@code /healthz} (agent, coordinator). One meaning for both, as their other ports have: a port,
 * 0 = any free port (the log line names it), {@code off} or -1 = no endpoint.
 */
public final class MetricsPortOption {
  /** No endpoint. */
  public static final int OFF = -1;

  @Option(names = "--metrics-port", paramLabel = "PORT|off", defaultValue = "off", converter = PortOrOff.class,
      description = "HTTP port for /metrics (Prometheus) and /healthz: 1-65535, 0 = any free port, off (or -1) = none "
          + "(default: ${DEFAULT-VALUE})")
  int port = OFF;

  /** The port, 0 for any free one, or {@link #OFF}. */
  public int port() {
    return port;
  }

  /** A port number, 0, or {@code off}/-1 ({@link #OFF}). */
  static final class PortOrOff implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      String v = value.strip().toLowerCase(Locale.ROOT);
      if (v.equals("off") || v.equals("-1")) return OFF;
      try {
        int port = Integer.parseInt(v);
        if (port >= 0 && port <= 65535) return port;
      } catch (NumberFormatException e) {
        // the message below says what is allowed
      }
      throw new TypeConversionException("'" + value + "' is not a port: 1-65535, 0 (any free port) or off");
    }
  }
}
