package dev.reed.testbed.kafka;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One real embedded broker per test class, with the project's topics and a temporary data
 * directory. Register it as a static field and reach the broker through {@link #broker()}, or
 * declare an {@link EmbeddedKafka} parameter:
 *
 * <pre>{@code
 * @RegisterExtension static final KafkaExtension KAFKA = new KafkaExtension();
 * ... KAFKA.broker().bootstrapServers() ...
 * }</pre>
 */
public final class KafkaExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
  private EmbeddedKafka broker;

  /** The running broker; only valid between beforeAll and afterAll. */
  public EmbeddedKafka broker() {
    if (broker == null) throw new IllegalStateException("the broker starts in beforeAll; register the extension as a static field");
    return broker;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    broker = EmbeddedKafka.temporary().start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (broker != null) broker.close();
    broker = null;
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    return p.getParameter().getType() == EmbeddedKafka.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    return broker();
  }
}
