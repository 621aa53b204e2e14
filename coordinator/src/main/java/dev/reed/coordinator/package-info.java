/**
 * The coordinator service: samples from Kafka to coordinates to rankings over gRPC. {@link
 * dev.reed.coordinator.Coordinator} wires the stages in the sub-packages; {@link
 * dev.reed.coordinator.CoordinatorCommand} runs one replica ({@code ./reed coordinator} or
 * {@code java -jar reed-coordinator.jar}).
 */
package dev.reed.coordinator;
