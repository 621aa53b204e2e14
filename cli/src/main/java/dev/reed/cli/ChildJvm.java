package dev.reed.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a child JVM run like this one: the same java binary and class path, the
 * access flags {@code ./reed} gives its own JVM (Kafka and Netty use native and off-heap access;
 * JDK 21 rejects the {@code sun.misc.Unsafe} flag, so only from 24 on), then the child's own JVM
 * options, main class and arguments. The demo's emulation processes and the scale harness's
 * replicas and query load start their processes with it.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** {@code java [access flags] jvmOptions -cp CLASSPATH mainClass args}. */
  public static List<String> command(List<String> jvmOptions, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>(List.of(java(), "--enable-native-access=ALL-UNNAMED"));
    if (Runtime.version().feature() >= 24) command.add("--sun-misc-unsafe-memory-access=allow");
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(args);
    return command;
  }

  /** This JVM's java binary ("java" on the PATH if the OS does not say). */
  public static String java() {
    return ProcessHandle.current().info().command().orElse("java");
  }
}
