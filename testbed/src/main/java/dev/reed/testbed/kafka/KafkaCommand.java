package dev.reed.testbed.kafka;

import dev.reed.proto.Topic;
import dev.reed.runtime.options.OptionHeadings;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./reed kafka}: a real single-node broker for development and the demo. */
@Command(
    name = "kafka",
    mixinStandardHelpOptions = true,
    description = {
      "Run a real single-node Kafka broker on 127.0.0.1 with the project's topics.",
      "KRaft, in-process, until interrupted. A restart on the same --data-dir keeps the data."
    })
public final class KafkaCommand implements Callable<Integer>, OptionHeadings.Sectioned {

  /** --help by topic (OptionHeadings; ReedTest checks every option is under one). */
  static final OptionHeadings HEADINGS = OptionHeadings.of(
      OptionHeadings.section("Broker", "--port", "--data-dir"));

  @Override
  public OptionHeadings optionHeadings() {
    return HEADINGS;
  }

  @Option(names = "--port", defaultValue = "9092", description = "Client port on 127.0.0.1 (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--data-dir", defaultValue = "reed-data/kafka",
      description = "Log and metadata directory, created if missing (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Override
  public Integer call() throws InterruptedException {
    EmbeddedKafka kafka = new EmbeddedKafka(port, dataDir, true);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      kafka.stop();
      stopped.countDown();
    }, "kafka-shutdown"));
    System.out.println("Starting Kafka on 127.0.0.1:" + port + " (data " + kafka.dataDir() + ") ...");
    kafka.start();
    System.out.println("Topics: " + String.join(", ", Topic.ALL.stream().map(Topic::name).toList()));
    System.out.println("Kafka ready: bootstrap.servers=" + kafka.bootstrapServers() + "  (Ctrl-C stops it)");
    stopped.await();
    return 0;
  }
}
