/**
 * The landmark agent service: probes game servers and peer landmarks in rounds and publishes the
 * RTT samples to Kafka. {@link dev.reed.agent.LandmarkAgent} wires the sub-packages; {@link
 * dev.reed.agent.AgentCommand} runs it ({@code ./reed agent} or {@code java -jar reed-landmark-agent.jar}).
 */
package dev.reed.agent;
