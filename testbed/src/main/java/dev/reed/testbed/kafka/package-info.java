/**
 * A real single-node Kafka broker (KRaft) in-process with the project's topics, and
 * {@code ./reed kafka} to run it; the JUnit extension around it is a test fixture in this module's
 * test-jar.
 */
package dev.reed.testbed.kafka;
